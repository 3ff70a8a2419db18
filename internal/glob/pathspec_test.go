package glob

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPathspecTable(t *testing.T) {
	cases := []struct {
		spec, path string
		want       bool
	}{
		{"docs", "docs", true},
		{"docs", "docs/a.md", true},
		{"docs/", "docs/a/b.md", true},
		{"docs", "docsx/a.md", false},
		{"docs/a.md", "docs/a.md", true},
		{"*.md", "x/y/z.md", true},
		{"docs/*.md", "docs/sub/a.md", true},
		{"docs/*.md", "other/docs/a.md", false},
		{"**.md", "a/b.md", true},
		{"a?c", "a/c", true},
		{"*", "anything/at/all", true},
		{".", "a/b", true},
		{"./docs", "docs/x", true},
		{"[ab]", "a", true},
		{"[ab]", "c", false},
		{"[!ab]", "c", true},
		{"[^ab]", "a", false},
		{"[a", "[a", true},   // the literal path itself
		{"[a", "[ab", false}, // unclosed bracket: wildmatch never matches
		{"a\\*", "a*", true},
		{"a\\*", "ab", false},
		{"[[:digit:]]x", "7x", true},
		{"[[:word:]]", "a", false}, // git knows no "word" class
		{"x/[[:alpha:]]", "x/a/b", false},
		{"x/[[:alpha:]]*", "x/a/b", true},
	}
	for _, c := range cases {
		if got := Pathspec(c.spec, c.path); got != c.want {
			t.Errorf("Pathspec(%q, %q) = %v, want %v", c.spec, c.path, got, c.want)
		}
	}
}

// TestPathspecAgainstGit holds Pathspec to git ls-files over a scratch
// repository whose tracked names exercise the literal and wildcard arms.
func TestPathspecAgainstGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed; the pathspec oracle cannot run")
	}
	dir := t.TempDir()
	files := []string{"c", "b", "ab", "ba", "abc", "a.md", "b.md", "A", "a-b", "-",
		"a/b", "a/bb/c", "a/x.md", "docs/a.md", "docs/sub/b.md", "docsx/c.md",
		"[a]", "a*b", "a?", "q/[x]/f", "a\\b", "x/y.md", "x/a/b", "7x", ":c"}
	for _, f := range files {
		full := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) ([]byte, error) {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_CONFIG_GLOBAL=/dev/null")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, errb.String())
		}
		return out.Bytes(), nil
	}
	if _, err := run("init", "-q"); err != nil {
		t.Fatal(err)
	}
	if _, err := run("add", "-A"); err != nil {
		t.Fatal(err)
	}
	units := []string{"a", "b", "*", "?", "[", "]", "!", "-", "/", "\\", ".md", "docs", "[a-b]", "[[:alpha:]]", "[!a]"}
	var specs []string
	candidates := product(units, 2)
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 400; i++ {
		var b strings.Builder
		for k := 1 + rng.Intn(4); k > 0; k-- {
			b.WriteString(units[rng.Intn(len(units))])
		}
		candidates = append(candidates, b.String())
	}
	for _, s := range candidates {
		if s == "" || strings.HasPrefix(s, "/") {
			continue // git refuses an empty or rooted pathspec
		}
		specs = append(specs, s)
	}
	specs = append(specs, "q/[x]", "q/[x]/f", "./a", "docs/", "x", "[[:foo:]]", "a\\", "*\\b")
	checked := 0
	for _, spec := range specs {
		out, err := run("ls-files", "-z", "--", spec)
		if err != nil {
			continue // a spec git itself refuses has no verdict to compare
		}
		var want []string
		for _, n := range strings.Split(string(out), "\x00") {
			if n != "" {
				want = append(want, n)
			}
		}
		var got []string
		for _, f := range files {
			if Pathspec(spec, f) {
				got = append(got, f)
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("pathspec %q: got %q, git lists %q", spec, got, want)
		}
		checked++
	}
	if checked < len(specs)/2 {
		t.Fatalf("git answered only %d of %d pathspecs", checked, len(specs))
	}
	t.Logf("%d pathspecs agree with git ls-files", checked)
}

// TestPathspecGlobstar holds the staged reading to the same "**/" rule as
// Match, so one couples token selects the same paths in either mode.
func TestPathspecGlobstar(t *testing.T) {
	for _, c := range []struct {
		spec, path string
		want       bool
	}{
		{"docs/**/*.md", "docs/index.md", true},
		{"docs/**/*.md", "docs/a/index.md", true},
		{"**/*.md", "index.md", true},
		{"docs/**/*.md", "doc/index.md", false},
	} {
		if got := Pathspec(c.spec, c.path); got != c.want {
			t.Errorf("Pathspec(%q, %q) = %v, want %v", c.spec, c.path, got, c.want)
		}
	}
}
