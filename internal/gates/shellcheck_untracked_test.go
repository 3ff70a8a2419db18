package gates

import (
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// TestSourcesUntracked: a script counts as sourcing a file put in place at
// run time when it does so itself or through libraries of the tree (four
// deep at most), and a library sourcing itself or another in a ring ends.
func TestSourcesUntracked(t *testing.T) {
	tree := &gatetest.Tree{Data: map[string]string{
		"t/t01.sh":       ". lib/setup.sh\nx=1\n",
		"t/lib/setup.sh": ". ./runner.sh\n", // runner.sh: fetched at run time
		"t/t02.sh":       ". lib/plain.sh\n",
		"t/lib/plain.sh": ". ./helpers.sh\n",
		"t/helpers.sh":   "h() { :; }\n",
		"t/t03.sh":       ". ./ring-a.sh\n",
		"t/ring-a.sh":    ". ./ring-b.sh\n",
		"t/ring-b.sh":    ". ./ring-a.sh\n",
		"t/t04.sh":       ". ./d1.sh\n",
		"t/d1.sh":        ". ./d2.sh\n",
		"t/d2.sh":        ". ./d3.sh\n",
		"t/d3.sh":        ". ./d4.sh\n",
		"t/d4.sh":        ". ./gone.sh\n",
		"t/t05.sh":       "# . ./gone.sh\n. \"$dir/gone.sh\"\n",
		"t/t06.sh":       ". ./runner.sh\n",
	}}
	c := &gate.Context{Dir: t.TempDir(), Tree: tree}
	for _, tc := range []struct {
		script string
		want   bool
	}{
		{"t/t01.sh", true},  // through a library of the tree
		{"t/t02.sh", false}, // every file in the chain is tracked (helpers.sh from the top's t/)
		{"t/t03.sh", false}, // a ring of tracked libraries ends
		{"t/t04.sh", false}, // the untracked file is five deep: past the depth read
		{"t/t05.sh", false}, // a comment and a computed path name nothing
		{"t/t06.sh", true},  // itself
	} {
		text, _ := tree.Read(tc.script)
		if got := sourcesUntracked(c, tc.script, text); got != tc.want {
			t.Errorf("%s: sourcesUntracked = %v, want %v", tc.script, got, tc.want)
		}
	}
}

// TestForeignShell: a #! naming a shell ShellCheck does not read, or zsh's
// completion tag on the first line, names the shell; a tag in a comment
// after a blank, or on a later line, names none.
func TestForeignShell(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"#!/bin/zsh\necho hi\n", "zsh"},
		{"#!/usr/bin/env fish\n", "fish"},
		{"#compdef rain\ncompdef _rain rain\n", "zsh"},
		{"#autoload\n", "zsh"},
		{"#compdef\n", "zsh"},
		{"# compdef notes\ncd /tmp\n", ""},
		{"#!/bin/bash\n#compdef x\n", ""},
		{"#compdefine x\n", ""},
		{"", ""},
	} {
		if got := foreignShell([]byte(tc.text)); got != tc.want {
			t.Errorf("foreignShell(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
