package workflow

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func read(s string) *File { return Read("w.yml", []byte(s)) }

const sample = `name: ci
on: push
env:
  GH_REPO: o/r
permissions:
  contents: read
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: test
        run: |
          cd build
          make test
        shell: bash
  lint:
    runs-on: [self-hosted, linux]
    steps:
      - run: gh api x
`

func TestShape(t *testing.T) {
	cases := []struct {
		name, src     string
		wf, comp, act bool
	}{
		{"workflow", sample, true, false, true},
		{"quoted on", "\"on\": push\njobs: {}\n", true, false, true},
		{"action", "name: a\nruns:\n  using: composite\n", false, true, true},
		{"circleci", "version: 2.1\njobs:\n  b: {}\n", false, false, false},
		{"flow", "{on: push, jobs: {a: {runs-on: x}}}\n", true, false, true},
		{"json", "{\"on\": \"push\", \"jobs\": {\"a\": {\"runs-on\": \"x\"}}}\n", true, false, true},
		{"bom", "\ufeffon: push\njobs: {}\n", true, false, true},
		{"cr only", "on: push\rjobs:\r  a:\r    runs-on: x\r", true, false, true},
		{"nested keys are not top level", "x:\n  on: push\n  jobs: {}\n", false, false, false},
		{"a list", "- on\n- jobs\n", false, false, false},
		{"empty", "", false, false, false},
		{"comments only", "# on:\n# jobs:\n", false, false, false},
	}
	for _, tc := range cases {
		f := read(tc.src)
		if f.Rejected != nil {
			t.Errorf("%s: rejected: %v", tc.name, f.Rejected)
			continue
		}
		if f.Shape.Workflow() != tc.wf || f.Shape.Composite() != tc.comp || f.Shape.Actions() != tc.act {
			t.Errorf("%s: shape %+v", tc.name, f.Shape)
		}
	}
}

func TestRejection(t *testing.T) {
	cases := []struct {
		name, path, src string
		line            int
		suspect         bool
		reason          string
	}{
		{"tab indentation", "x.yml", "on: push\njobs:\n\tb:\n\t\truns-on: x\n", 3, true, "the parser says"},
		{"unclosed flow", "ci.yml", "on: push\njobs: {a: [\n", 2, true, "the parser says"},
		{"flow mapping holding an expression", "ci.yml", "on: push\njobs:\n  a:\n    env: {A: ${{ x }}}\n", 4, true, "did not find expected ',' or '}'"},
		{"problem past the first line", "ci.yml", "- a\nb: 1\n", 2, false, "the parser says"},
		{"second document", "x.yml", "on: push\njobs: {}\n---\na: 1\n", 3, true, "a second YAML document"},
		{"not utf-8", "x.yml", "on: push\njobs: {}\n\xff\n", 0, true, "not UTF-8"},
		{"unknown alias placed", "x.yml", "a: 1\nb: *nope\n", 2, false, "unknown anchor"},
		{"workflow path", ".github/workflows/x.yml", "a: [\n", 0, true, ""},
		{"action name", "sub/action.yaml", "a: [\n", 0, true, ""},
		{"json keys", "x.yml", "{\"jobs\": {\"a\": [}\n", 0, true, ""},
		{"other yaml", "x.yml", "a: [\nb: 1\n", 0, false, ""},
		{"alias loop", "x.yml", "a: &a [*a]\n", 0, false, "aliases expand"},
		{"alias bomb", "x.yml", aliasBomb(), 0, false, "aliases expand"},
	}
	for _, tc := range cases {
		f := Read(tc.path, []byte(tc.src))
		if f.Rejected == nil {
			t.Errorf("%s: not rejected", tc.name)
			continue
		}
		if tc.line > 0 && f.Rejected.Line != tc.line {
			t.Errorf("%s: line %d, want %d (%v)", tc.name, f.Rejected.Line, tc.line, f.Rejected)
		}
		if f.Suspect != tc.suspect {
			t.Errorf("%s: suspect %v", tc.name, f.Suspect)
		}
		if !strings.Contains(f.Rejected.Error(), tc.reason) || !strings.HasPrefix(f.Rejected.Error(), tc.path+":") {
			t.Errorf("%s: %v", tc.name, f.Rejected)
		}
		if f.Shape.Actions() || len(f.Jobs) > 0 || len(UsesRefs(f)) > 0 {
			t.Errorf("%s: a rejected file has structure", tc.name)
		}
		runs, err := Extract(f)
		if tc.suspect && err == nil || !tc.suspect && (err != nil || runs != nil) {
			t.Errorf("%s: Extract %v, %v", tc.name, runs, err)
		}
	}
	if r := (&Refusal{"a.yml", 0, "x"}); r.Error() != "a.yml: cannot read x" {
		t.Errorf("line-less refusal: %q", r.Error())
	}
	if r := (&Refusal{"a.yml", 3, "x"}); r.Error() != "a.yml:3: cannot read x" {
		t.Errorf("refusal: %q", r.Error())
	}
}

// aliasBomb nests nine-fold aliases eight deep: 9^8 nodes expanded.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 8; i++ {
		p := fmt.Sprintf("*a%d", i-1)
		fmt.Fprintf(&b, "a%d: &a%d [%s]\n", i, i, strings.Repeat(p+", ", 8)+p)
	}
	return b.String()
}

func TestSplitLines(t *testing.T) {
	got := splitLines([]byte("\ufeffa\r\nb\rc\nd\u0085e\u2028f\u2029g"))
	var texts []string
	for _, l := range got {
		texts = append(texts, l.text)
	}
	if want := []string{"a", "b", "c", "d", "e", "f", "g"}; !reflect.DeepEqual(texts, want) {
		t.Fatalf("%q, want %q", texts, want)
	}
	l := splitLines([]byte("  # c\n \t\n  x: 1\n"))
	if !l[0].comment || l[0].indent != 2 || !l[1].blank || l[1].comment || l[2].indent != 2 || l[2].blank {
		t.Fatalf("%+v", l)
	}
	if n := len(splitLines([]byte("a\n\n"))); n != 2 {
		t.Fatalf("trailing empty line: %d lines", n)
	}
	if n := len(splitLines(nil)); n != 0 {
		t.Fatalf("empty: %d", n)
	}
	if byteCol("aé\tb", 4) != 4 || byteCol("ab", 9) != 2 || byteCol("ab", 1) != 0 {
		t.Fatal("byteCol")
	}
}

func TestJobPartition(t *testing.T) {
	f := read(sample + "  # trailing\nx: 1\n")
	if f.JobsLine != 7 || len(f.Jobs) != 2 {
		t.Fatalf("jobs line %d, %d jobs", f.JobsLine, len(f.Jobs))
	}
	b, l := f.Jobs[0], f.Jobs[1]
	if b.ID != "build" || b.Line != 8 || b.Col != 3 || b.End != 16 || l.ID != "lint" || l.Line != 17 || l.End != 21 {
		t.Fatalf("build %+v lint %+v", b, l)
	}
	if len(b.Steps) != 2 || b.Steps[0].Line != 11 || b.Steps[1].Line != 12 || b.Steps[1].End != 16 || b.Steps[1].Index != 1 {
		t.Fatalf("steps %+v %+v", b.Steps[0], b.Steps[1])
	}
	s := b.Steps[1]
	if s.Run == nil || s.Run.Line != 13 || s.Run.Col != 9 || s.Shell == nil || s.Uses != nil || b.Steps[0].Uses == nil {
		t.Fatalf("step keys %+v", s)
	}
	if f.Env == nil || f.Permissions == nil || b.RunsOn == nil || f.Defaults != nil {
		t.Fatal("top keys")
	}
	if !f.IsComment(20) && f.Text(20) == "  # trailing" {
		t.Fatal("comment")
	}
	if f.IsComment(14) || f.Text(0) != "" || f.Text(99) != "" || f.Indent(14) != 10 || f.Indent(0) != 0 || f.Indent(99) != 0 {
		t.Fatal("line accessors")
	}
	// steps: before runs-on:, an anchored step, aliased steps, merge keys.
	g := read("on: push\njobs:\n  a:\n    steps:\n      - &setup\n        uses: x/y@v1\n    runs-on: ubuntu-latest\n  b:\n    <<: {runs-on: windows-latest}\n    steps: *s\n  c:\n    steps: &s\n      - run: echo\n")
	if g.Rejected == nil {
		t.Fatal("an alias before its anchor must be refused by the parser")
	}
	g = read("on: push\njobs:\n  c:\n    steps: &s\n      - run: echo\n  a:\n    steps:\n      - &setup\n        uses: x/y@v1\n    runs-on: ubuntu-latest\n  b:\n    <<: {runs-on: windows-latest}\n    steps: *s\n")
	a, bb := g.Jobs[1], g.Jobs[2]
	if len(a.Steps) != 1 || a.Steps[0].Uses == nil || a.Steps[0].Line != 8 || a.RunsOn == nil {
		t.Fatalf("anchored step: %+v", a.Steps)
	}
	if len(bb.Steps) != 1 || bb.Steps[0].Run == nil || bb.RunsOn == nil {
		t.Fatalf("aliased steps / merge: %+v", bb)
	}
	if r, _ := RunnerOf(bb); r != Windows {
		t.Fatalf("merged runs-on: %v", r)
	}
	// An action's steps.
	act := read("runs:\n  using: composite\n  steps:\n    - run: echo\n      shell: bash\n")
	if act.Action == nil || !act.Action.Action || len(act.Action.Steps) != 1 || act.Action.StepsKey == nil {
		t.Fatalf("action %+v", act.Action)
	}
}

func TestExtractBody(t *testing.T) {
	src := "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |  # header comment\n          if [ \"${{ github.event_name }}\" = push ]; then\n            echo ${{ x }} \"${{ y }}\"\n\n          fi\n        env:\n          V: 1\n      - run: echo ${{ github.sha }}\n      - run: \"printf '%s' \\\"a\\tb\\\"\"\n      - run: 'it''s'\n      - run: \"a\\nb\"\n      - run: plain\n          continued\n      - run: !!str tagged\n      - run:\n      - run: [x]\n"
	f := read(src)
	runs, err := Extract(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 8 {
		t.Fatalf("%d runs", len(runs))
	}
	r := runs[0]
	want := []string{"if [ \"${GHEXPR}\" = push ]; then", "  echo ${GHEXPR} \"${GHEXPR}\"", "", "fi"}
	if !r.Block || r.First != 7 || r.Line != 6 || !reflect.DeepEqual(r.Lines, want) || r.Indent != 10 {
		t.Fatalf("block %+v", r)
	}
	if r.Body() != strings.Join(want, "\n")+"\n" {
		t.Fatal("body")
	}
	// Column 9 of body line 1 ("${GHEXPR}" at byte 8, after two spaces and
	// "echo ") maps to the expression's own column in the file; a column
	// after it maps past the expression's real length.
	if got := r.FileCol(1, 7); got != 10+6+1 {
		t.Fatalf("col before the expression: %d", got)
	}
	if got := r.FileCol(1, 8); got != 10+7+1 {
		t.Fatalf("col at the expression: %d", got)
	}
	if got := r.FileCol(1, 12); got != 10+7+1 {
		t.Fatalf("col inside the expression: %d", got)
	}
	if got := r.FileCol(1, 17); got != 10+7+len("${{ x }}")+1 {
		t.Fatalf("col after the expression: %d", got)
	}
	if got := r.FileCol(1, 19); got != 10+7+len("${{ x }}")+2+1 {
		t.Fatalf("col at the second expression: %d", got)
	}
	if got := r.FileCol(9, 3); got != 3 {
		t.Fatalf("col out of range: %d", got)
	}
	if got := runs[1]; got.Block || !reflect.DeepEqual(got.Lines, []string{"echo ${GHEXPR}"}) || got.First != 13 {
		t.Fatalf("single %+v", got)
	}
	if got := runs[2]; got.Skip != "" || !reflect.DeepEqual(got.Lines, []string{"printf '%s' \"a\tb\""}) {
		t.Fatalf("double-quoted decoded by the parser: %+v", got)
	}
	if got := runs[3]; !reflect.DeepEqual(got.Lines, []string{"it's"}) {
		t.Fatalf("single-quoted %+v", got)
	}
	// A value the parser decodes to several lines, or one whose source
	// spans lines, is read as decoded, every line on the value's line.
	if got := runs[4]; got.Skip != "" || !reflect.DeepEqual(got.Lines, []string{"a", "b"}) || !got.NoCol || got.FileLine(1, 1) != 16 {
		t.Fatalf("decoded to two lines: %+v", got)
	}
	if got := runs[5]; got.Skip != "" || !reflect.DeepEqual(got.Lines, []string{"plain continued"}) || !got.NoCol || got.FileLine(0, 7) != 17 {
		t.Fatalf("plain continued: %+v", got)
	}
	if runs[6].Skip == "" || runs[7].Skip == "" {
		t.Fatalf("skips: %q %q", runs[6].Skip, runs[7].Skip)
	}
	// CR-only and CRLF line ends cut the same body.
	for _, eol := range []string{"\r\n", "\r"} {
		g := read(strings.ReplaceAll(src, "\n", eol))
		rr, err := Extract(g)
		if err != nil || !reflect.DeepEqual(rr[0].Lines, want) || rr[0].First != 7 {
			t.Fatalf("%q: %v %+v", eol, err, rr)
		}
	}
	// Chomping indicators keep the bytes; a trailing blank line is not body.
	g := read("on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - run: |-\n          a\n\n      - run: |+\n          b\n\n")
	rr, err := Extract(g)
	if err != nil || !reflect.DeepEqual(rr[0].Lines, []string{"a"}) || !reflect.DeepEqual(rr[1].Lines, []string{"b"}) {
		t.Fatalf("chomping: %v %+v", err, rr)
	}
	// A blank body line keeps the spaces right of the indentation.
	g = read("on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - run: |\n          a\n             \n          b\n")
	rr, err = Extract(g)
	if err != nil || !reflect.DeepEqual(rr[0].Lines, []string{"a", "   ", "b"}) {
		t.Fatalf("blank line: %v %q", err, rr[0].Lines)
	}
	// A file out of the shape has no run.
	if rr, err := Extract(read("x:\n  run: >\n    a\n")); rr != nil || err != nil {
		t.Fatal("out of shape")
	}
	// A directive on a line of its own is kept as written and recorded; a
	// trailing one (which ShellCheck refuses) is neutralised and recorded
	// apart; the cut still holds.
	g = read("on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - run: |\n          # shellcheck disable=SC2164\n          cd x  # shellcheck disable=all\n          echo '# shellcheck is fine'\n")
	rr, err = Extract(g)
	if err != nil || !reflect.DeepEqual(rr[0].Directives, []int{7}) || !reflect.DeepEqual(rr[0].Trailing, []int{8}) ||
		rr[0].Lines[0] != "# shellcheck disable=SC2164" || rr[0].Lines[1] != "cd x  # shellchecq disable=all" {
		t.Fatalf("directives %v %v %q %v", rr[0].Directives, rr[0].Trailing, rr[0].Lines, err)
	}
}

func TestExtractRefusals(t *testing.T) {
	wrap := func(step string) string {
		return "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n" + step
	}
	cases := []struct {
		name, src, want string
		line            int
	}{
		{"unbalanced", wrap("      - run: |\n          echo ok\n          echo ${{ x\n"), "an unbalanced ${{", 8},
		{"unbalanced folded", wrap("      - run: >\n          echo ok\n\n          echo ${{ x\n"), "an unbalanced ${{", 9},
		{"job defaults shell mapping", wrap("")[:len(wrap(""))-11] + "    defaults:\n      run:\n        shell: {a: b}\n    steps: []\n", "defaults.run.shell", 7},
		{"rejected", ".github/workflows/x.yml", "the parser says", 0},
	}
	for _, tc := range cases {
		f := read(tc.src)
		if tc.name == "rejected" {
			f = Read(tc.src, []byte("on: [\n"))
		}
		_, err := Extract(f)
		var r *Refusal
		if !errors.As(err, &r) {
			t.Errorf("%s: %v, want a refusal", tc.name, err)
			continue
		}
		if !strings.Contains(r.Construct, tc.want) || (tc.line > 0 && r.Line != tc.line) {
			t.Errorf("%s: %v (line %d), want %q at %d", tc.name, r, r.Line, tc.want, tc.line)
		}
	}
}

func TestDefaultsRun(t *testing.T) {
	src := `on: push
defaults:
  run:
    shell: sh
    working-directory: web
jobs:
  a:
    runs-on: windows-latest
    steps:
      - run: |
          echo
      - shell: pwsh
        working-directory: other
        run: |
          echo
  b:
    runs-on: ubuntu-latest
    defaults:
      run:
        shell: bash -e {0}
    steps:
      - run: |
          echo
  c:
    runs-on: ubuntu-latest
    defaults:
      run:
        working-directory: ${{ inputs.dir }}
    steps:
      - run: |
          echo
`
	runs, err := Extract(read(src))
	if err != nil {
		t.Fatal(err)
	}
	got := func(i int) []any {
		r := runs[i]
		return []any{r.Res, r.Dialect, r.WorkDir, r.HasWorkDir}
	}
	want := [][]any{
		{Shell, "sh", "web", true},
		{OtherShell, "", "other", true},
		{Shell, "bash", "web", true},
		{Shell, "sh", "${{ inputs.dir }}", true},
	}
	for i := range want {
		if !reflect.DeepEqual(got(i), want[i]) {
			t.Errorf("run %d: %v, want %v", i, got(i), want[i])
		}
	}
	// No defaults: the runner decides.
	runs, _ = Extract(read("on: push\ndefaults:\n  other: 1\njobs:\n  a:\n    runs-on: windows-latest\n    steps:\n      - run: |\n          echo\n"))
	if runs[0].Res != WindowsRun || runs[0].HasWorkDir {
		t.Fatalf("%+v", runs[0])
	}
	// An empty step shell falls back to the defaults.
	runs, _ = Extract(read("on: push\ndefaults: {run: {shell: dash}}\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: |\n          echo\n        shell: ''\n"))
	if runs[0].Dialect != "dash" {
		t.Fatalf("%+v", runs[0])
	}
}

func TestRunnerOf(t *testing.T) {
	cases := []struct {
		runsOn string
		want   Runner
	}{
		{"ubuntu-latest", NonWindows},
		{"windows-latest", Windows},
		{"Windows", Windows},
		{"\"windows-2022\"", Windows},
		{"[self-hosted, \"Windows\"]", Windows},
		{"[self-hosted, win-2022]", NonWindows},
		{"\n      - self-hosted\n      - windows", Windows},
		{"{group: big}", NonWindows},
		{"{group: Windows-Builders}", Windows},
		{"{group: ''}", Unreadable},
		{"{group: [a]}", Unreadable},
		{"{group: big, labels: [windows-x]}", Windows},
		{"{group: big, labels: linux}", NonWindows},
		{"\n      group: g\n      labels:\n        - windows", Windows},
		{"${{ matrix.os }}", Unreadable},
		{"[ubuntu, \"${{ x }}\"]", Unreadable},
		{"[]", Unreadable},
		{"''", Unreadable},
		{"", Unreadable},
		{"[~, linux]", NonWindows},
	}
	for _, tc := range cases {
		f := read("on: push\njobs:\n  a:\n    runs-on: " + tc.runsOn + "\n")
		if f.Rejected != nil {
			t.Fatalf("%q: %v", tc.runsOn, f.Rejected)
		}
		if got, _ := RunnerOf(f.Jobs[0]); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.runsOn, got, tc.want)
		}
	}
	if r, why := RunnerOf(read("on: push\njobs:\n  a:\n    steps: []\n").Jobs[0]); r != Unreadable || !strings.Contains(why, "no runs-on") {
		t.Fatal("absent runs-on")
	}
	if r, _ := RunnerOf(nil); r != Unreadable {
		t.Fatal("nil job")
	}
}

func TestResolveDialect(t *testing.T) {
	cases := []struct {
		shell, runsOn string
		res           Res
		dialect       string
		flags         string
	}{
		{"", "ubuntu-latest", Shell, "bash", "-e"},
		{"bash --noprofile {0}", "windows-latest", Shell, "bash", ""},
		{"bash", "x", Shell, "bash", "-eo pipefail"},
		{"bash --noprofile --norc -eo pipefail {0}", "x", Shell, "bash", "-eo pipefail"},
		{"bash -x -o pipefail -e {0}", "x", Shell, "bash", "-xeo pipefail"},
		{"bash -o pipefail -o posix {0}", "x", Shell, "bash", "-o pipefail -o posix"},
		{"bash -e {0} -x", "x", Shell, "bash", "-e"},
		{"sh", "x", Shell, "sh", "-e"},
		{"sh -u {0}", "x", Shell, "sh", "-u"},
		{"dash", "x", Shell, "dash", ""},
		{"ksh", "x", Shell, "ksh", ""},
		{"'sh'", "x", Shell, "sh", "-e"},
		{"pwsh", "ubuntu-latest", OtherShell, "", ""},
		{"python {0}", "x", OtherShell, "", ""},
		{"/bin/bash", "x", OtherShell, "", ""},
		{"", "windows-latest", WindowsRun, "", ""},
		{"", "${{ x }}", NoDialect, "", ""},
	}
	for _, tc := range cases {
		sh := ""
		if tc.shell != "" {
			sh = "        shell: " + tc.shell + "\n"
		}
		f := read("on: push\njobs:\n  a:\n    runs-on: " + tc.runsOn + "\n    steps:\n      - run: |\n          x\n" + sh)
		runs, err := Extract(f)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%+v: %v", tc, err)
		}
		if runs[0].Res != tc.res || runs[0].Dialect != tc.dialect || runs[0].Flags != tc.flags {
			t.Errorf("%+v: got %v %q %q", tc, runs[0].Res, runs[0].Dialect, runs[0].Flags)
		}
	}
	runs, _ := Extract(read("runs:\n  using: composite\n  steps:\n    - run: |\n        x\n"))
	if runs[0].Res != NoDialect || !strings.Contains(runs[0].Why, "no enclosing job") {
		t.Fatalf("action step %+v", runs[0])
	}
}

func TestGhCalls(t *testing.T) {
	cases := []struct {
		line string
		want []Call // Line is always 1 here
	}{
		{"gh release create v1", []Call{{1, 0, false}}},
		{"gh release create --repo o/r v1", []Call{{1, 0, true}}},
		{"gh release create --repo=o/r v1", []Call{{1, 0, true}}},
		{"gh pr view -R o/r 1", []Call{{1, 0, true}}},
		{"gh pr x --repo o/r; gh pr y", []Call{{1, 0, true}, {1, 0, false}}},
		{"gh pr x; echo --repo", []Call{{1, 0, false}}},
		{"gh pr x ) --repo", []Call{{1, 0, false}}},
		{"if ! gh release view v1; then exit; fi", []Call{{1, 0, false}}},
		{"x=$(gh pr view)", []Call{{1, 0, false}}},
		{"echo \"$(gh pr view)\"", []Call{{1, 0, false}}},
		{"echo `gh pr view`", []Call{{1, 0, false}}},
		{"GH_TOKEN=t gh pr merge", []Call{{1, 0, false}}},
		{"make && gh release upload v1 a", []Call{{1, 0, false}}},
		{"cat x | gh pr create -F -", []Call{{1, 0, false}}},
		{"echo hi # ; gh pr status", []Call{{1, 0, false}}},
		{"gh release create x # --repo o/r", []Call{{1, 0, false}}},
		{"(echo) gh x", nil},
		{"echo ghost", nil},
		{"git push origin gh-pages", nil},
		{"echo gh", nil},
		{"ghq get x", nil},
		{"gh.exe x", nil},
		{"sudo apt-get install -y gh", nil},
		{"env -u X echo gh", nil},
		// Wrappers, with their options, by path, quoted.
		{"sudo gh x", []Call{{1, 0, false}}},
		{"sudo -E gh x", []Call{{1, 0, false}}},
		{"sudo -u bob gh x", []Call{{1, 0, false}}},
		{"env -u X gh x", []Call{{1, 0, false}}},
		{"env A=1 B=2 gh x", []Call{{1, 0, false}}},
		{"env --unset X -i gh x", []Call{{1, 0, false}}},
		{"xargs gh issue close", []Call{{1, 0, false}}},
		{"xargs -n 1 -P4 gh issue close", []Call{{1, 0, false}}},
		{"echo 1 | xargs -I{} gh x {}", []Call{{1, 0, false}}},
		{"timeout 60 gh x", []Call{{1, 0, false}}},
		{"timeout -s KILL 5m gh x", []Call{{1, 0, false}}},
		{"timeout -k 5 60 gh x", []Call{{1, 0, false}}},
		{"nohup gh x", []Call{{1, 0, false}}},
		{"nice -n 5 gh x", []Call{{1, 0, false}}},
		{"stdbuf -o L gh x", []Call{{1, 0, false}}},
		{"exec gh x", []Call{{1, 0, false}}},
		{"exec -a name gh x", []Call{{1, 0, false}}},
		{"command gh x", []Call{{1, 0, false}}},
		{"time gh x", []Call{{1, 0, false}}},
		{"sudo env -u X timeout 9 gh x", []Call{{1, 0, false}}},
		{"/usr/bin/gh x", []Call{{1, 0, false}}},
		{"./gh x", []Call{{1, 0, false}}},
		{"\"gh\" x", []Call{{1, 0, false}}},
		{"'gh' x", []Call{{1, 0, false}}},
		{"\\gh x", []Call{{1, 0, false}}},
		{"\"/usr/local/bin/gh\" release view", []Call{{1, 0, false}}},
	}
	for _, tc := range cases {
		got := ghCalls(logical{text: tc.line, first: 1, offs: []int{0}})
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.line, got, tc.want)
		}
	}
	lg := joinLogical([]Line{{5, "gh release create \\"}, {6, "  --repo o/r v1"}, {7, "  # gh x"}, {8, "echo; \\"}, {9, "gh pr"}, {10, "gh x \\"}})
	var calls []Call
	for _, l := range lg {
		calls = append(calls, ghCalls(l)...)
	}
	if want := []Call{{5, 0, true}, {9, 0, false}, {10, 0, false}}; !reflect.DeepEqual(calls, want) {
		t.Fatalf("continuations: %v, want %v", calls, want)
	}
	if commandName(`"/a/b/gh"`) != "gh" || commandName("gh") != "gh" {
		t.Fatal("commandName")
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
		{"sh -c", nil},
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
		{"scripts/`x`.sh", nil},
		{"${GHEXPR}/x.sh", nil},
		{"bash", nil},
		{"FOO=1", nil},
		{"//x.sh", nil},
	}
	for _, tc := range cases {
		if got := ScriptTokens(tc.line); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestUsesRefsAndPinned(t *testing.T) {
	src := "jobs:\n  a:\n    uses: o/r/.github/workflows/x.yml@v1\n  b:\n    steps:\n      - uses: \"a/b@" + strings.Repeat("a", 40) + "\" # v1\n      # - uses: actions/cache@v4\n      ## uses: c/d@main\n      - {uses: e/f@v2, with: {x: 1}}\n      - run: |\n          # uses: not/a@key\n          uses: not/b@key\n      - uses:\n      - uses: &u g/h@v3 trailing\n      - uses: *u\n      #   - {uses: i/j@v5}\n      # uses: 'k/l@v6' # note\n      # uses: [broken\n      # nothing: here\n      # uses: # v1\n"
	f := read(src)
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	got := UsesRefs(f)
	want := []UsesLine{
		{3, "o/r/.github/workflows/x.yml@v1", false},
		{6, "a/b@" + strings.Repeat("a", 40), false},
		{7, "actions/cache@v4", true},
		{8, "c/d@main", true},
		{9, "e/f@v2", false},
		{14, "g/h@v3", false},
		{15, "g/h@v3", false},
		{16, "i/j@v5", true},
		{17, "k/l@v6", true},
		{18, "[broken", true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	pins := []struct {
		ref string
		ok  bool
		why string
	}{
		{"a/b@" + strings.Repeat("A", 40), true, ""},
		{"./local", true, ""},
		{"$/.github/actions/setup", true, ""},
		{"$/.github/workflows/reusable.yml", true, ""},
		{"docker://x@sha256:" + strings.Repeat("f", 64), true, ""},
		{"docker://x:1", false, "docker image"},
		{"docker://x@sha256:abc", false, "docker image"},
		{"a/b@v1", false, "is pinned to @v1"},
		{"a/b@", false, "is pinned to nothing"},
		{"a/b", false, "has no @"},
		{"a/b@" + strings.Repeat("g", 40), false, "not a 40-hex"},
		{"a/b@" + strings.Repeat("a", 39), false, "not a 40-hex"},
		{"${{ x }}", false, "expression"},
	}
	for _, p := range pins {
		ok, why := Pinned(p.ref)
		if ok != p.ok || !strings.Contains(why, p.why) {
			t.Errorf("%q: %v %q", p.ref, ok, why)
		}
	}
	if RefName("a/b@c@d") != "a/b" || RefName("x") != "x" {
		t.Fatal("RefName")
	}
}

func TestReadPerm(t *testing.T) {
	cases := []struct {
		v        string
		ok       bool
		all      bool
		contents bool
		grants   bool
	}{
		{"{contents: read}", true, false, true, true},
		{"\n    contents: write\n    id-token: none", true, false, true, true},
		{"{contents: none}", true, false, false, false},
		{"{pull-requests: write}", true, false, false, true},
		{"{}", true, false, false, false},
		{"", true, false, false, false},
		{"read-all", true, true, true, true},
		{"write-all", true, true, true, true},
		{"'read-all'", true, true, true, true},
		{"${{ x }}", false, false, false, false},
		{"{contents: admin}", false, false, false, false},
		{"{contents: [read]}", false, false, false, false},
		{"[contents]", false, false, false, false},
		{"read", false, false, false, false},
		{"''", false, false, false, false},
	}
	for _, tc := range cases {
		f := read("permissions: " + tc.v + "\non: push\njobs: {}\n")
		if f.Rejected != nil {
			t.Fatalf("%q: %v", tc.v, f.Rejected)
		}
		p, err := ReadPerm(f, f.Permissions)
		if (err == nil) != tc.ok {
			t.Errorf("%q: err %v", tc.v, err)
			continue
		}
		if err != nil {
			if !strings.Contains(err.Error(), "w.yml:1: cannot read a permissions: value") {
				t.Errorf("%q: %v", tc.v, err)
			}
			continue
		}
		if !p.Present || p.Line != 1 || p.All != tc.all || p.Contents() != tc.contents || p.Grants() != tc.grants {
			t.Errorf("%q: %+v", tc.v, p)
		}
	}
	f := read("a: &r read\npermissions: {contents: *r}\n")
	if p, err := ReadPerm(f, f.Permissions); err != nil || !p.Contents() {
		t.Fatalf("aliased level: %+v %v", p, err)
	}
	f = read("a: &p {contents: read}\npermissions: *p\n")
	if _, err := ReadPerm(f, f.Permissions); err == nil {
		t.Fatal("alias accepted")
	}
	if p, err := ReadPerm(f, nil); err != nil || p.Present {
		t.Fatal("absent")
	}
}

func walkOf(src string) *Walked {
	return Walk(read(src), WalkOptions{Marker: "m-exempt", Words: []string{"cargo"}})
}

func TestWalkMarkers(t *testing.T) {
	src := `on: push
jobs:
  # m-exempt: job a is exempt
  a:
    runs-on: x
    steps:
      - run: gh api a
  b:
    runs-on: x
    steps:
      # m-exempt: the next step only
      - run: gh api b1
      - name: two
        # m-exempt: inside step two
        run: gh api b2
      - run: gh api b3
      # m-exempt: after the last step, before job c
  c:
    # m-exempt: among c's keys
    runs-on: x
    steps:
      - run: gh api c
  # m-exempt: job d, at the job column after job c's steps
  d:
    steps:
      - run: gh api d
      # m-exempt:
      # m-exempt: at the end
`
	w := walkOf(src)
	if !w.Jobs[0].Exempt || w.Jobs[0].ExemptLine != 3 || w.Jobs[1].Exempt || !w.Jobs[2].Exempt || w.Jobs[2].ExemptLine != 19 || !w.Jobs[3].Exempt || w.Jobs[3].ExemptLine != 23 {
		t.Fatalf("job exemptions: %v %v %v %v", w.Jobs[0].Exempt, w.Jobs[1].Exempt, w.Jobs[2].Exempt, w.Jobs[3].Exempt)
	}
	if len(w.Jobs[1].Calls) != 1 || w.Jobs[1].Calls[0].Line != 16 || w.Jobs[1].Calls[0].Step != 2 {
		t.Fatalf("b's calls: %+v", w.Jobs[1].Calls)
	}
	if !reflect.DeepEqual(w.Bare, []int{27}) || !reflect.DeepEqual(w.Dangling, []int{17, 28}) {
		t.Fatalf("bare %v dangling %v", w.Bare, w.Dangling)
	}
	// Before jobs: and with no jobs at all, a marker binds nothing.
	w = walkOf("on: push\n# m-exempt: nothing\njobs: {}\n")
	if !reflect.DeepEqual(w.Dangling, []int{2}) {
		t.Fatalf("dangling %v", w.Dangling)
	}
	// A marker's text is only read on a full-line comment.
	if _, ok := MarkerText("x # m-exempt: y", "m-exempt"); ok {
		t.Fatal("trailing marker read")
	}
	if r, ok := MarkerText("  #m-exempt:  why ", "m-exempt"); !ok || r != "why" {
		t.Fatal("marker")
	}
	if _, ok := MarkerText("# other: x", "m-exempt"); ok {
		t.Fatal("other comment read")
	}
	// No marker asked for: none read.
	if w := Walk(read(src), WalkOptions{}); w.Jobs[0].Exempt || len(w.Dangling) > 0 {
		t.Fatal("markers read without a marker")
	}
}

func TestWalkEvidence(t *testing.T) {
	src := `on: push
env: {GH_REPO: o/r}
jobs:
  a:
    runs-on: x
    env:
      GH_REPO: o/r
    steps:
      - uses: actions/checkout@v4
      - uses: 'actions/checkout@v4'
      - uses: actions/checkout-x@v1
      - run: |
          cargo build
          # cargo fmt
          echo cargo-deny
        env:
          GH_REPO: o/r
      - run: "echo a\ngh api x"
      - run: >
          gh api y
  b:
    runs-on: x
    steps:
      - run: echo ${{ secrets['GITHUB_TOKEN'] }}
  c:
    runs-on: x
    # uses github.token here
    steps: []
  d:
    uses: o/r/.github/workflows/x.yml@v1
    with:
      t: ${{ github['token'] }}
  e:
    runs-on: x
    steps:
      # m-exempt: drops the token
      - run: echo ${{ github.token }}
`
	w := walkOf(src)
	if !w.GHRepoWorkflow {
		t.Fatal("workflow GH_REPO")
	}
	a := w.Jobs[0]
	if !a.GHRepoJob || len(a.Checkouts) != 2 || a.Checkouts[1].Step != 1 || len(a.Uses) != 3 {
		t.Fatalf("a: %+v", a)
	}
	if len(a.Calls) != 2 || a.Calls[0].Line != 18 || a.Calls[0].Step != 4 || a.Calls[1].Line != 20 || !reflect.DeepEqual(a.StepRepo, []bool{false, false}) {
		t.Fatalf("a calls: %+v %v", a.Calls, a.StepRepo)
	}
	if !reflect.DeepEqual(a.Words, []Event{{13, 3, "cargo"}}) {
		t.Fatalf("words %+v", a.Words)
	}
	if a.TokenRef || !w.Jobs[1].TokenRef || !w.Jobs[2].TokenRef || !w.Jobs[3].TokenRef || w.Jobs[4].TokenRef {
		t.Fatalf("token refs: %v %v %v %v %v", a.TokenRef, w.Jobs[1].TokenRef, w.Jobs[2].TokenRef, w.Jobs[3].TokenRef, w.Jobs[4].TokenRef)
	}
	// An aliased run: value is read as the value it names.
	w = walkOf("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: &r gh api x\n  b:\n    runs-on: x\n    steps:\n      - run: *r\n      - run: &blk |\n          gh api y\n      - run: *blk\n")
	if len(w.Jobs[1].Calls) != 3 {
		t.Fatalf("aliased bodies: %+v", w.Jobs[1].Calls)
	}
	// No words asked: no word events.
	if w := Walk(read(src), WalkOptions{}); len(w.Jobs[0].Words) > 0 || len(w.Jobs[0].Uses) > 0 {
		t.Fatal("word events without words")
	}
	if BodyLines(read("a: 1\n"), &Entry{}) != nil {
		t.Fatal("empty entry has a body")
	}
}

func TestHasTokenRef(t *testing.T) {
	yes := []string{"${{ secrets.GITHUB_TOKEN }}", "secrets.github_token", "x github.token", "GITHUB.TOKEN",
		"secrets['GITHUB_TOKEN']", "secrets[ \"github_token\" ]", "github['token']", "(github.token)"}
	no := []string{"secrets.GITHUB_TOKENS", "mysecrets.GITHUB_TOKEN", "github.tokens", "a.github.token", "secrets['NPM_TOKEN']", "github['token_x']", "github_token"}
	for _, s := range yes {
		if !HasTokenRef(s) {
			t.Errorf("%q not a token ref", s)
		}
	}
	for _, s := range no {
		if HasTokenRef(s) {
			t.Errorf("%q read as a token ref", s)
		}
	}
}

// The hand matcher answers as the expression: over the spellings above,
// the long s and the Kelvin sign (which (?i) folds to s and k), and random
// strings over the words and letters the pattern is made of.
func TestHasTokenRefByHandAgreesWithThePattern(t *testing.T) {
	cases := []string{"github.to\u212aen", "secrets.GITHUB_TO\u212aEN", "secrets.github_toke", "", "tokn", "x github.token",
		"\u017fecrets.github_token", "github[\v'token']", "github [\n\t'token\"\f] ", "secrets[\"GITHUB_TOKEN'].x", "xgithub.token", ".github.token",
		"github.token_", "github.token-", "github.token\x00", "secrets['github_token']\x00", "secrets.github_tokenx", "github['token'", "github['token]", "github[token]", "github.token.x"}
	alphabet := []byte("tokenTOKENgithubsecrets_.[]'\" \t\n\vx-9")
	// Words the pattern is made of, so random strings reach its matches.
	words := []string{"secrets", "Secrets", "github", "GitHub", ".github_token", ".GITHUB_TOKEN", ".token", ".Token", "github_token", "token",
		"[", "]", "'", "\"", " ", "\t", "x", "_", ".", "${{ ", " }}"}
	seed := uint32(1)
	for i := 0; i < 20000; i++ {
		n := int(seed % 7)
		var b []byte
		for j := 0; j < n; j++ {
			seed = seed*1664525 + 1013904223
			if seed>>29 != 0 {
				b = append(b, words[seed>>24%uint32(len(words))]...)
			} else {
				b = append(b, alphabet[seed>>24%uint32(len(alphabet))])
			}
		}
		seed = seed*1664525 + 1013904223
		cases = append(cases, string(b))
	}
	matched := 0
	for _, s := range cases {
		got, want := HasTokenRef(s), tokenPat.Get().MatchString(s)
		if got != want {
			t.Errorf("HasTokenRef(%q) = %v, the pattern says %v", s, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 200 {
		t.Errorf("only %d of %d cases match the pattern; the sample does not reach its language", matched, len(cases))
	}
	if !HasTokenRef("github.to\u212aen") {
		t.Error("the Kelvin sign's spelling was filtered out")
	}
}

func TestEnvKeys(t *testing.T) {
	f := read("env: {A: 1, 'B': 2}\nx: ${{ y }}\n")
	top := entries(f.root)
	if got := EnvKeys(top[0]); !reflect.DeepEqual(got, []string{"A", "B"}) {
		t.Fatal(got)
	}
	if EnvKeys(top[1]) != nil || EnvKeys(nil) != nil {
		t.Fatal("scalar env")
	}
	if hasKey([]string{"A"}, "B") || !hasKey([]string{"A"}, "A") {
		t.Fatal("hasKey")
	}
}

func TestNeutralise(t *testing.T) {
	cases := []struct{ in, out string }{
		{"# shellcheck disable=SC2086", "# shellchecq disable=SC2086"},
		{"#shellcheck disable=all", "#shellchecq disable=all"},
		{"cd x # ShellCheck disable=SC2164", "cd x # shellchecq disable=SC2164"},
		{"  #\tSHELLCHECK source=x", "  #\tshellchecq source=x"},
		{"a#b # shellcheck shell=sh # shellcheck disable=x", "a#b # shellchecq shell=sh # shellchecq disable=x"},
		{"# shellcheck", "# shellchecq"},
	}
	for _, tc := range cases {
		got, ok := neutralise(tc.in)
		if got != tc.out || !ok || len(got) != len(tc.in) {
			t.Errorf("%q: %q %v, want %q", tc.in, got, ok, tc.out)
		}
	}
	for _, s := range []string{"echo shellcheck disable=all", "echo a#shellcheck disable=x", "# shellchecks x", "x # y", "#", "echo '#'"} {
		if got, ok := neutralise(s); ok || got != s {
			t.Errorf("%q: rewritten to %q", s, got)
		}
	}
}

func TestScalarEnd(t *testing.T) {
	f := read("a: \"x\n  y\"\nb: 'p''\n  q'\nc: plain\n  more words\n# c\nd: |\n  1\n\n  2\n\ne: >\n  z\n")
	want := map[int]bool{2: true, 4: true, 6: true, 9: true, 10: true, 11: true, 14: true}
	for l := 1; l <= f.Lines(); l++ {
		if f.body[l] != want[l] {
			t.Errorf("line %d: body %v", l, f.body[l])
		}
	}
	if !f.IsComment(7) {
		t.Fatal("comment after a plain scalar")
	}
}

func TestSingleLineRead(t *testing.T) {
	cases := []struct {
		value string
		line  string
		col   int // FileCol of the body's byte 0 (1-based), 0 when NoCol
		dirs  int
	}{
		{"echo $(ls)", "echo $(ls)", 14, 0},
		{"'echo $(ls)'", "echo $(ls)", 15, 0},
		{`"echo $(ls)"`, "echo $(ls)", 15, 0},
		{`"echo \"x\""`, `echo "x"`, 0, 0},
		{"echo ${{ github.sha }} $(ls)", "echo ${GHEXPR} $(ls)", 14, 0},
		{`"cd x # shellcheck disable=SC2164"`, "cd x # shellchecq disable=SC2164", 15, 1},
	}
	for _, tc := range cases {
		f := read("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: " + tc.value + "\n")
		runs, err := Extract(f)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%q: %v", tc.value, err)
		}
		r := runs[0]
		if r.Block || r.Skip != "" || r.First != 6 || len(r.Lines) != 1 || r.Lines[0] != tc.line || len(r.Directives)+len(r.Trailing) != tc.dirs {
			t.Errorf("%q: %+v", tc.value, r)
			continue
		}
		if tc.col == 0 {
			if !r.NoCol {
				t.Errorf("%q: want no column", tc.value)
			}
			continue
		}
		if r.NoCol || r.FileCol(0, 1) != tc.col {
			t.Errorf("%q: column %d (NoCol %v), want %d", tc.value, r.FileCol(0, 1), r.NoCol, tc.col)
		}
	}
	// A column past an expression maps back across it.
	runs, _ := Extract(read("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo ${{ github.sha }} $(ls)\n"))
	if c := runs[0].FileCol(0, len("echo ${GHEXPR} ")+1); c != 14+len("echo ${{ github.sha }} ") {
		t.Errorf("column after an expression = %d", c)
	}
}

func TestScript(t *testing.T) {
	r := &Run{Lines: []string{"#!/bin/bash", "cd x"}, Flags: "-eo pipefail"}
	if got, off := r.Script(); got != "set -eo pipefail\n# /bin/bash\ncd x\n" || off != 1 {
		t.Errorf("Script() = %q, %d", got, off)
	}
	r = &Run{Lines: []string{"cd x"}}
	if got, off := r.Script(); got != "cd x\n" || off != 0 {
		t.Errorf("Script() = %q, %d", got, off)
	}
}

// GitHub resolves an action's owner and repository whatever their letter
// case, so `Actions/Checkout@<sha>` is the checkout step: the walk counts
// it and CheckoutPath places it, or a job checking out the repository
// under another spelling reads as inert and skips the permissions rule.
func TestCheckoutSpelledInAnyCase(t *testing.T) {
	const sha = "11bd71901bbe5b1630ceea73d27597364c9af683"
	for _, name := range []string{"actions/checkout", "Actions/Checkout", "ACTIONS/CHECKOUT"} {
		src := "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: " + name + "@" + sha + "\n        with:\n          path: src\n"
		f := read(src)
		w := Walk(f, WalkOptions{})
		if len(w.Jobs) != 1 || len(w.Jobs[0].Checkouts) != 1 {
			t.Errorf("%s: the walk counts %+v checkouts, want 1", name, w.Jobs)
			continue
		}
		if at, own, ok := CheckoutPath(f.Jobs[0].Steps[0]); !ok || !own || at != "src" {
			t.Errorf("%s: CheckoutPath = %q %v %v, want src true true", name, at, own, ok)
		}
	}
	// Another action that merely contains the name is not a checkout.
	w := Walk(read("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: actions/checkout-extra@"+sha+"\n"), WalkOptions{})
	if len(w.Jobs[0].Checkouts) != 0 {
		t.Errorf("actions/checkout-extra counted as a checkout")
	}
}
