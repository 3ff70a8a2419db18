package cli

import (
	"strings"
	"testing"
)

// lineCount counts the lines of a stream's text.
func lineCount(s string) int { return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1 }

// A typo answers in at most five lines and names the nearest spelling.
func TestTyposAnswerShortWithADidYouMean(t *testing.T) {
	cases := []struct {
		args    []string
		suggest string
	}{
		{[]string{"--rnu"}, "did you mean --run?"},
		{[]string{"--only", "a", "--fro"}, "did you mean --for?"},
		{[]string{"--isntall-hooks"}, "did you mean --install-hooks?"},
		{[]string{"chek-tree-terms"}, "did you mean check-tree-terms?"},
		{[]string{"knbos"}, "did you mean knobs?"},
		{[]string{"--emit", "graf"}, "did you mean graph?"},
		{[]string{"zzzzzz"}, ""},
	}
	for _, c := range cases {
		code, out, errs := run(t, nil, c.args...)
		if code != 2 || out != "" {
			t.Errorf("%q: exit %d stdout %q", c.args, code, out)
		}
		if n := lineCount(errs); n > 5 {
			t.Errorf("%q: %d lines on stderr, want at most 5:\n%s", c.args, n, errs)
		}
		if c.suggest != "" && !strings.Contains(errs, c.suggest) {
			t.Errorf("%q: stderr lacks %q:\n%s", c.args, c.suggest, errs)
		}
		if c.suggest == "" && strings.Contains(errs, "did you mean") {
			t.Errorf("%q: a far word got a suggestion:\n%s", c.args, errs)
		}
		if strings.Contains(errs, "check-action-pinning") {
			t.Errorf("%q: the refusal lists the roster:\n%s", c.args, errs)
		}
	}
}

func TestClosest(t *testing.T) {
	for _, c := range []struct{ word, want string }{
		{"--rnu", "--run"}, {"--lsit", "--list"}, {"--verison", "--version"},
		{"--x", ""}, {"--run", ""}, {"check-tree-term", "check-tree-terms"},
	} {
		if got := closest(c.word, append(optionWords(), gateNames()...)); got != c.want {
			t.Errorf("closest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if d := editDistance("abcd", "abdc"); d != 1 {
		t.Errorf("a swap is one edit, got %d", d)
	}
	if d := editDistance("", "abc"); d != 3 {
		t.Errorf("three insertions, got %d", d)
	}
}

// --version names the release (devel for a build from no tag) and the stamp.
func TestVersionNamesTheReleaseAndTheStamp(t *testing.T) {
	saved, savedStamp := release, sourceStamp
	defer func() { release, sourceStamp = saved, savedStamp }()
	release, sourceStamp = "devel", ""
	if _, out, _ := run(t, nil, "--version"); out != "gates devel (source stamp unstamped)\n" {
		t.Errorf("an untagged plain build: %q", out)
	}
	release, sourceStamp = "v1.4.0", "0123456789abcdef0123456789abcdef01234567"
	for _, v := range []string{"--version", "-v", "version"} {
		if code, out, _ := run(t, nil, v); code != 0 || out != "gates v1.4.0 (source stamp 0123456789abcdef0123456789abcdef01234567)\n" {
			t.Errorf("%s: exit %d %q", v, code, out)
		}
	}
	if toolVersion() != "v1.4.0+0123456789abcdef0123456789abcdef01234567" {
		t.Errorf("toolVersion %q", toolVersion())
	}
	release = ""
	if releaseName() != "devel" {
		t.Errorf("an empty release must read devel, got %q", releaseName())
	}
}

// Every arm, every readable command and the emit family answer --help on
// stdout at exit 0; init's names --harness.
func TestEveryWordAnswersHelp(t *testing.T) {
	for _, c := range commandTable() {
		code, out, errs := run(t, nil, c.Name, "--help")
		if code != 0 || !strings.HasPrefix(out, "usage: gates") || errs != "" {
			t.Errorf("%s --help: exit %d stdout %q stderr %q", c.Name, code, out, errs)
		}
	}
	code, out, errs := run(t, nil, "--emit", "--help")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: gates --emit <name>") {
		t.Errorf("--emit --help: exit %d stdout %q stderr %q", code, out, errs)
	}
	for _, n := range emitNames() {
		if !strings.Contains(out, "--emit "+n) {
			t.Errorf("--emit --help lacks %s", n)
		}
	}
	if _, out, _ := run(t, nil, "init", "--help"); !strings.Contains(out, "--harness claude") {
		t.Errorf("init --help does not mention --harness:\n%s", out)
	}
}

// Bare gates prints the usage, and the usage says so: the battery needs
// its --run (or the run word).
func TestBareGatesDoesWhatItsUsageSays(t *testing.T) {
	code, out, errs := run(t, nil)
	if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: gates ") {
		t.Fatalf("bare gates: exit %d stdout %q stderr %q", code, out, errs)
	}
	if !strings.Contains(out, "gates [-h | --help]") || !strings.Contains(out, "gates --run [<gates-dir>]") || strings.Contains(out, "[--run]") {
		t.Errorf("the usage must show --run as required and bare gates as help:\n%s", out)
	}
}
