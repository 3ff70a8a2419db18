package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/baseline"
	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// runStatusline is --statusline: the harness renders its stdout as the
// status line and ignores its status, so it always exits 0 and never
// refuses.
func runStatusline(s *Session, args []string) int {
	if len(args) > 0 {
		// assertion A: a surplus argument is named once on stderr, before
		// the payload, and the line renders as it would bare.
		fmt.Fprintf(s.Stderr, "gates --statusline: takes no argument; ignoring %q\n", args[0])
	}
	session := ""
	if s.Stdin != nil {
		// The harness's payload names the session, whose red commits the
		// line shows. It is read bounded in size and in time (a stdin
		// that never closes costs at most statusPayloadWait), and the rest
		// drained so the harness's write never blocks.
		session = payloadSession(s.Stdin)
	}
	st := s.status(time.Now(), session)
	fmt.Fprintln(s.Stdout, harness.StatusLine(st))
	return 0
}

// statusPayloadWait bounds the wait for the status-line payload. The
// harness writes it at once; the bound only matters for a stdin that
// never sends, and it is wide enough that a loaded machine's scheduling
// does not lose a payload that was there (40 ms did, at a load of 9).
const statusPayloadWait = 250 * time.Millisecond

// payloadSession answers the payload's session_id, or "" when none arrives
// in time or it does not parse. A terminal on stdin (the line run by hand)
// sends no payload, and is not waited for.
func payloadSession(in io.Reader) string {
	if f, ok := in.(*os.File); ok && isTerminal(f) {
		return ""
	}
	got := make(chan string, 1)
	go func() {
		var p struct {
			SessionID string `json:"session_id"`
		}
		dec := json.NewDecoder(io.LimitReader(in, 1<<20))
		if dec.Decode(&p) != nil {
			p.SessionID = ""
		}
		got <- p.SessionID
		io.Copy(io.Discard, io.LimitReader(in, 1<<20))
	}()
	select {
	case id := <-got:
		return id
	case <-time.After(statusPayloadWait):
		return ""
	}
}

// status gathers the line's facts: one git answer (the top, the common
// directory, the hooks directory git runs) and three small files. No battery, no index
// read, no walk: its cost does not grow with the tree.
func (s *Session) status(now time.Time, session string) harness.Status {
	st := harness.Status{Now: now, Accepted: -1}
	cwd, err := s.Cwd()
	if err != nil {
		return st
	}
	place, ok := walk.LocateStatus(cwd, nil)
	if !ok {
		st.Lost = lostRepository(s, cwd)
		return st
	}
	st.Repo = true
	top := place.Top
	// assertion B: the verdict is the last whole battery's record, never
	// a fresh run.
	if data, err := walk.ReadConfig(walk.Child(walk.Child(place.CommonDir, cache.SubDir), harness.LastVerdictName)); err == nil {
		if v, ok := harness.ParseLastVerdict(data); ok {
			st.Verdict = &v
		}
	}
	// assertion E: "hooks on" only while git runs the placed hooks on the
	// recorded binary; an opted-in clone whose footing is not whole
	// shows why.
	env := s.Env
	if env == nil {
		env = os.LookupEnv
	}
	switch state, why := githook.Footing(top, place.CommonDir, place.HooksDir, githook.Lookup(env)); state {
	case githook.FootingOn:
		st.Hooks = true
	case githook.FootingBroken:
		st.Broken = why
	}
	hs := newSession(s.IO)
	hs.cwdOnce.Do(func() { hs.cwd = top })
	if gatesDir, err := hs.GatesDir(); err == nil {
		// assertion C: absent baseline, no count; present, the findings it
		// accepts (an entry counts its multiplicity), through the
		// baseline's own reader.
		rel := walk.Child(gatesDir, baseline.Name)
		if data, err := walk.ReadConfig(walk.AbsAgainst(top, rel)); err == nil {
			st.Accepted = -2
			if f, err := baseline.Parse(rel, data); err == nil {
				st.Accepted = 0
				for _, e := range f.Entries {
					st.Accepted += e.Count
				}
			}
		}
	}
	// assertion D: the session's red commits, from the record the agent
	// hook keeps under the git dir.
	if session != "" && place.GitDir != "" {
		dir := walk.Child(place.GitDir, StateDirName)
		if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
			st.JudgeBroken = dir + " is not a directory"
		}
		// assertion F: a red commit is shown only while a ref reaches it;
		// the commits the judge left out are counted.
		st.RedCommits = reachableRed(top, harness.SessionRed(dir, session))
		st.Unjudged = harness.SessionUnjudged(dir, session)
		// assertion E: a settings file that lost the gates' registrations
		// since the session began is a broken footing too.
		if cut := harness.SessionSettingsCut(dir, session, newHookRepo(s, top).KeptOff); cut != "" && st.Broken == "" {
			st.Broken = cut
		}
	}
	return st
}

// maxRedChecked bounds the git answers the line spends on red commits.
const maxRedChecked = 10

// reachableRed answers the short ids of the red commits some ref (HEAD
// included) still reaches, sorted: one git answer per red commit, and
// none when there is none. A commit git cannot place is left out.
func reachableRed(top string, red map[string]string) []string {
	var out []string
	n := 0
	for id, short := range red {
		if n++; n > maxRedChecked {
			out = append(out, short)
			continue
		}
		o, err := repo.Git{}.Run(top, "place a red commit", nil, "rev-list", "--max-count=1", id, "--not", "--all")
		if err == nil && len(strings.TrimSpace(string(o))) == 0 {
			out = append(out, short)
		}
	}
	sort.Strings(out)
	return out
}

// recordLastVerdict leaves a whole battery's outcome where the status line
// reads it, in the result cache's directory (so GATE_SDK_CACHE=off writes
// none). A failure to write is the status line's loss only: it is
// reported on stderr and changes no verdict.
func (s *Session) recordLastVerdict(ran int, red []string) {
	if !cacheWanted(s) {
		return // GATE_SDK_CACHE=off: the result cache's directory is not written
	}
	snap, err := s.Snapshot()
	if err != nil || snap.CommonDir() == "" {
		return
	}
	dir := walk.Child(snap.CommonDir(), cache.SubDir)
	data := harness.FormatLastVerdict(harness.LastVerdict{At: time.Now(), Ran: ran, Red: red})
	if err := os.MkdirAll(dir, 0o755); err == nil {
		err = walk.ReplaceFile(walk.Child(dir, harness.LastVerdictName), data)
		if err == nil {
			return
		}
	}
	fmt.Fprintf(s.Stderr, "%s: could not record the verdict for the status line under %s\n", s.prog, dir)
}
