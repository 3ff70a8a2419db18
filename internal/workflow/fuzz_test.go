package workflow

import (
	"errors"
	"testing"
)

// FuzzRead holds the reader's contract: no input panics, every refusal is
// a *Refusal naming a line of the file, and every line the reader reports
// is one the file has.
func FuzzRead(f *testing.F) {
	seeds := []string{
		sample,
		"on: push\njobs:\n  b:\n    runs-on: ${{ matrix.os }}\n    steps:\n      - run: |\n          echo ${{ x }}\n        shell: bash\n",
		"runs:\n  using: composite\n  steps:\n    - run: >-\n        a\n",
		"permissions: {contents: read}\non: push\njobs:\n  a:\n    permissions: ${{ x }}\n    uses: o/r/x.yml@v1\n",
		"defaults:\n  run:\n    shell: pwsh\non: push\njobs: {}\n",
		"- - - a\n  - b: [c, {d: e}]\n\t- x\n",
		"on: push\njobs:\n  # gh-repo-exempt:\n  a:\n    steps:\n    - run: gh api \\\n        --repo x\n",
		"\"on\": [push]\njobs:\n  a:\n    runs-on: {group: g, labels: [windows-1]}\n    steps:\n      -\n        run: |2\n            x\n",
		"a: 'unclosed\n  b: \"x\\\"\n",
		"",
		"\r\n\r\n:\n-\n#\n|\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := Read("f.yml", data)
		n := file.Lines()
		inRange := func(what string, l int) {
			if l < 1 || l > n {
				t.Fatalf("%s line %d outside 1..%d", what, l, n)
			}
		}
		var check func([]*Node)
		check = func(ns []*Node) {
			for _, nd := range ns {
				inRange("node", nd.Line)
				if nd.End < nd.Line || nd.End > n {
					t.Fatalf("node end %d (line %d, %d lines)", nd.End, nd.Line, n)
				}
				for _, l := range nd.Cont {
					inRange("continuation", l)
				}
				check(nd.Kids)
			}
		}
		check(file.Top)
		runs, err := Extract(file)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			inRange("refusal", r.Line)
		}
		for _, r := range runs {
			inRange("run", r.Line)
			if len(r.Lines) > 0 {
				inRange("run first", r.First)
				inRange("run last", r.First+len(r.Lines)-1)
			}
			for _, l := range r.Lines {
				ScriptTokens(l)
			}
		}
		if _, err := ReadPerm(file, file.Permissions); err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
		}
		for _, j := range file.Jobs {
			RunnerOf(j)
			if _, err := ReadPerm(file, j.Permissions); err != nil {
				var r *Refusal
				if !errors.As(err, &r) {
					t.Fatalf("untyped error %T: %v", err, err)
				}
			}
		}
		w := Walk(file, WalkOptions{Marker: "gh-repo-exempt", Words: []string{"gh", "cargo"}})
		for _, jw := range w.Jobs {
			for _, c := range jw.Calls {
				inRange("call", c.Line)
			}
			for _, e := range jw.Words {
				inRange("word", e.Line)
			}
		}
		for _, u := range UsesRefs(file) {
			inRange("uses", u.Line)
			Pinned(u.Ref)
		}
	})
}
