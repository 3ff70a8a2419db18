package harness

import (
	"reflect"
	"testing"
)

// A git clean counts only when it removes ignored files for real; its -e
// patterns and pathspecs are kept for the check against the binary.
func TestInspectCleans(t *testing.T) {
	for cmd, want := range map[string]int{
		"git clean -fdx":                 1,
		"git clean -f -d -X":             1,
		"git clean -fd":                  0,
		"git clean -ndx":                 0,
		"git clean --dry-run -fdx":       0,
		"cd docs && git clean -fdx":      1,
		"git -C docs clean -xf -- a b":   1,
		"git clean -fdx -e /bin/gates":   1,
		"echo clean; git status":         0,
		"git -c x=y clean -fx --exclude": 1,
	} {
		v, err := Inspect(cmd)
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		if len(v.Cleans) != want {
			t.Errorf("%q: %d cleans, want %d (%+v)", cmd, len(v.Cleans), want, v.Cleans)
		}
	}
	v, _ := Inspect("git -C docs clean -xfe keep -e/two --exclude=three -- a b")
	if c := v.Cleans[0]; c.Dir != "docs" || len(c.Excludes) != 3 || c.Excludes[0] != "keep" || c.Excludes[1] != "/two" || c.Excludes[2] != "three" || len(c.Paths) != 2 {
		t.Errorf("read %+v", c)
	}
}

func TestCleanExcludes(t *testing.T) {
	for _, c := range []struct {
		pat, rel string
		want     bool
	}{
		{"/bin/gates", "bin/gates", true},
		{"bin/gates", "bin/gates", true},
		{"/bin/", "bin/gates", true},
		{"bin", "bin/gates", true},
		{"gates", "bin/gates", true},
		{"*.md", "bin/gates", false},
		{"/gates", "bin/gates", false},
		{"/sbin", "bin/gates", false},
		{"b*", "bin/gates", true},
	} {
		if got := excludes(c.pat, c.rel); got != c.want {
			t.Errorf("excludes(%q, %q) = %v, want %v", c.pat, c.rel, got, c.want)
		}
	}
}

// Issue 42 item 19: git clean's --exclude takes the next word (the words
// after it read on), and a lone "-" is a pathspec, not options.
func TestInspectCleanExcludeWordAndLoneDash(t *testing.T) {
	v, err := Inspect("git clean -fdx --exclude keep -e two sub")
	if err != nil || len(v.Cleans) != 1 {
		t.Fatalf("%+v %v", v.Cleans, err)
	}
	if c := v.Cleans[0]; !reflect.DeepEqual(c.Excludes, []string{"keep", "two"}) || !reflect.DeepEqual(c.Paths, []string{"sub"}) {
		t.Errorf("excludes %q paths %q, want [keep two] and [sub]", c.Excludes, c.Paths)
	}
	v, err = Inspect("git clean -fdx -")
	if err != nil || len(v.Cleans) != 1 || !reflect.DeepEqual(v.Cleans[0].Paths, []string{"-"}) {
		t.Errorf("a lone dash: %+v %v", v.Cleans, err)
	}
}
