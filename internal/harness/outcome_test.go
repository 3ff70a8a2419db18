package harness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRepo is a repository whose refs, commits and verdicts a test sets.
type fakeRepo struct {
	state  string
	hooks  HooksState
	tips   []Tip
	graph  map[string][]string // commit -> parents
	red    map[string]bool
	recent map[string]bool // committed since the session began
	judged []string
	prot   []string
	// fetched are the tips fetch left; foreign the commits others made.
	fetched []string
	foreign map[string]bool
	// pushed are the tips this clone's push wrote; reds, when set, is a
	// commit's findings in place of red's one; foreignErr fails Foreign.
	pushed     []string
	reds       map[string][]Red
	foreignErr error
	// fetchedCalls counts the reads of what fetch left.
	fetchedCalls int
}

func (f *fakeRepo) Elsewhere(string) bool          { return false }
func (f *fakeRepo) Pushed([]Tip) ([]string, error) { return f.pushed, nil }
func (f *fakeRepo) Binary() (string, string, error) {
	return "", "", errors.New("no binary in the fake")
}
func (f *fakeRepo) Fetched([]Tip) ([]string, error) {
	f.fetchedCalls++
	return f.fetched, nil
}

// Foreign answers, as a repository would, only the others' commits
// reachable from tips and from none of exclude.
func (f *fakeRepo) Foreign(tips, exclude []string, since int64) (map[string]bool, error) {
	if f.foreignErr != nil {
		return nil, f.foreignErr
	}
	ids, _, _ := f.Commits(tips, exclude, 0, 0)
	out := map[string]bool{}
	for _, id := range ids {
		if f.foreign[id] {
			out[id] = true
		}
	}
	return out, nil
}

func (f *fakeRepo) Hooks() (HooksState, error) { return f.hooks, nil }
func (f *fakeRepo) Tips() ([]Tip, error)       { return append([]Tip(nil), f.tips...), nil }
func (f *fakeRepo) StateDir() (string, error)  { return f.state, nil }
func (f *fakeRepo) Protected() ([]string, error) {
	return f.prot, nil
}
func (f *fakeRepo) Canonical(abs string) string { return filepath.Clean(abs) }

func (f *fakeRepo) Commits(include, exclude []string, since int64, max int) ([]string, bool, error) {
	reach := func(from []string) map[string]bool {
		seen := map[string]bool{}
		var walk func(string)
		walk = func(id string) {
			if seen[id] {
				return
			}
			seen[id] = true
			for _, p := range f.graph[id] {
				walk(p)
			}
		}
		for _, id := range from {
			walk(id)
		}
		return seen
	}
	not := reach(exclude)
	var out []string
	for id := range reach(include) {
		if !not[id] && (since == 0 || f.recent[id]) {
			out = append(out, id)
		}
	}
	return out, false, nil
}

func (f *fakeRepo) Judge(id string) (CommitVerdict, error) {
	f.judged = append(f.judged, id)
	v := CommitVerdict{ID: id, Short: id[:4], Subject: "docs: x"}
	if f.red[id] {
		v.Red = []Red{{Name: "check-tree-terms", Code: 1, Output: "docs/a.md:1: a home path"}}
	}
	if rs, ok := f.reds[id]; ok {
		v.Red = rs
	}
	return v, nil
}

// JudgeTree answers Judge's pre-commit results, as the hook repo's does.
func (f *fakeRepo) JudgeTree(id string) ([]Red, error) {
	v, err := f.Judge(id)
	var out []Red
	for _, r := range v.Red {
		if r.Hook == "pre-commit" {
			out = append(out, r)
		}
	}
	return out, err
}

func call(t *testing.T, r *fakeRepo, member, event, tool string, input any) (int, string, string) {
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

func TestCommitAuditJudgesWhatLanded(t *testing.T) {
	r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil}, red: map[string]bool{}}
	r.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
	bash := map[string]any{"command": "anything"}
	if code, out, _ := call(t, r, "commit-audit", PreToolUse, "Bash", bash); code != 0 || out != "" {
		t.Fatalf("pre: %d %q", code, out)
	}
	// assertion B: nothing moved, nothing judged.
	if code, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); code != 0 || out != "" || len(r.judged) != 0 {
		t.Fatalf("no ref moved: %d %q judged %v", code, out, r.judged)
	}
	// A red commit on main, and one fetched only to a remote-tracking ref.
	r.graph["c2bbbb"] = []string{"c1aaaa"}
	r.graph["c3cccc"] = []string{"c1aaaa"}
	r.red["c2bbbb"] = true
	r.red["c3cccc"] = true
	r.tips = []Tip{{"HEAD", "c2bbbb"}, {"refs/heads/main", "c2bbbb"}, {"refs/remotes/o/main", "c3cccc"}}
	code, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash)
	if code != 0 || !strings.Contains(out, `"decision": "block"`) || !strings.Contains(out, "Commit c2bb") || !strings.Contains(out, "check-tree-terms") || strings.Contains(out, "c3cc") {
		t.Fatalf("assertion C: %d %q", code, out)
	}
	// The same tips again: answered from the record, judged once.
	call(t, r, "commit-audit", PreToolUse, "Bash", bash)
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); out != "" || len(r.judged) != 1 {
		t.Fatalf("re-judged: %q %v", out, r.judged)
	}
	// A red commit pushed from no local ref, made this session: judged.
	r.graph["c4dddd"] = []string{"c2bbbb"}
	r.red["c4dddd"] = true
	r.recent = map[string]bool{"c4dddd": true}
	r.tips = []Tip{{"HEAD", "c2bbbb"}, {"refs/heads/main", "c2bbbb"}, {"refs/remotes/o/main", "c3cccc"}, {"refs/remotes/o/pushed", "c4dddd"}}
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); !strings.Contains(out, "Commit c4dd") || strings.Contains(out, "c3cc") {
		t.Fatalf("a pushed commit went unjudged: %q", out)
	}
	// The fetched commit lands on a branch: judged then.
	r.tips = []Tip{{"HEAD", "c3cccc"}, {"refs/heads/main", "c3cccc"}, {"refs/remotes/o/main", "c3cccc"}, {"refs/remotes/o/pushed", "c4dddd"}}
	if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); !strings.Contains(out, "Commit c3cc") {
		t.Fatalf("a fast-forward from a fetched ref went unjudged: %q", out)
	}
	// assertion D (stop-gates): the session's red commits hold one Stop.
	code, out, _ = call(t, r, "stop-gates", Stop, "", nil)
	if code != 0 || !strings.Contains(out, "Commit c3cc") || !strings.Contains(out, "Commit c4dd") {
		t.Fatalf("stop: %d %q", code, out)
	}
	if _, out, _ := call(t, r, "stop-gates", Stop, "", nil); strings.Contains(out, "Commit") {
		t.Fatalf("a second stop held again: %q", out)
	}
}

func TestGitDirGuardRefusesTheGitDir(t *testing.T) {
	r := &fakeRepo{state: t.TempDir(), prot: []string{"/srv/p/.git", "/srv/p/.git/gate-hooks"}}
	for _, p := range []string{"/srv/p/.git/config", "/srv/p/.git", "/srv/p/docs/../.git/HEAD", ".git/index"} {
		if code, _, errs := call(t, r, "git-dir-guard", PreToolUse, "Edit", map[string]any{"file_path": p}); code != Block || !strings.Contains(errs, "git-dir-guard") {
			t.Errorf("assertion A: %s: %d %q", p, code, errs)
		}
	}
	for _, p := range []string{"/srv/p/docs/a.md", "/srv/p/.github/x.yml", "/srv/p/.gitignore"} {
		if code, _, _ := call(t, r, "git-dir-guard", PreToolUse, "Write", map[string]any{"file_path": p}); code != Allow {
			t.Errorf("%s refused", p)
		}
	}
}

func TestCommitGuardChecksTheHooksFirst(t *testing.T) {
	r := &fakeRepo{state: t.TempDir(), hooks: HooksState{OptedIn: true, Problems: []string{"pre-commit is missing"}, Repair: "bin/gates --install-hooks"}}
	code, _, errs := call(t, r, "commit-guard", PreToolUse, "Bash", map[string]any{"command": "ls"})
	if code != Block || !strings.Contains(errs, "bin/gates --install-hooks") {
		t.Fatalf("assertion W: %d %q", code, errs)
	}
	if code, _, _ := call(t, r, "commit-guard", PreToolUse, "Bash", map[string]any{"command": "bin/gates --install-hooks"}); code != Allow {
		t.Fatal("the repair was blocked")
	}
	// assertion X: never opted in: told once, never blocked.
	r.hooks = HooksState{}
	code, out, _ := call(t, r, "commit-guard", PreToolUse, "Bash", map[string]any{"command": "ls"})
	if code != Allow || !strings.Contains(out, "additionalContext") {
		t.Fatalf("first: %d %q", code, out)
	}
	if code, out, _ := call(t, r, "commit-guard", PreToolUse, "Bash", map[string]any{"command": "ls"}); code != Allow || out != "" {
		t.Fatalf("second: %d %q", code, out)
	}
}

// Issue 42 item 17: a session's state file stays inside the state
// directory whatever its id holds, and no two ids share one.
func TestStateNameStaysInsideAndApart(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]string{}
	for _, id := range []string{"", "no-session", "../../etc/x", "..", "a/b", "abc", "ABC", strings.Repeat("a", 65), strings.Repeat("a", 64), "x!", hashedName("x!")} {
		p := stateName(dir, id, "verdicts")
		if filepath.Dir(p) != dir || strings.Contains(filepath.Base(p), "/") {
			t.Errorf("session %q: state file %s leaves %s", id, p, dir)
		}
		if other, ok := seen[p]; ok {
			t.Errorf("sessions %q and %q share the state file %s", other, id, p)
		}
		seen[p] = id
	}
}

// hashedName is the spelling stateName gave an unsafe id before the
// namespaces were parted, which a literal id could take on.
func hashedName(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

// Issue 42 item 17: the outcome judge's edge cases. A first Stop with no
// tips recorded, a session whose first call is Stop, an unborn HEAD (no
// ref at all), a verdict record that is absent or empty: no green commit
// is reported refused, no Stop is held for nothing, and nothing panics.
func TestOutcomeJudgeEdgeCases(t *testing.T) {
	bash := map[string]any{"command": "anything"}
	t.Run("first call is Stop, nothing recorded", func(t *testing.T) {
		r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil}, red: map[string]bool{"c1aaaa": true}}
		r.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
		if code, out, _ := call(t, r, "stop-gates", Stop, "", nil); code != 0 || out != "" || len(r.judged) != 0 {
			t.Fatalf("a first Stop with nothing recorded: %d %q judged %v", code, out, r.judged)
		}
		// The session goes on: a green commit after it is judged green.
		call(t, r, "commit-audit", PreToolUse, "Bash", bash)
		r.graph["c2bbbb"] = []string{"c1aaaa"}
		r.tips = []Tip{{"HEAD", "c2bbbb"}, {"refs/heads/main", "c2bbbb"}}
		if code, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); code != 0 || out != "" {
			t.Fatalf("a green commit after a first Stop: %d %q", code, out)
		}
		if code, out, _ := call(t, r, "stop-gates", Stop, "", nil); code != 0 || out != "" {
			t.Fatalf("a Stop after a green commit: %d %q", code, out)
		}
	})
	t.Run("unborn HEAD, the first commit", func(t *testing.T) {
		r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{}, red: map[string]bool{}}
		call(t, r, "commit-audit", PreToolUse, "Bash", bash)
		if code, out, _ := call(t, r, "stop-gates", Stop, "", nil); code != 0 || out != "" {
			t.Fatalf("a Stop over an unborn HEAD: %d %q", code, out)
		}
		r.graph["c1aaaa"] = nil
		r.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
		if code, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); code != 0 || out != "" || len(r.judged) != 1 {
			t.Fatalf("a green first commit: %d %q judged %v", code, out, r.judged)
		}
		// A red second commit is named; the green first one never is.
		call(t, r, "commit-audit", PreToolUse, "Bash", bash)
		r.graph["c2bbbb"] = []string{"c1aaaa"}
		r.red["c2bbbb"] = true
		r.tips = []Tip{{"HEAD", "c2bbbb"}, {"refs/heads/main", "c2bbbb"}}
		if _, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); !strings.Contains(out, "Commit c2bb") || strings.Contains(out, "c1aa") {
			t.Fatalf("the red second commit: %q", out)
		}
		if _, out, _ := call(t, r, "stop-gates", Stop, "", nil); !strings.Contains(out, "Commit c2bb") || strings.Contains(out, "c1aa") {
			t.Fatalf("the Stop after them: %q", out)
		}
	})
	for _, record := range []string{"null", "{}", `{"c2bbbb": null}`} {
		t.Run("verdict record "+record, func(t *testing.T) {
			r := &fakeRepo{state: t.TempDir(), graph: map[string][]string{"c1aaaa": nil, "c2bbbb": {"c1aaaa"}}, red: map[string]bool{}}
			r.tips = []Tip{{"HEAD", "c1aaaa"}, {"refs/heads/main", "c1aaaa"}}
			call(t, r, "commit-audit", PreToolUse, "Bash", bash)
			write(t, stateName(r.state, "s1", stateVerdicts), record)
			r.tips = []Tip{{"HEAD", "c2bbbb"}, {"refs/heads/main", "c2bbbb"}}
			if code, out, _ := call(t, r, "commit-audit", PostToolUse, "Bash", bash); code != 0 || out != "" || len(r.judged) != 1 {
				t.Fatalf("a green commit: %d %q judged %v", code, out, r.judged)
			}
			write(t, stateName(r.state, "s1", stateVerdicts), record)
			if code, out, _ := call(t, r, "stop-gates", Stop, "", nil); code != 0 || out != "" {
				t.Fatalf("the first Stop after a green commit: %d %q", code, out)
			}
		})
	}
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A safe session id is its own file name, up to the length and the
// characters stateName allows; one a byte past either edge is hashed.
func TestStateNameKeepsASafeIDAsItIs(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"azAZ09-_", "a", "z", "A", "Z", "0", "9", strings.Repeat("z", 64)} {
		if got, want := stateName(dir, id, "tips"), filepath.Join(dir, id+".tips"); got != want {
			t.Errorf("safe id %q: state file %s, want %s", id, got, want)
		}
	}
	for _, id := range []string{"", strings.Repeat("z", 65), "`", "{", "@", "[", "/", ":", ".", "a b"} {
		if got, want := stateName(dir, id, "tips"), filepath.Join(dir, "="+hashedName(id)+".tips"); got != want {
			t.Errorf("unsafe id %q: state file %s, want %s", id, got, want)
		}
	}
}

// The status line's readers of the kept state: the red commits by full id
// to short id (green and empty verdicts left out), the count left
// unjudged, and nothing at all from a record that is absent or unreadable.
func TestSessionRedAndUnjudgedReadTheKeptState(t *testing.T) {
	dir := t.TempDir()
	if got := SessionRed(dir, "s1"); got != nil {
		t.Errorf("no record: SessionRed %v", got)
	}
	if got := SessionUnjudged(dir, "s1"); got != 0 {
		t.Errorf("no record: SessionUnjudged %d", got)
	}
	write(t, stateName(dir, "s1", stateVerdicts), `{
		"c1aaaa": {"id": "c1aaaa", "short": "c1aa"},
		"c2bbbb": {"id": "c2bbbb", "short": "c2bb", "red": [{"name": "check-tree-terms", "code": 1}]},
		"c3cccc": null,
		"c4dddd": {"id": "c4dddd", "short": "c4dd", "red": []}}`)
	write(t, stateName(dir, "s1", stateUnjudged), `["c5eeee", "c6ffff", "c7aaaa"]`)
	got := SessionRed(dir, "s1")
	if len(got) != 1 || got["c2bbbb"] != "c2bb" {
		t.Errorf("SessionRed = %v, want only c2bbbb as c2bb", got)
	}
	if n := SessionUnjudged(dir, "s1"); n != 3 {
		t.Errorf("SessionUnjudged = %d, want 3", n)
	}
	if other := SessionRed(dir, "s2"); other != nil {
		t.Errorf("another session read this one's record: %v", other)
	}
	write(t, stateName(dir, "s1", stateVerdicts), `{"c2bbbb": `)
	write(t, stateName(dir, "s1", stateUnjudged), `["c5eeee",`)
	if got := SessionRed(dir, "s1"); got != nil {
		t.Errorf("a record cut short: SessionRed %v", got)
	}
	if n := SessionUnjudged(dir, "s1"); n != 0 {
		t.Errorf("a record cut short: SessionUnjudged %d", n)
	}
}
