package harness

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestGuardLoneLeadWords: a keyword with nothing after it (`time`,
// `time -p`, `coproc X`, `function`, `!`) is read without a fault and
// blocks nothing; the same keyword in front of a bypass still blocks it.
func TestGuardLoneLeadWords(t *testing.T) {
	for _, c := range []string{"time", "time -p", "time --", "coproc", "coproc true", "function", "function f", "!", "A=1", "env", "sudo", "env -S", "git -C", "git -c", "git --config-env", "git -C d", "git commit -m", "git commit --file", "git commit -F", "git config get", "git config list core.hooksPath"} {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if len(v.Bypass) != 0 {
			t.Errorf("%q: blocked as %v", c, v.Bypass)
		}
	}
	for _, c := range []string{"time git push --no-verify", "time -p git push --no-verify", "coproc git push --no-verify", "coproc NAME ( git push --no-verify )"} {
		if !bypassed(t, c) {
			t.Errorf("%q: the bypass was not found", c)
		}
	}
}

// TestGuardEvalNesting: an eval string is re-read as a command, to the
// same depth bound as `sh -c`; deeper is refused, never read as clean.
func TestGuardEvalNesting(t *testing.T) {
	c := "git commit -n -m x"
	for i := 0; i < maxNesting; i++ {
		c = "eval " + shellQuote(c)
	}
	if !bypassed(t, c) {
		t.Errorf("%d evals deep: the bypass was not found", maxNesting)
	}
	for i := 0; i < 2; i++ {
		c = "eval " + shellQuote(c)
	}
	if _, err := Inspect(c); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("%d evals deep: got %v, want the nesting refused", maxNesting+2, err)
	}
}

// TestReadMessageFileAtTheLimit: a message file of exactly the limit is
// read; one byte more is left to the hook.
func TestReadMessageFileAtTheLimit(t *testing.T) {
	dir := t.TempDir()
	at := strings.Repeat("x", maxMessageFile)
	if err := os.WriteFile(filepath.Join(dir, "at"), []byte(at), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "over"), []byte(at+"x"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := readMessageFiles([]MessageFile{{Path: "at"}, {Path: "over"}}, dir)
	if !reflect.DeepEqual(got, []string{at}) {
		t.Errorf("read %d messages, want the one at the limit", len(got))
	}
}

// TestGuardMessagesBesideShortFlags: flags without a value in a short
// cluster leave the message that follows to be read; a cluster ending in
// its value option takes the next word.
func TestGuardMessagesBesideShortFlags(t *testing.T) {
	for c, want := range map[string][]string{
		`git commit -a -m "feat: x"`:    {"feat: x\n"},
		`git commit -av -m "feat: x"`:   {"feat: x\n"},
		`git commit -vm "feat: x"`:      {"feat: x\n"},
		`git commit -m "feat: x" -s`:    {"feat: x\n"},
		`git commit -m`:                 nil,
		`git commit -m "feat: x" -m`:    {"feat: x\n"},
		`git commit --message`:          nil,
		`git commit -mwip -m"body"`:     {"wip\n\nbody\n"},
		`git commit -m "feat: x" -Cref`: nil,
		`git commit -tfile -m "feat"`:   nil,
	} {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if !reflect.DeepEqual(v.Messages, want) {
			t.Errorf("%q: messages %q, want %q", c, v.Messages, want)
		}
	}
}

// TestGuardMessageFileUnderRootedDashC: a later absolute -C replaces the
// directory the earlier ones built, so the message file is looked up
// there.
func TestGuardMessageFileUnderRootedDashC(t *testing.T) {
	for c, want := range map[string][]MessageFile{
		`git -C sub -C /abs commit -F m`:      {{Path: "m", Dir: "/abs"}},
		`git -C /abs -C sub commit -F m`:      {{Path: "m", Dir: "/abs/sub"}},
		`git -C a -C b -C /c -C d commit -Fm`: {{Path: "m", Dir: "/c/d"}},
	} {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if !reflect.DeepEqual(v.Files, want) {
			t.Errorf("%q: files %+v, want %+v", c, v.Files, want)
		}
	}
}
