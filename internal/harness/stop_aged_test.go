package harness

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// agedRunner is fakeRunner answering, besides, which paths were last
// changed before a time: those in old.
type agedRunner struct {
	*fakeRunner
	old map[string]bool
}

func (a agedRunner) ChangedBefore(rel string, _ time.Time) bool { return a.old[rel] }

// stopOver plays a Stop whose uncommitted change is red with out, the
// paths in old unchanged since the session began (at began; 0 records no
// start).
func stopOver(t *testing.T, out string, old map[string]bool, began int64) string {
	t.Helper()
	r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"h0000": nil}, red: map[string]bool{}}
	r.tips = []Tip{{"HEAD", "h0000"}, {"refs/heads/main", "h0000"}}
	if began > 0 {
		write(t, stateName(r.state, "s1", stateBaseAt), strconv.FormatInt(began, 10))
	}
	runner := agedRunner{&fakeRunner{Change: []string{"docs/mine.md", "docs/guide.md"}, For: &Result{Ran: 1, Red: []Red{{Name: "check-tree-terms", Code: 1, Output: out}}}}, old}
	m, _ := Lookup("stop-gates")
	var stdout, errb bytes.Buffer
	p := &Payload{SessionID: "s1", HookEventName: "Stop", Cwd: "/srv/dev/project"}
	m.Run(&Call{Member: "stop-gates", Payload: p, Stdout: &stdout, Stderr: &errb, Gates: runner, Repo: r})
	return stdout.String()
}

// assertion Q: a red result every finding line of which names a path no
// write has reached since the session began is the user's, not the
// agent's; a line on a path written since, or a session with no recorded
// start, keeps it.
func TestStopLeavesWhatPredatesTheSessionOut(t *testing.T) {
	const help = "help: remove the banned term"
	mine := "docs/mine.md:1: a home path\n" + help
	old := map[string]bool{"docs/mine.md": true}
	began := time.Now().Unix()
	if got := stopOver(t, mine, old, began); got != "" {
		t.Fatalf("only the user's untouched file: said %q", got)
	}
	if got := stopOver(t, "docs/guide.md:2: a home path\n"+mine, old, began); !strings.Contains(got, "docs/guide.md:2") {
		t.Fatalf("a line on a file written since: said %q", got)
	}
	if got := stopOver(t, mine, old, 0); !strings.Contains(got, "docs/mine.md:1") {
		t.Fatalf("no recorded start: said %q", got)
	}
	if got := stopOver(t, "the registry does not resolve\n"+help, old, began); !strings.Contains(got, "does not resolve") {
		t.Fatalf("a line naming no path: said %q", got)
	}
}
