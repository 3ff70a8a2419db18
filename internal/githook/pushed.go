package githook

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/walk"
)

// PrePush records what a push sends. It judges nothing and refuses
// nothing: git hands it each ref the push updates with the local commit
// it sends, and those commits are kept (with the time) under git's common
// dir, so the agent hook's commit judge reaches a commit pushed by URL or
// from no local ref, which no ref of this clone holds afterwards.
const PrePush = "pre-push"

// PushedName is the record of the commits pushes sent, newest last.
const PushedName = "gates-pushed"

const (
	pushedHeader = "gates pushed commits v1"
	// pushedKept bounds the record: the judge asks only for pushes made
	// since a session began.
	pushedKept = 256
)

// Pushed is one commit a push sent, and when (Unix seconds). Notes: it
// went from a notes ref to a notes ref.
type Pushed struct {
	Commit string
	At     int64
	Notes  bool
}

// notesMark ends a record line whose commit a notes ref sent to a notes
// ref.
const notesMark = " notes"

// prePush is `--git-hook pre-push <remote> <url>`: the local commits git
// lists on stdin (`<local ref> <local id> <remote ref> <remote id>`; a
// deletion sends the zero id) are added to the record, those a notes ref
// sends to a notes ref marked as such. A failure is said on stderr and
// refuses nothing.
func prePush(w World) int {
	// assertion Y: pre-push records the commits a push sends.
	top, ok := w.top(PrePush)
	if !ok {
		return 0
	}
	warn := func(err error) int {
		fmt.Fprintf(w.Stderr, "%s: could not record the pushed commits for the agent hook's judge: %v\n", PrePush, err)
		return 0
	}
	var sent []string
	if w.Stdin != nil {
		sc := bufio.NewScanner(w.Stdin)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 4 || !walk.ObjectID(f[1]) || strings.Trim(f[1], "0") == "" {
				continue
			}
			// A notes ref sent to a notes ref carries git-notes commits,
			// whose trees hold notes, not the project, unless the agent
			// parked a project commit there: the judge tells the two
			// apart by history.
			if strings.HasPrefix(f[0], "refs/notes/") && strings.HasPrefix(f[2], "refs/notes/") {
				sent = append(sent, f[1]+notesMark)
				continue
			}
			sent = append(sent, f[1])
		}
		if err := sc.Err(); err != nil && err != io.EOF {
			return warn(err)
		}
	}
	if len(sent) == 0 {
		return 0
	}
	common, err := commonDir(w.git(), top)
	if err != nil {
		return warn(err)
	}
	p := walk.Child(common, PushedName)
	lines, err := readLandingRecord(p, pushedHeader)
	if err != nil {
		lines = nil // an unreadable record is replaced
	}
	now := strconv.FormatInt(time.Now().Unix(), 10)
	for _, id := range sent {
		lines = append(lines, now+" "+id)
	}
	if len(lines) > pushedKept {
		lines = lines[len(lines)-pushedKept:]
	}
	if err := writeLandingRecord(p, pushedHeader, lines); err != nil {
		return warn(err)
	}
	return 0
}

// ReadPushed answers the commits the record under common holds, oldest
// first; none when there is no record.
func ReadPushed(common string) ([]Pushed, error) {
	lines, err := readLandingRecord(walk.Child(common, PushedName), pushedHeader)
	if err != nil {
		return nil, err
	}
	var out []Pushed
	for _, l := range lines {
		rest, notes := strings.CutSuffix(l, notesMark)
		at, id, ok := strings.Cut(rest, " ")
		n, err := strconv.ParseInt(at, 10, 64)
		if !ok || err != nil || !walk.ObjectID(id) {
			return nil, fmt.Errorf("%s: a line out of shape: %q", PushedName, l)
		}
		out = append(out, Pushed{Commit: id, At: n, Notes: notes})
	}
	return out, nil
}
