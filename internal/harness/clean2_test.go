package harness

import (
	"reflect"
	"testing"
)

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
