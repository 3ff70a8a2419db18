package workflow

import (
	"errors"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzRead holds the reader's contract over arbitrary bytes: no input
// panics; a file the parser rejects has no structure, and when it looks
// like a workflow or an action every reading that could print clean
// (Extract) refuses it instead; every refusal is a *Refusal naming a line
// the file has (or none); every line the reader reports is one the file
// has.
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
		"\ufeffon: push\rjobs:\r  a:\r    steps: [{run: \"gh x\"}]\r",
		"{\"on\": \"push\", \"jobs\": {\"a\": {\"steps\": [{\"uses\": \"a/b@v1\"}]}}}",
		"on: push\njobs:\n  a: &j\n    steps:\n      - &s\n        run: |\n          x\n  b: *j\n",
		"a: &a [*a]\n",
		"on: push\njobs:\n\ta:\n\t\tsteps: []\n",
		"on: push\njobs:\n  a:\n    steps:\n      - run: |\n          é\u2028x\n",
		"%YAML 1.2\n---\non: push\njobs:\n  a:\n    steps:\n      - run: &r >-2\n            a\n          b\n\n          ${{\n          x }}\n      - run: *r\n...\n",
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
		var probe yaml.Node
		// The reader reads a %YAML 1.2 directive as 1.1 (directive12).
		parserRejects := yaml.Unmarshal(directive12(data), &probe) != nil
		if parserRejects && file.Rejected == nil {
			t.Fatalf("the parser rejects the file and the reader read it")
		}
		runs, err := Extract(file)
		if file.Rejected != nil {
			if file.Shape.Actions() || len(file.Jobs) > 0 || file.Action != nil || len(UsesRefs(file)) > 0 {
				t.Fatalf("a rejected file has structure")
			}
			if file.Suspect && err == nil {
				t.Fatalf("a rejected workflow-looking file extracted clean")
			}
			if !file.Suspect && (err != nil || runs != nil) {
				t.Fatalf("a rejected file outside the shape was read: %v", err)
			}
		}
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			if r.Line != 0 {
				inRange("refusal", r.Line)
			}
		}
		for _, r := range runs {
			inRange("run", r.Line)
			if len(r.Lines) > 0 {
				inRange("run first", r.First)
			}
			for i, l := range r.Lines {
				_ = r.FileCol(i, 1)
				inRange("run body", r.FileLine(i, 1))
				inRange("run body end", r.FileLine(i, len(l)))
			}
		}
		for _, j := range file.Jobs {
			inRange("job", j.Line)
			if j.End < j.Line || j.End > n {
				t.Fatalf("job end %d", j.End)
			}
			for _, s := range j.Steps {
				inRange("step", s.Line)
				if s.End < s.Line || s.End > n {
					t.Fatalf("step end %d (line %d, %d lines)", s.End, s.Line, n)
				}
			}
			RunnerOf(j)
			ReadPerm(file, j.Permissions)
		}
		ReadPerm(file, file.Permissions)
		for _, u := range UsesRefs(file) {
			inRange("uses", u.Line)
		}
		w := Walk(file, WalkOptions{Marker: "gh-repo-exempt", Words: []string{"go"}})
		for _, l := range append(append([]int(nil), w.Bare...), w.Dangling...) {
			inRange("marker", l)
		}
		for _, jw := range w.Jobs {
			for _, c := range jw.Calls {
				inRange("call", c.Line)
			}
			for _, e := range append(append(append([]Event(nil), jw.Words...), jw.Uses...), jw.Checkouts...) {
				inRange("event", e.Line)
			}
		}
	})
}
