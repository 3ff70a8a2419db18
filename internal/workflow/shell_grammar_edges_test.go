package workflow

import (
	"reflect"
	"strings"
	"testing"
)

// TestGhCallsAfterAssignments: an assignment keeps command position, so
// the gh after NAME=v is a call; a word whose '=' follows anything but a
// shell name is itself the command, and gh is its argument.
func TestGhCallsAfterAssignments(t *testing.T) {
	for _, name := range []string{"a", "z", "A", "Z", "_", "a0", "a9", "Z_9z"} {
		line := name + "=1 gh api x"
		if got := ghCalls(logical{text: line, first: 1, offs: []int{0}}); len(got) != 1 {
			t.Errorf("%q: %v, want one call", line, got)
		}
		if got := ScriptTokens(name + "=1 scripts/x.sh"); !reflect.DeepEqual(got, []string{"scripts/x.sh"}) {
			t.Errorf("%s=1 scripts/x.sh: %q, want the script", name, got)
		}
	}
	for _, name := range []string{"0a", "9a", "@", "[", "{", "a@", "a[", "a{", "a/", "a:", "a-", "a.b", ""} {
		line := name + "=1 gh api x"
		if got := ghCalls(logical{text: line, first: 1, offs: []int{0}}); len(got) != 0 {
			t.Errorf("%q: %v, want none (the word is the command)", line, got)
		}
	}
}

// TestWordsOnBoundaries: a listed word counts only as a whole word, both
// neighbours outside [A-Za-z0-9_.-].
func TestWordsOnBoundaries(t *testing.T) {
	for _, n := range []string{"A", "Z", "a", "z", "0", "9", "_", ".", "-"} {
		for _, s := range []string{n + "cargo", "cargo" + n} {
			if got := wordsOn(s, []string{"cargo"}); got != nil {
				t.Errorf("%q: %q, want no whole word", s, got)
			}
		}
	}
	for _, n := range []string{"@", "[", "`", "{", "/", ":", " ", "(", "$", "'", "\""} {
		for _, s := range []string{n + "cargo", "cargo" + n, n + "cargo" + n} {
			if got := wordsOn(s, []string{"cargo"}); !reflect.DeepEqual(got, []string{"cargo"}) {
				t.Errorf("%q: %q, want cargo", s, got)
			}
		}
	}
	// The first spelling inside a longer word does not hide a later whole one.
	if got := wordsOn("xcargo cargo", []string{"cargo", "", "rustc"}); !reflect.DeepEqual(got, []string{"cargo"}) {
		t.Errorf("later whole word: %q", got)
	}
	if got := wordsOn("cargo rustc", []string{"cargo", "rustc"}); strings.Join(got, " ") != "cargo rustc" {
		t.Errorf("two words: %q", got)
	}
}

// TestGhCallByRootPath: gh named by a path at the root is still gh.
func TestGhCallByRootPath(t *testing.T) {
	for _, line := range []string{"/gh api x", "\"/gh\" api x", "\\/gh api x"} {
		if got := ghCalls(logical{text: line, first: 1, offs: []int{0}}); len(got) != 1 {
			t.Errorf("%q: %v, want one call", line, got)
		}
	}
}
