package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/shlex"
)

// growingRepo is a fake repository whose staged baseline adds entries.
type growingRepo struct {
	*fakeRepo
	added []string
	err   error
}

func (g *growingRepo) BaselineAdded() ([]string, error) { return g.added, g.err }

// Issue 42 item 19 (assertion G, not covered before): a commit whose
// baseline accepts new findings is blocked naming each, one that adds
// nothing is allowed, a baseline that cannot be compared declines, and a
// command that commits nothing never asks.
func TestCommitGuardBaselineGrowth(t *testing.T) {
	base := &fakeRepo{state: t.TempDir(), hooks: HooksState{OptedIn: true}}
	grow := &growingRepo{fakeRepo: base, added: []string{"check-tree-terms README.md leak — pattern scripts/banned.list:1"}}
	commit := map[string]any{"command": `git commit -m "feat: x"`}
	code, out, errs := call(t, grow.fakeRepo, "commit-guard", PreToolUse, "Bash", commit)
	if code != Allow || out != "" {
		t.Fatalf("setup: a plain commit with no baseline reader: %d %q %q", code, out, errs)
	}
	code, _, errs = callRepo(t, grow, "commit-guard", PreToolUse, "Bash", commit)
	if code != Block || !strings.Contains(errs, "accepts new findings") || !strings.Contains(errs, "\n  check-tree-terms README.md leak — pattern scripts/banned.list:1\n") {
		t.Errorf("a growing baseline: %d %q", code, errs)
	}
	grow.added = nil
	if code, out, errs := callRepo(t, grow, "commit-guard", PreToolUse, "Bash", commit); code != Allow || out != "" || errs != "" {
		t.Errorf("a baseline that adds nothing: %d %q %q", code, out, errs)
	}
	grow.err = errors.New("cannot read the staged baseline")
	if code, out, _ := callRepo(t, grow, "commit-guard", PreToolUse, "Bash", commit); code != Allow || !strings.Contains(out, "cannot read the staged baseline; the rule was not enforced") {
		t.Errorf("an unreadable baseline: %d %q", code, out)
	}
	grow.err, grow.added = nil, []string{"x"}
	if code, _, _ := callRepo(t, grow, "commit-guard", PreToolUse, "Bash", map[string]any{"command": "git status"}); code != Allow {
		t.Errorf("a command that commits nothing was judged by the baseline: %d", code)
	}
}

// callRepo is call with any repository.
func callRepo(t *testing.T, r Repo, member, event, tool string, input any) (int, string, string) {
	t.Helper()
	in, _ := json.Marshal(input)
	m, ok := Lookup(member)
	if !ok {
		t.Fatalf("no member %s", member)
	}
	var out, errb bytes.Buffer
	p := &Payload{SessionID: "s1", HookEventName: event, ToolName: tool, ToolInput: in, Cwd: "/srv/p"}
	code := m.Run(&Call{Member: member, Payload: p, Stdout: &out, Stderr: &errb, Gates: &fakeRunner{}, Repo: r})
	return code, out.String(), errb.String()
}

// binRepo is a fake repository whose gates binary is a real file.
type binRepo struct {
	*fakeRepo
	bin, top string
}

func (b *binRepo) Binary() (string, string, error) { return b.bin, b.top, nil }

// callAt is callRepo from a given working directory.
func callAt(t *testing.T, r Repo, cwd, command string) (int, string) {
	t.Helper()
	in, _ := json.Marshal(map[string]any{"command": command})
	m, _ := Lookup("commit-guard")
	var out, errb bytes.Buffer
	p := &Payload{SessionID: "s1", HookEventName: PreToolUse, ToolName: "Bash", ToolInput: in, Cwd: cwd}
	code := m.Run(&Call{Member: "commit-guard", Payload: p, Stdout: &out, Stderr: &errb, Gates: &fakeRunner{}, Repo: r})
	return code, errb.String()
}

// Issue 42 item 19 (assertion V, not covered in this package before): a
// git clean that would delete the gates binary is blocked naming the
// spelling that keeps it; a clean that excludes it, one run below it,
// one whose pathspecs miss it, and one with no binary on disk are not.
func TestCommitGuardCleanKeepsTheBinary(t *testing.T) {
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(top, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(top, "bin", "gates")
	if err := os.WriteFile(bin, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &binRepo{fakeRepo: &fakeRepo{state: t.TempDir(), hooks: HooksState{OptedIn: true}}, bin: bin, top: top}
	for _, c := range []struct {
		cwd, cmd string
		block    bool
	}{
		{top, "git clean -fdx", true},
		{"", "git clean -fdx", true},
		{top, "git clean -fdX", true},
		{top, "git clean -fdx -- bin", true},
		{top, "git clean -fdx -- '*.o'", true},
		{filepath.Join(top, "bin"), "git clean -fdx", true},
		{top, "git -C bin clean -fdx", true},
		{top, "git clean -fdx -e /bin/gates", false},
		{top, "git clean -fdx -e bin/", false},
		{top, "git clean -fdx -e gates", false},
		{top, "git clean -fdx -e '/gat*'", true},
		{top, "git clean -fdx -e /", true},
		{top, "git clean -fdx -- docs", false},
		{filepath.Join(top, "docs"), "git clean -fdx", false},
		{top, "git -C docs clean -fdx", false},
		{top, "git clean -fd", false},
		{top, "git status", false},
	} {
		code, errs := callAt(t, r, c.cwd, c.cmd)
		if got := code == Block; got != c.block {
			t.Errorf("%q from %q: blocked %v, want %v (%s)", c.cmd, c.cwd, got, c.block, errs)
			continue
		}
		// Under -X a plain -e pattern is one more ignored file to remove:
		// only its negation keeps the binary (branch work55).
		spelling := "git clean -fdx -e /bin/gates"
		if strings.Contains(c.cmd, "X") {
			spelling = "git clean -fdX -e '!/bin/gates'"
		}
		if c.block && !strings.Contains(errs, "would delete bin/gates") || c.block && !strings.Contains(errs, spelling) {
			t.Errorf("%q: the block does not name the binary and the spelling that keeps it: %q", c.cmd, errs)
		}
	}
	if err := os.Remove(bin); err != nil {
		t.Fatal(err)
	}
	if code, errs := callAt(t, r, top, "git clean -fdx"); code != Allow {
		t.Errorf("with no binary on disk a clean is blocked: %s", errs)
	}
	r.bin = filepath.Join(t.TempDir(), "gates")
	if code, errs := callAt(t, r, top, "git clean -fdx"); code != Allow {
		t.Errorf("with the binary outside the tree a clean is blocked: %s", errs)
	}
}

// Issue 42 item 19: an unquoted here-document's backslash escapes are
// read as the shell reads them (`\\` is one backslash, a backslash at a
// line's end joins the lines, any other backslash stays), a body ending
// in a lone backslash keeps it, and a document on another descriptor is
// not the command's stdin, nor does it shift which document is.
func TestInspectHeredocEscapesAndDescriptors(t *testing.T) {
	cases := map[string][]string{
		"git commit -F - <<EOF\nwip a\\\\b \\x\nEOF\n":                   {"wip a\\b \\x\n"},
		"git commit -F - <<EOF\nwip one \\\ntwo\nEOF\n":                  {"wip one two\n"},
		"git commit -F - <<'EOF'\nwip a\\\\b\nEOF\n":                     {"wip a\\\\b\n"},
		"git commit -F - 3<<'X' <<'EOF'\nthree\nX\nwip stdin\nEOF\n":     {"wip stdin\n"},
		"git commit -F - 3<<-'X' <<'EOF'\n\tthree\n\tX\nwip four\nEOF\n": {"wip four\n"},
	}
	for c, want := range cases {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if !reflect.DeepEqual(v.Messages, want) {
			t.Errorf("%q: messages %q, want %q", c, v.Messages, want)
		}
	}
	if got, ok := heredocText(shlex.Token{Value: "wip\\"}); !ok || got != "wip\\" {
		t.Errorf("a body ending in a backslash reads as %q %v", got, ok)
	}
}

// awayRepo is a fake repository that holds /srv/other as another one.
type awayRepo struct {
	*fakeRepo
	asked []string
}

func (a *awayRepo) Elsewhere(dir string) bool {
	a.asked = append(a.asked, dir)
	return path.Clean(dir) == "/srv/other"
}

// Issue 42 item 19: a git aimed by -C at another repository is that
// repository's business, asked with the directory read against the
// payload's cwd; with no cwd a relative directory cannot be placed and
// the command is judged here.
func TestCommitGuardLeavesAnotherRepositoryAlone(t *testing.T) {
	r := &awayRepo{fakeRepo: &fakeRepo{state: t.TempDir(), hooks: HooksState{OptedIn: true}}}
	if code, errs := callAt(t, r, "/srv/p", "git -C ../other commit --no-verify -m x"); code != Allow || !reflect.DeepEqual(r.asked, []string{"/srv/p/../other"}) {
		t.Errorf("a bypass in another repository: %d %q, asked %q", code, errs, r.asked)
	}
	r.asked = nil
	if code, _ := callAt(t, r, "/srv/p", "git -C /srv/other commit --no-verify -m x"); code != Allow || !reflect.DeepEqual(r.asked, []string{"/srv/other"}) {
		t.Errorf("a bypass in another repository named absolutely: %d, asked %q", code, r.asked)
	}
	r.asked = nil
	if code, _ := callAt(t, r, "", "git -C ../other commit --no-verify -m x"); code != Block || len(r.asked) != 0 {
		t.Errorf("with no cwd: %d, asked %q; want it blocked here, nothing asked", code, r.asked)
	}
}

// Issue 42 item 19: a bundled -e with nothing after it excludes nothing
// (and reads nothing past the line).
func TestInspectCleanDanglingExclude(t *testing.T) {
	for cmd, want := range map[string][]string{
		"git clean -fxe":        nil,
		"git clean -fxe keep":   {"keep"},
		"git clean -f -x -e k2": {"k2"},
	} {
		v, err := Inspect(cmd)
		if err != nil || len(v.Cleans) != 1 {
			t.Errorf("%q: %+v %v", cmd, v.Cleans, err)
			continue
		}
		if !reflect.DeepEqual(v.Cleans[0].Excludes, want) {
			t.Errorf("%q: excludes %q, want %q", cmd, v.Cleans[0].Excludes, want)
		}
	}
}

// Issue 42 item 19: a directory is taken against the one before it as
// written; an absolute one, or one after none, stands alone.
func TestJoinDir(t *testing.T) {
	for _, c := range [][3]string{{"", "a", "a"}, {"x", "a", "x/a"}, {"x", "/a", "/a"}, {"", "/a", "/a"}} {
		if got := joinDir(c[0], c[1]); got != c[2] {
			t.Errorf("joinDir(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// Issue 42 item 19: a git aimed elsewhere that does nothing the member
// judges (no commit, no bypass, no clean) asks nothing about where it is.
func TestCommitGuardAsksNothingForAHarmlessGitElsewhere(t *testing.T) {
	r := &awayRepo{fakeRepo: &fakeRepo{state: t.TempDir(), hooks: HooksState{OptedIn: true}}}
	if code, _ := callAt(t, r, "/srv/p", "git -C ../other status"); code != Allow || len(r.asked) != 0 {
		t.Errorf("git -C ../other status: %d, asked %q", code, r.asked)
	}
}
