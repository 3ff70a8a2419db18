package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/baseline"
	"github.com/gate-sdk/gates/internal/harness"
)

// statusRepo makes a repository of n tracked files under a temp dir.
func statusRepo(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	git := func(args ...string) {
		tb.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("d%03d", i%200), fmt.Sprintf("f%05d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	git("add", "-A")
	git("commit", "-q", "-m", "chore: seed")
	return dir
}

func statusSession(dir string) (*Session, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	s := newSession(IO{Stdout: &out, Stderr: &errb, Env: func(k string) (string, bool) {
		if k == "GIT_CEILING_DIRECTORIES" {
			return filepath.Dir(dir), true
		}
		return os.LookupEnv(k)
	}})
	s.cwdOnce.Do(func() { s.cwd = dir })
	return s, &out, &errb
}

// The status line reads the last battery's record, the placed hooks and
// the baseline's count, and says plainly when each is absent; a surplus
// argument is named on stderr and the line still renders at exit 0.
func TestStatuslineReadsTheRecords(t *testing.T) {
	dir := statusRepo(t, 3)
	s, out, errb := statusSession(dir)
	if code := runStatusline(s, []string{"--help"}); code != 0 || !strings.Contains(errb.String(), `ignoring "--help"`) {
		t.Fatalf("surplus argument: exit %d %q", code, errb.String())
	}
	line := out.String()
	if !strings.Contains(line, "hooks off") || !strings.Contains(line, "no battery run yet") || strings.Contains(line, "accepted") {
		t.Fatalf("bare tree: %q", line)
	}
	common := filepath.Join(dir, ".git")
	if err := os.MkdirAll(filepath.Join(common, "gates-cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := harness.FormatLastVerdict(harness.LastVerdict{At: time.Now().Add(-5 * time.Minute), Ran: 7, Red: []string{"check-tree-terms"}})
	if err := os.WriteFile(filepath.Join(common, "gates-cache", harness.LastVerdictName), rec, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	accepted := baseline.Format([]baseline.Entry{
		{Key: baseline.Key{Gate: "check-a", Path: "x.md", Class: "leak", Digest: "0123456789abcdef"}, Count: 1},
		{Key: baseline.Key{Gate: "check-b", Path: "y.md", Class: "leak", Digest: "fedcba9876543210"}, Count: 2},
	})
	if err := os.WriteFile(filepath.Join(dir, "scripts", baseline.Name), accepted, 0o644); err != nil {
		t.Fatal(err)
	}
	// The session's kept verdicts: one red commit, one green.
	state := filepath.Join(common, "gates-agent")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	// The red one is HEAD (a ref reaches it); a red id no ref reaches
	// (undone, or never here) is not shown.
	headID, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(string(headID))
	gone := strings.Repeat("e", 40)
	if err := os.WriteFile(filepath.Join(state, "sess-1.verdicts"), []byte(`{"`+head+`":{"id":"`+head+`","short":"abc1234","subject":"x","red":[{"gate":"check-tree-terms"}]},"bbb":{"id":"bbb","short":"def5678","subject":"y"},"`+gone+`":{"id":"`+gone+`","short":"eee0000","subject":"z","red":[{"gate":"check-tree-terms"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(common, "gate-hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"pre-commit", "commit-msg"} {
		if err := os.WriteFile(filepath.Join(hooks, h), []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "config", "core.hooksPath", hooks)
	cmd.Dir = dir
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	s, out, _ = statusSession(dir)
	s.Stdin = strings.NewReader(`{"session_id":"sess-1","cwd":"` + dir + `"}`)
	runStatusline(s, nil)
	line = out.String()
	for _, want := range []string{"hooks on", "1 red", "check-tree-terms", "5m ago", "3 accepted", "1 red commit this session", "abc1234"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	if strings.Contains(line, "def5678") {
		t.Errorf("a green commit is shown: %q", line)
	}
	if strings.Contains(line, "eee0000") {
		t.Errorf("a red commit no ref reaches is shown: %q", line)
	}
	// A baseline that does not parse says so rather than count lines.
	if err := os.WriteFile(filepath.Join(dir, "scripts", baseline.Name), []byte("check-a\tnot a line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, out, _ = statusSession(dir)
	runStatusline(s, nil)
	if !strings.Contains(out.String(), "baseline unreadable") || strings.Contains(out.String(), "accepted") {
		t.Errorf("a malformed baseline reads %q", out.String())
	}
	// A hook made non-executable is hooks off.
	if err := os.Chmod(filepath.Join(hooks, "commit-msg"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, out, _ = statusSession(dir)
	runStatusline(s, nil)
	if !strings.Contains(out.String(), "hooks off") {
		t.Errorf("a non-executable hook reads %q", out.String())
	}
	// Outside a repository: a line, exit 0.
	outside := t.TempDir()
	s, out, _ = statusSession(outside)
	if code := runStatusline(s, nil); code != 0 || !strings.Contains(out.String(), "no repository") {
		t.Errorf("outside: exit %d %q", code, out.String())
	}
}

func TestLastVerdictRoundTrip(t *testing.T) {
	v := harness.LastVerdict{At: time.Unix(1700000000, 0), Ran: 3, Red: []string{"a", "b"}}
	got, ok := harness.ParseLastVerdict(harness.FormatLastVerdict(v))
	if !ok || got.Ran != 3 || !got.At.Equal(v.At) || strings.Join(got.Red, ",") != "a,b" {
		t.Fatalf("round trip %+v %v", got, ok)
	}
	for _, bad := range []string{"", "gates-last-verdict 2\nat 1\nran 1\n", "gates-last-verdict 1\nat x\nran 1\n", "gates-last-verdict 1\nat 1\nwho 1\n"} {
		if _, ok := harness.ParseLastVerdict([]byte(bad)); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// BenchmarkStatusline renders the line over a 20,000-file repository and
// over a 10-file one: its cost is one git answer and three small reads,
// whatever the tree holds. Besides ns/op it reports the fastest render
// (min-ms), the figure a shared host's load disturbs least.
// go test -run x -bench Statusline ./internal/cli
func BenchmarkStatusline(b *testing.B) {
	for _, n := range []int{10, 20000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			dir := statusRepo(b, n)
			b.ResetTimer()
			least := time.Duration(1<<63 - 1)
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				s, out, _ := statusSession(dir)
				runStatusline(s, nil)
				if d := time.Since(t0); d < least {
					least = d
				}
				if out.Len() == 0 {
					b.Fatal("no line")
				}
			}
			b.ReportMetric(float64(least)/float64(time.Millisecond), "min-ms")
		})
	}
}
