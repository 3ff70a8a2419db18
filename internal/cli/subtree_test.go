package cli

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/walk"
)

// TestSubtreeSplitReadsOnlyGitSubtreesSquash: the library commit is read
// from the squash messages git subtree writes, and from nothing shaped
// like them that is not one.
func TestSubtreeSplitReadsOnlyGitSubtreesSquash(t *testing.T) {
	const id = "3199d80c6e2b5d1f0a8e4b7c9d2e1f0a3b4c5d6e"
	rows := []struct {
		name, msg string
		want      string
	}{
		{"add", "Squashed 'vendor/lib/' content from commit 3199d80\n\ngit-subtree-dir: vendor/lib\ngit-subtree-split: " + id + "\n", id},
		{"pull", "Squashed 'vendor/lib/' changes from 1111111..3199d80\n\n3199d80 lib: CHANGES.md\n\ngit-subtree-dir: vendor/lib\ngit-subtree-split: " + id + "\n", id},
		{"short id not the split's", "Squashed 'vendor/lib/' content from commit abcdef0\n\ngit-subtree-dir: vendor/lib\ngit-subtree-split: " + id + "\n", ""},
		{"another directory", "Squashed 'vendor/lib/' content from commit 3199d80\n\ngit-subtree-dir: vendor/other\ngit-subtree-split: " + id + "\n", ""},
		{"no directory line", "Squashed 'vendor/lib/' content from commit 3199d80\n\ngit-subtree-split: " + id + "\n", ""},
		{"not a squash subject", "build: vendor lib\n\ngit-subtree-dir: vendor/lib\ngit-subtree-split: " + id + "\n", ""},
		{"the add's merge", "Merge commit '" + id + "' as 'vendor/lib'\n", ""},
		{"split not an id", "Squashed 'vendor/lib/' content from commit 3199d80\n\ngit-subtree-dir: vendor/lib\ngit-subtree-split: 3199d80\n", ""},
	}
	for _, r := range rows {
		got, ok := subtreeSplit(r.msg)
		if got != r.want || ok != (r.want != "") {
			t.Errorf("%s: got %q %v, want %q", r.name, got, ok, r.want)
		}
	}
}

// FuzzSubtreeSplit: whatever the message, an answer is a full object id
// the message itself carries on a git-subtree-split line.
func FuzzSubtreeSplit(f *testing.F) {
	f.Add("Squashed 'vendor/lib/' content from commit 3199d80\n\ngit-subtree-dir: vendor/lib\ngit-subtree-split: 3199d80c6e2b5d1f0a8e4b7c9d2e1f0a3b4c5d6e\n")
	f.Add("Squashed '/' changes from a..b\n\ngit-subtree-dir: \ngit-subtree-split: b\n")
	f.Fuzz(func(t *testing.T, msg string) {
		split, ok := subtreeSplit(msg)
		if !ok {
			if split != "" {
				t.Fatalf("refused with an answer %q", split)
			}
			return
		}
		if !walk.ObjectID(split) || !strings.Contains(msg, "git-subtree-split:") || !strings.Contains(msg, split) {
			t.Fatalf("answer %q is not an id the message names", split)
		}
	})
}
