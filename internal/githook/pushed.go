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

// PushedNewName is the record of the commits pushes sent that no fetch
// had brought (newest last), apart from PushedName so a binary that reads
// only that record reads it as before.
const PushedNewName = "gates-pushed-new"

const (
	pushedNewHeader = "gates pushed new commits v1"
	// pushedNewEach bounds what one push adds: the newest commits it
	// sends that no fetch brought.
	pushedNewEach = 64
)

// prePush is `--git-hook pre-push <remote> <url>`: the local commits git
// lists on stdin (`<local ref> <local id> <remote ref> <remote id>`; a
// deletion sends the zero id) are added to the record, those a notes ref
// sends to a notes ref marked as such. The commits the push sends that no
// remote-tracking ref and no FETCH_HEAD line reaches yet are kept apart
// (PushedNewName). A failure is said on stderr and refuses nothing.
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
	if err := recordPushedNew(w, top, common, now, sent); err != nil {
		return warn(err)
	}
	return 0
}

// recordPushedNew keeps, of the commits sent (notes apart), those no
// remote-tracking ref and no FETCH_HEAD id reaches now, before the push
// updates any ref. assertion G: a commit this clone sent before any fetch
// held it is the agent's when a fetch brings it back (the round trip), and
// what a fork's sync sends was fetched first, so it is not kept.
func recordPushedNew(w World, top, common, now string, sent []string) error {
	var in strings.Builder
	for _, id := range sent {
		if !strings.HasSuffix(id, notesMark) {
			in.WriteString(id + "\n")
		}
	}
	if in.Len() == 0 {
		return nil
	}
	g := w.git()
	gd, _, err := walk.GitDirs(top, g.Env)
	if err != nil {
		return err
	}
	if data, err := walk.ReadConfig(walk.Child(gd, "FETCH_HEAD")); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if f := strings.Fields(l); len(f) > 0 && walk.ObjectID(f[0]) {
				in.WriteString("^" + f[0] + "\n")
			}
		}
	}
	out, err := g.Run(top, "list the commits the push sends that no fetch brought", []byte(in.String()),
		"rev-list", fmt.Sprintf("--max-count=%d", pushedNewEach), "--ignore-missing", "--not", "--remotes", "--not", "--stdin")
	if err != nil {
		return err
	}
	ids := strings.Fields(string(out))
	if len(ids) == 0 {
		return nil
	}
	p := walk.Child(common, PushedNewName)
	lines, err := readLandingRecord(p, pushedNewHeader)
	if err != nil {
		lines = nil // an unreadable record is replaced
	}
	for _, id := range ids {
		lines = append(lines, now+" "+id)
	}
	if len(lines) > pushedKept {
		lines = lines[len(lines)-pushedKept:]
	}
	return writeLandingRecord(p, pushedNewHeader, lines)
}

// ReadPushedNew answers the commits PushedNewName under common holds,
// oldest first; none when there is no record.
func ReadPushedNew(common string) ([]Pushed, error) {
	lines, err := readLandingRecord(walk.Child(common, PushedNewName), pushedNewHeader)
	if err != nil {
		return nil, err
	}
	var out []Pushed
	for _, l := range lines {
		at, id, ok := strings.Cut(l, " ")
		n, err := strconv.ParseInt(at, 10, 64)
		if !ok || err != nil || !walk.ObjectID(id) {
			return nil, fmt.Errorf("%s: a line out of shape: %q", PushedNewName, l)
		}
		out = append(out, Pushed{Commit: id, At: n})
	}
	return out, nil
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
