package workflow

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func read(s string) *File { return Read("w.yml", []byte(s)) }

func TestShape(t *testing.T) {
	cases := []struct {
		src                         string
		workflow, composite, action bool
	}{
		{"on: push\njobs:\n  a:\n    runs-on: x\n", true, false, true},
		{"\"on\": push\njobs: {}\n", true, false, true},
		{"jobs:\n  a:\n    steps: []\n", false, false, false}, // CircleCI's shape: no on:
		{"name: a\nruns:\n  using: composite\n", false, true, true},
		{"runs:\n  using: docker\n", false, true, true},
		{"x:\n  jobs:\n    a: 1\non: push\n", false, false, false}, // jobs: not at column 0
		{"# jobs:\non: push\n", false, false, false},
		{"", false, false, false},
	}
	for _, tc := range cases {
		s := read(tc.src).Shape
		if s.Workflow() != tc.workflow || s.Composite() != tc.composite || s.Actions() != tc.action {
			t.Errorf("%q: shape %+v workflow=%v composite=%v actions=%v", tc.src, s, s.Workflow(), s.Composite(), s.Actions())
		}
	}
}

const sample = `name: CI
on: [push]
env:
  A: 1
jobs:
  # a comment at the job column
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Build
        run: |
          make
        env:
          V: 1
      -   name: wide
          run: echo wide
      -
        name: bare dash
        run: echo bare
  indentless:
    runs-on: [a, b]
    steps:
    - run: echo one
    - uses: x/y@v1
      with:
        k: v
    if: always()

  call:
    uses: o/r/.github/workflows/ci.yml@v1
after: 1
`

func TestJobPartition(t *testing.T) {
	f := read(sample)
	if f.JobCol != 2 || f.JobsLine != 5 || f.JobsEnd != 31 {
		t.Fatalf("jobs section: col %d line %d end %d", f.JobCol, f.JobsLine, f.JobsEnd)
	}
	var ids []string
	for _, j := range f.Jobs {
		ids = append(ids, j.ID)
	}
	if !reflect.DeepEqual(ids, []string{"build", "indentless", "call"}) {
		t.Fatalf("jobs %v", ids)
	}
	b := f.Jobs[0]
	if b.Line != 7 || b.End != 20 || b.KeyCol != 4 || len(b.Steps) != 4 {
		t.Fatalf("build: line %d end %d keycol %d steps %d", b.Line, b.End, b.KeyCol, len(b.Steps))
	}
	type st struct{ line, dash, key int }
	var got []st
	for _, s := range b.Steps {
		got = append(got, st{s.Line, s.DashCol, s.KeyCol})
	}
	want := []st{{10, 6, 8}, {11, 6, 8}, {16, 6, 10}, {18, 6, 8}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("steps %v, want %v", got, want)
	}
	if b.Steps[1].Run == nil || b.Steps[1].Env == nil || b.Steps[3].Run == nil || b.Steps[2].Run == nil {
		t.Fatal("step keys not found")
	}
	in := f.Jobs[1]
	if len(in.Steps) != 2 || in.Steps[0].DashCol != 4 || UsesRef(in.Steps[1].Uses) != "x/y@v1" {
		t.Fatalf("indentless steps: %d", len(in.Steps))
	}
	if in.RunsOn == nil || in.RunsOn.Value != "[a, b]" {
		t.Fatal("runs-on of the indentless job")
	}
	if c := f.Jobs[2]; c.Uses == nil || UsesRef(c.Uses) != "o/r/.github/workflows/ci.yml@v1" || len(c.Steps) != 0 {
		t.Fatal("reusable call")
	}
	if !hasKey(EnvKeys(f.Env), "A") {
		t.Fatal("workflow env")
	}
}

func TestExtractBody(t *testing.T) {
	src := "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo \"$V\"\n\n            indented ${{ github.sha }} and ${{ x }}\n        env:\n          V: 1\n      - run: echo ${{ a }}\n      - run: 'it''s'\n      - run: \"a\\nb\"\n      - run: echo a # trailing\n      - run: \"open\n          more\"\n"
	runs, err := Extract(read(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 6 {
		t.Fatalf("%d runs", len(runs))
	}
	b := runs[0]
	if !b.Block || b.Line != 6 || b.First != 7 || b.Res != Shell || b.Dialect != "bash" {
		t.Fatalf("block %+v", b)
	}
	if want := []string{`echo "$V"`, "", "  indented ${GHEXPR} and ${GHEXPR}"}; !reflect.DeepEqual(b.Lines, want) {
		t.Fatalf("body %q, want %q (the sibling env: must not leak in)", b.Lines, want)
	}
	if r := runs[1]; r.Block || r.Lines[0] != "echo ${GHEXPR}" {
		t.Fatalf("single %+v", r)
	}
	if r := runs[2]; r.Lines[0] != "it's" {
		t.Fatalf("single-quoted %q", r.Lines)
	}
	if r := runs[3]; r.Skip == "" {
		t.Fatal("a double-quoted escape is skipped")
	}
	if r := runs[4]; r.Lines[0] != "echo a" {
		t.Fatalf("plain %q", r.Lines)
	}
	if r := runs[5]; r.Skip == "" {
		t.Fatal("an unclosed quote is skipped")
	}
}

func TestExtractRefusals(t *testing.T) {
	wrap := func(step string) string {
		return "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n" + step
	}
	cases := []struct {
		src       string
		line      int
		construct string
	}{
		{wrap("      - run: >\n          a\n"), 6, "folded"},
		{wrap("      - run: >-\n          a\n"), 6, "folded"},
		{wrap("      - run: >+\n          a\n"), 6, "folded"},
		{wrap("      - run: |2\n            a\n"), 6, "indentation indicator"},
		{wrap("      - run: |-1\n           a\n"), 6, "indentation indicator"},
		{wrap("      - run: &a |\n          a\n"), 6, "anchor or alias"},
		{wrap("      - run: *a\n"), 6, "anchor or alias"},
		{wrap("      - run: |\n          echo ${{ x\n"), 7, "unbalanced"},
		{wrap("      - run: |\n            a\n          b\n"), 8, "left of the block's first line"},
		{"defaults:\n  run:\n    shell: pwsh\n" + wrap("      - run: a\n"), 1, "defaults"},
		{"defaults: {run: {shell: pwsh}}\n" + wrap("      - run: a\n"), 1, "defaults"},
		{"on: push\njobs:\n  b:\n    defaults:\n      run:\n        working-directory: x\n    steps:\n      - run: a\n", 4, "defaults"},
	}
	for _, tc := range cases {
		_, err := Extract(read(tc.src))
		var r *Refusal
		if !errors.As(err, &r) || r.Line != tc.line || !strings.Contains(r.Construct, tc.construct) {
			t.Errorf("%q: err %v, want a refusal of %q at line %d", tc.src, err, tc.construct, tc.line)
		}
	}
	// The chomping indicators, a defaults: block setting nothing about
	// run:, and a file outside the Actions shape are read, not refused.
	for _, src := range []string{
		wrap("      - run: |-\n          a\n      - run: |+\n          b\n      - run: | # why\n          c\n"),
		"defaults:\n  other: 1\n" + wrap("      - run: a\n"),
		"x:\n  run: >-\n    a\n",
	} {
		if _, err := Extract(read(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

func TestRunnerOf(t *testing.T) {
	cases := []struct {
		runsOn string
		want   Runner
	}{
		{"ubuntu-latest", NonWindows},
		{"macos-14", NonWindows},
		{"windows-latest", Windows},
		{"Windows-2022", Windows},
		{"'windows'", Windows},
		{"[self-hosted, \"Windows\"]", Windows},
		{"[self-hosted, win-2022]", NonWindows},
		{"[self-hosted,\n      linux]", NonWindows},
		{"\n      - self-hosted\n      - windows", Windows},
		{"\n      group: big\n      labels: [windows-2019]", Windows},
		{"\n      group: big\n      labels:\n        - linux", NonWindows},
		{"{group: big, labels: ubuntu-latest}", NonWindows},
		{"{group: big}", Unreadable},
		{"\n      group: big", Unreadable},
		{"${{ matrix.os }}", Unreadable},
		{"[ubuntu-latest, \"${{ matrix.x }}\"]", Unreadable},
		{"", Unreadable},
	}
	for _, tc := range cases {
		src := "on: push\njobs:\n  b:\n    runs-on: " + tc.runsOn + "\n    steps: []\n"
		f := read(src)
		if got, why := RunnerOf(f.Jobs[0]); got != tc.want {
			t.Errorf("runs-on %q: %v (%s), want %v", tc.runsOn, got, why, tc.want)
		}
	}
	if got, _ := RunnerOf(read("on: push\njobs:\n  b:\n    steps: []\n").Jobs[0]); got != Unreadable {
		t.Error("an absent runs-on is unreadable")
	}
}

func TestResolveDialect(t *testing.T) {
	cases := []struct {
		runsOn, shell string
		res           Res
		dialect       string
	}{
		{"ubuntu-latest", "", Shell, "bash"},
		{"windows-latest", "", WindowsRun, ""},
		{"${{ matrix.os }}", "", NoDialect, ""},
		{"windows-latest", "bash", Shell, "bash"},
		{"ubuntu-latest", "bash -e {0}", Shell, "bash"},
		{"ubuntu-latest", "sh", Shell, "sh"},
		{"ubuntu-latest", "dash", Shell, "dash"},
		{"ubuntu-latest", "ksh", Shell, "ksh"},
		{"ubuntu-latest", "pwsh", OtherShell, ""},
		{"ubuntu-latest", "python", OtherShell, ""},
		{"ubuntu-latest", "perl {0}", OtherShell, ""},
		{"${{ matrix.os }}", "'bash'", Shell, "bash"},
	}
	for _, tc := range cases {
		step := "      - run: echo\n"
		if tc.shell != "" {
			step += "        shell: " + tc.shell + "\n"
		}
		runs, err := Extract(read("on: push\njobs:\n  b:\n    runs-on: " + tc.runsOn + "\n    steps:\n" + step))
		if err != nil || len(runs) != 1 {
			t.Fatalf("%+v: %v", tc, err)
		}
		if runs[0].Res != tc.res || runs[0].Dialect != tc.dialect {
			t.Errorf("%+v: got %v %q", tc, runs[0].Res, runs[0].Dialect)
		}
	}
	runs, _ := Extract(read("runs:\n  using: composite\n  steps:\n    - run: echo\n    - run: echo\n      shell: bash\n"))
	if len(runs) != 2 || runs[0].Res != NoDialect || runs[1].Res != Shell {
		t.Fatalf("action steps: %+v", runs)
	}
}

func TestGhCalls(t *testing.T) {
	cases := []struct {
		line string
		want []Call // Line is always 1 here
	}{
		{"gh release create v1", []Call{{1, false}}},
		{"gh release create --repo o/r v1", []Call{{1, true}}},
		{"gh pr view -R o/r 1", []Call{{1, true}}},
		{"gh api x --repo o/r; gh api y", []Call{{1, true}, {1, false}}},
		{"gh api x; echo --repo", []Call{{1, false}}},
		{"if ! gh release view v1; then exit; fi", []Call{{1, false}}},
		{"x=$(gh api /user)", []Call{{1, false}}},
		{"echo \"$(gh api /user)\"", []Call{{1, false}}},
		{"GH_TOKEN=t gh pr merge", []Call{{1, false}}},
		{"make && gh release upload v1 a", []Call{{1, false}}},
		{"cat x | gh gist create", []Call{{1, false}}},
		{"echo hi # ; gh auth status", []Call{{1, false}}},
		{"gh release create x # --repo o/r", []Call{{1, false}}},
		{"echo ghost", nil},
		{"git push origin gh-pages", nil},
		{"echo gh", nil},
		{"ghq get x", nil},
		{"./gh x", nil},
		{"sudo gh x", []Call{{1, false}}},
	}
	for _, tc := range cases {
		got := ghCalls(logical{text: tc.line, first: 1, offs: []int{0}})
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.line, got, tc.want)
		}
	}
	lg := joinLogical([]Line{{5, "gh release create \\"}, {6, "  --repo o/r v1"}, {7, "  # gh x"}, {8, "echo; \\"}, {9, "gh api"}})
	var calls []Call
	for _, l := range lg {
		calls = append(calls, ghCalls(l)...)
	}
	if want := []Call{{5, true}, {9, false}}; !reflect.DeepEqual(calls, want) {
		t.Fatalf("continuations: %v, want %v", calls, want)
	}
}

func TestScriptTokens(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		{"scripts/build.sh --fast", []string{"scripts/build.sh"}},
		{"./scripts/gone.sh", []string{"./scripts/gone.sh"}},
		{"./build.sh", []string{"./build.sh"}},
		{"bash -e scripts/gone.sh", []string{"scripts/gone.sh"}},
		{"source ./lib/x.sh", []string{"./lib/x.sh"}},
		{". lib/x.sh", []string{"lib/x.sh"}},
		{"make && scripts/gone.sh", []string{"scripts/gone.sh"}},
		{"a | b/c.sh; d/e.sh & f/g.sh", []string{"b/c.sh", "d/e.sh", "f/g.sh"}},
		{"FOO=1 scripts/x.sh", []string{"scripts/x.sh"}},
		{"if scripts/x.sh; then y; fi", []string{"scripts/x.sh"}},
		{"'scripts/x.sh'", []string{"scripts/x.sh"}},
		{"/opt/gone.sh", []string{"/opt/gone.sh"}},
		{"cp dist/a.sh out/gone.sh", nil},
		{"\"$GITHUB_WORKSPACE\"/scripts/gone.sh", nil},
		{"build.sh", nil},
		{"scripts/build.sh # scripts/gone.sh", []string{"scripts/build.sh"}},
		{"  # scripts/gone.sh", nil},
		{"scripts/*.sh", nil},
		{"${GHEXPR}/x.sh", nil},
		{"bash", nil},
	}
	for _, tc := range cases {
		if got := ScriptTokens(tc.line); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestUsesRefsAndPinned(t *testing.T) {
	src := "jobs:\n  a:\n    uses: o/r/.github/workflows/x.yml@v1\n  b:\n    steps:\n      - uses: \"a/b@" + strings.Repeat("a", 40) + "\" # v1\n      # - uses: actions/cache@v4\n      ## uses: c/d@main\n      - {uses: e/f@v2, with: {x: 1}}\n      - run: |\n          uses: not/a@key\n      - uses:\n"
	f := read(src)
	var got []UsesLine
	got = append(got, UsesRefs(f)...)
	want := []UsesLine{
		{3, "o/r/.github/workflows/x.yml@v1", false},
		{6, "a/b@" + strings.Repeat("a", 40), false},
		{7, "actions/cache@v4", true},
		{8, "c/d@main", true},
		{9, "e/f@v2", false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("refs\n%v\nwant\n%v", got, want)
	}
	pins := map[string]bool{
		"a/b@" + strings.Repeat("0", 40):               true,
		"a/b@" + strings.Repeat("A", 40):               true,
		"./.github/actions/x":                          true,
		"docker://a@sha256:" + strings.Repeat("f", 64): true,
		"a/b@v4":                         false,
		"a/b@main":                       false,
		"a/b@11bd719":                    false,
		"a/b":                            false,
		"docker://alpine:3":              false,
		"a/b@${{ inputs.r }}":            false,
		"a/b@" + strings.Repeat("0", 41): false,
	}
	for ref, ok := range pins {
		if got, why := Pinned(ref); got != ok || (!ok && why == "") {
			t.Errorf("Pinned(%q) = %v %q, want %v", ref, got, why, ok)
		}
	}
}

func TestReadPerm(t *testing.T) {
	cases := []struct {
		val              string
		refuse           bool
		contents, grants bool
	}{
		{"{contents: read}", false, true, true},
		{"{contents: write, id-token: write}", false, true, true},
		{"\n  contents: read\n  pull-requests: write", false, true, true},
		{"{id-token: write}", false, false, true},
		{"{}", false, false, false},
		{"", false, false, false},
		{"{contents: none}", false, false, false},
		{"read-all", false, true, true},
		{"'write-all'", false, true, true},
		{"${{ inputs.p }}", true, false, false},
		{"*p", true, false, false},
		{"&p {contents: read}", true, false, false},
		{"read", true, false, false},
		{"{contents: maybe}", true, false, false},
		{"\n  contents: ${{ x }}", true, false, false},
	}
	for _, tc := range cases {
		f := read("permissions: " + tc.val + "\n")
		p, err := ReadPerm(f, f.Permissions)
		if (err != nil) != tc.refuse {
			t.Errorf("%q: err %v", tc.val, err)
			continue
		}
		if err == nil && (p.Contents() != tc.contents || p.Grants() != tc.grants || !p.Present) {
			t.Errorf("%q: contents %v grants %v", tc.val, p.Contents(), p.Grants())
		}
	}
	if p, err := ReadPerm(read("x: 1\n"), nil); err != nil || p.Present {
		t.Error("absent permissions")
	}
}

func TestWalkMarkersAndEvidence(t *testing.T) {
	src := `on: push
env:
  GH_REPO: o/r
jobs:
  # m: job one
  one:
    runs-on: x
    steps:
      - run: gh api a
  two:
    runs-on: x
    # m: inside the job's keys
    steps:
      - run: gh api b
  three:
    runs-on: x
    steps:
      # m: the next step
      - run: gh api c
        env: {T: "${{ secrets.GITHUB_TOKEN }}"}
      - name: keys
        # m: this step
        run: gh api d
      - uses: actions/checkout@v4
        with:
          token: ${{ github.token }}
      - run: |
          if ! gh x; then
            echo "spell cargo"
          fi
      # m:
  four:
    runs-on: x
    steps:
      - uses: tool/setup@v1
      - run: cargo build
`
	w := Walk(read(src), WalkOptions{Marker: "m", Words: []string{"cargo"}})
	if !w.GHRepoWorkflow || !reflect.DeepEqual(w.Bare, []int{31}) {
		t.Fatalf("workflow env %v, bare %v", w.GHRepoWorkflow, w.Bare)
	}
	if !w.Jobs[0].Exempt || w.Jobs[0].ExemptLine != 5 || !w.Jobs[1].Exempt {
		t.Fatalf("job-bound markers: %+v %+v", w.Jobs[0], w.Jobs[1])
	}
	j3 := w.Jobs[2]
	if j3.Exempt || len(j3.Calls) != 1 || j3.Calls[0].Line != 28 {
		t.Fatalf("step-bound markers drop their steps' calls: %+v", j3.Calls)
	}
	if !reflect.DeepEqual(j3.Checkouts, []int{24}) || !j3.TokenRef {
		t.Fatalf("checkout %v token %v", j3.Checkouts, j3.TokenRef)
	}
	if !reflect.DeepEqual(j3.Words, []Event{{29, "cargo"}}) {
		t.Fatalf("words %v", j3.Words)
	}
	j4 := w.Jobs[3]
	if !reflect.DeepEqual(j4.Uses, []Event{{35, "tool/setup@v1"}}) || !reflect.DeepEqual(j4.Words, []Event{{36, "cargo"}}) {
		t.Fatalf("job four events %v %v", j4.Uses, j4.Words)
	}
	// Without words the walk emits no word or uses: event.
	if w := Walk(read(src), WalkOptions{}); len(w.Jobs[3].Uses)+len(w.Jobs[3].Words) != 0 || len(w.Bare) != 0 {
		t.Fatal("events without words")
	}
	// The token mention on an exempt step is dropped.
	src2 := "on: push\njobs:\n  a:\n    steps:\n      # m: ok\n      - run: echo ${{ secrets.GITHUB_TOKEN }}\n"
	if Walk(read(src2), WalkOptions{Marker: "m"}).Jobs[0].TokenRef {
		t.Fatal("exempt step's token reference kept")
	}
}

func TestHasTokenRef(t *testing.T) {
	yes := []string{"${{ secrets.GITHUB_TOKEN }}", "${{ github.token }}", "# GITHUB.TOKEN", "x: secrets.github_token"}
	no := []string{"secrets.NPM_TOKEN", "secrets.GITHUB_TOKEN_2", "github.tokens", "env.github.token", "GITHUB_TOKEN"}
	for _, s := range yes {
		if !HasTokenRef(s) {
			t.Errorf("%q not found", s)
		}
	}
	for _, s := range no {
		if HasTokenRef(s) {
			t.Errorf("%q found", s)
		}
	}
}

func TestCorpus(t *testing.T) {
	files := []string{"b.yml", "a.yaml", "x.md", "gate-tests/c/bad/x.yml", "sub/c.yml", "sub/gate-tests/d.yml", ".yml", "templates/t.yml"}
	prune := func(rel string) bool { return strings.Contains("/"+rel, "/gate-tests/") }
	if got := Corpus(files, ".", prune, ".yml", ".yaml"); !reflect.DeepEqual(got, []string{"a.yaml", "b.yml", "sub/c.yml", "templates/t.yml"}) {
		t.Fatalf("whole tree: %v", got)
	}
	if got := Corpus(files, "./sub/", prune, ".yml"); !reflect.DeepEqual(got, []string{"sub/c.yml"}) {
		t.Fatalf("sub: %v", got)
	}
}

func TestScalarHelpers(t *testing.T) {
	strip := map[string]string{
		"a # b":            "a",
		"a#b":              "a#b",
		"'a # b' # c":      "'a # b'",
		"\"a \\\" # b\" #": "\"a \\\" # b\"",
		"[a, 'b # c'] # d": "[a, 'b # c']",
		"# all":            "",
	}
	for in, want := range strip {
		if got := stripComment(in); got != want {
			t.Errorf("stripComment(%q) = %q, want %q", in, got, want)
		}
	}
	keys := []struct {
		in, key, rest string
		ok            bool
	}{
		{"run: |", "run", "|", true},
		{"\"on\": push", "on", "push", true},
		{"run:", "run", "", true},
		{"echo http://x", "", "", false},
		{"- a: b", "", "", false},
		{"a # b: c", "", "", false},
		{"-x: y", "-x", "y", true},
	}
	for _, tc := range keys {
		k, r, ok := splitKey(tc.in)
		if k != tc.key || r != tc.rest || ok != tc.ok {
			t.Errorf("splitKey(%q) = %q %q %v", tc.in, k, r, ok)
		}
	}
	if items, ok := flowItems("{a: [1, 2], 'b,c': d}"); !ok || len(items) != 2 {
		t.Errorf("flowItems: %q %v", items, ok)
	}
	if _, ok := flowItems("[a, b"); ok {
		t.Error("an unclosed flow sequence")
	}
}
