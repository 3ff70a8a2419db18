package gates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// The regression cases of the workflow reader's rewrite: each spelling the
// line reader read as nothing (so the gate printed clean) and each
// detection hole, held at the gate.

const releaseFlowSteps = "name: t\non: push\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps: [{run: gh release create v1}]\n"

func TestGhRepoSpellings(t *testing.T) {
	one := func(s string) map[string]string { return map[string]string{".github/workflows/release.yml": s} }
	calls := func(run string) map[string]string {
		return one("name: t\non: push\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: " + run + "\n")
	}
	miss := "job r calls gh with no repository context"
	runActionCases(t, checkActionGhRepo, "check-action-gh-repo", []actionCase{
		{name: "flow steps", files: one(releaseFlowSteps), code: 1, want: []string{"release.yml:6: job release calls gh"}},
		{name: "flow steps over lines", files: one("name: t\non: push\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps: [\n      {uses: actions/setup-node@v4},\n      {run: gh release create v1}\n    ]\n"), code: 1,
			want: []string{"release.yml:8: job release calls gh"}},
		{name: "flow jobs", files: one("on: push\njobs: {release: {runs-on: ubuntu-latest, steps: [{run: gh release create v1}]}}\n"), code: 1, want: []string{"job release calls gh"}},
		{name: "json workflow", files: one(`{"on": "push", "jobs": {"release": {"runs-on": "ubuntu-latest", "steps": [{"run": "gh release create v1"}]}}}`), code: 1,
			want: []string{"release.yml:1: job release calls gh"}},
		{name: "json workflow, checkout first", files: one(`{"on": "push", "jobs": {"release": {"runs-on": "ubuntu-latest", "steps": [{"uses": "actions/checkout@` + sha + `"}, {"run": "gh release create v1"}]}}}`), code: 0},
		{name: "byte-order mark before on:", files: one("\ufeffon: push\n" + release), code: 1, want: []string{"release.yml:6: job release calls gh"}},
		{name: "cr-only line ends", files: one(strings.ReplaceAll(wf(release), "\n", "\r")), code: 1, want: []string{"release.yml:7: job release calls gh"}},
		{name: "anchor alone on the dash line", files: one(wf("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - &setup\n        name: release\n        run: gh release create v1\n")), code: 1,
			want: []string{"release.yml:9: " + miss}},
		{name: "steps by alias", files: one(wf("jobs:\n  s:\n    runs-on: ubuntu-latest\n    steps: &st\n      - run: gh pr list\n  r:\n    runs-on: ubuntu-latest\n    steps: *st\n")), code: 1,
			want: []string{"release.yml:7: job s calls gh", "release.yml:7: job r calls gh"}},
		{name: "double-quoted escape opens a gh line", files: calls(`"echo start\ngh release create v1"`), code: 1, want: []string{"release.yml:7: " + miss}},
		{name: "gh by absolute path", files: calls("/usr/bin/gh release create v1"), code: 1, want: []string{miss}},
		{name: "sudo -E gh", files: calls("sudo -E gh release create v1"), code: 1, want: []string{miss}},
		{name: "env -u X gh", files: calls("env -u X gh release create v1"), code: 1, want: []string{miss}},
		{name: "xargs gh", files: calls("echo v1 | xargs gh release create"), code: 1, want: []string{miss}},
		{name: "timeout 60 gh", files: calls("timeout 60 gh release create v1"), code: 1, want: []string{miss}},
		{name: "quoted gh", files: calls(`'"gh" release create v1'`), code: 1, want: []string{miss}},
		{name: "gh the package is not a call", files: calls("sudo apt-get install -y gh"), code: 0},
		{name: "dangling marker exempts nothing", files: one(wf("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release create v1\n      # gh-repo-exempt: nothing follows\n")), code: 1,
			want: []string{"release.yml:8: # gh-repo-exempt: precedes no step and no job, so it exempts nothing", "release.yml:7: " + miss, "help: put the marker on the line before the step"}},
		{name: "marker before the next job binds nothing at the step column", files: one(wf("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release create v1\n      # gh-repo-exempt: the step column\n  q:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh pr list\n")), code: 1,
			want: []string{"release.yml:8: # gh-repo-exempt: precedes no step", "job r calls gh", "job q calls gh"}},
		{name: "tab indentation is a finding", files: one("name: t\non: push\njobs:\n\trelease:\n\t\truns-on: ubuntu-latest\n"), code: 1,
			want: []string{"release.yml:4: cannot read the file as YAML: the parser says", "(GitHub loads this file)", "help: make the listed file valid YAML"}},
		{name: "unparsable yaml outside the shape is skipped", files: map[string]string{"notes.yml": "a: [\n", ".github/workflows/release.yml": wf("jobs:\n  r:\n    runs-on: x\n    steps:\n      - run: echo\n")}, code: 0,
			want: []string{"; 1 unparseable YAML file skipped (GitHub loads none of them)"}},
	})
}

func TestPermissionsSpellings(t *testing.T) {
	one := func(s string) map[string]string { return map[string]string{"ci.yml": s} }
	runActionCases(t, checkActionPermissions, "check-action-permissions", []actionCase{
		{name: "token in index syntax", files: one(wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n        env:\n          T: ${{ secrets['GITHUB_TOKEN'] }}\n")), code: 1,
			want: []string{"ci.yml:4: job b references the GitHub token and declares no scope"}},
		{name: "github token in index syntax", files: one(wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n        with:\n          t: ${{ github['token'] }}\n")), code: 1,
			want: []string{"job b references the GitHub token"}},
		{name: "flow checkout", files: one(wf("jobs:\n  b: {runs-on: ubuntu-latest, steps: [{uses: actions/checkout@" + sha + "}]}\n")), code: 1,
			want: []string{"job b checks out the repository"}},
		{name: "uses value on the next line", files: one(wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses:\n          actions/checkout@" + sha + "\n")), code: 1,
			want: []string{"job b checks out the repository"}},
		{name: "quoted keys", files: one("\"name\": t\n\"on\": push\n\"jobs\":\n  \"b\":\n    'runs-on': ubuntu-latest\n    \"steps\":\n      - \"uses\": actions/checkout@" + sha + "\n"), code: 1,
			want: []string{"ci.yml:4: job b checks out"}},
		{name: "dangling marker keeps the job armed", files: one(wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@" + sha + "\n      # action-permissions-exempt: trailing\n")), code: 1,
			want: []string{"ci.yml:8: # action-permissions-exempt: precedes no step and no job", "job b checks out"}},
	})
}

func TestPinningSpellings(t *testing.T) {
	one := func(s string) map[string]string { return map[string]string{".github/workflows/ci.yml": s} }
	runActionCases(t, checkActionPinning, "check-action-pinning", []actionCase{
		{name: "flow step", files: one(wf("jobs:\n  b:\n    steps: [{uses: actions/checkout@v4}]\n")), code: 1, want: []string{"ci.yml:5: uses: actions/checkout@v4"}},
		{name: "multi-line flow", files: one(wf("jobs:\n  b:\n    steps: [\n      {\n        uses: actions/checkout@v4\n      }]\n")), code: 1, want: []string{"ci.yml:7: uses: actions/checkout@v4"}},
		{name: "json", files: one(`{"on": "push", "jobs": {"b": {"steps": [{"uses": "actions/checkout@v4"}]}}}`), code: 1, want: []string{"ci.yml:1: uses: actions/checkout@v4"}},
		{name: "value on the next line", files: one(wf("jobs:\n  b:\n    steps:\n      - uses:\n          actions/checkout@v4\n")), code: 1, want: []string{"ci.yml:6: uses: actions/checkout@v4"}},
		{name: "alias", files: one(wf("jobs:\n  a:\n    steps:\n      - uses: &co actions/checkout@" + sha + "\n  b:\n    steps:\n      - uses: *co\n      - uses: &bad actions/cache@v4\n      - uses: *bad\n")), code: 1,
			want: []string{"ci.yml:10: uses: actions/cache@v4", "ci.yml:11: uses: actions/cache@v4"}},
		{name: "byte-order mark and cr", files: one("\ufeff" + strings.ReplaceAll(wf("jobs:\n  b:\n    steps:\n      - uses: actions/checkout@v4\n"), "\n", "\r")), code: 1,
			want: []string{"ci.yml:6: uses: actions/checkout@v4"}},
		{name: "tab-indented workflow is a finding", files: one("on: push\njobs:\n\tb:\n\t\tsteps:\n\t\t\t- uses: actions/checkout@v4\n"), code: 1, want: []string{"ci.yml:3: cannot read the file as YAML"}},
	})
}

func TestRunShellSpellings(t *testing.T) {
	ubuntu := func(steps string) map[string]string {
		return map[string]string{".github/workflows/ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n" + steps)}
	}
	runActionCases(t, checkActionRunShell, "check-action-run-shell", []actionCase{
		{name: "column after an expression", files: ubuntu("      - run: |\n          echo ${{ github.sha }}; echo $(ls)\n"), code: 1,
			want: []string{".github/workflows/ci.yml:8:40: run: block (bash -e): warning: Quote this to prevent word splitting. [SC2046]"}},
		{name: "a directive in the body is honoured", files: ubuntu("      - run: |\n          # shellcheck disable=all\n          echo $(ls)\n"), code: 0,
			want: []string{"; 1 ShellCheck directive honoured, silencing 1 finding"}},
		{name: "a directive atop the body covers the whole body", files: ubuntu("      - run: |\n          # pack the site\n          # shellcheck disable=SC2046\n          echo $(ls)\n          echo $(pwd)\n"), code: 0,
			want: []string{"; 1 ShellCheck directive honoured, silencing 2 findings"}},
		{name: "a directive before a later command covers that command", files: ubuntu("      - run: |\n          echo $(ls)\n          # shellcheck disable=SC2046\n          echo $(pwd)\n"), code: 1,
			want: []string{"ci.yml:8:16: run: block (bash -e): warning: Quote this"}, not: []string{"ci.yml:10:"}},
		{name: "a directive in a single-line value", files: ubuntu("      - run: '# shellcheck disable=all'\n"), code: 0,
			want: []string{"; 1 ShellCheck directive honoured, silencing 0 findings"}},
		{name: "trailing directive", files: ubuntu("      - run: |\n          echo $(ls) # ShellCheck disable=SC2046\n"), code: 1,
			want: []string{"ci.yml:8:16: run: block (bash -e): warning: Quote this"}, not: []string{"SC1126"}},
		{name: "shell directive changes no dialect", files: ubuntu("      - shell: sh\n        run: |\n          # shellcheck shell=bash\n          [[ -n \"$X\" ]] && echo y\n"), code: 1,
			want: []string{"SC3010"}},
		{name: "git revision braces are no literal-brace mistake", files: ubuntu("      - run: |\n          git rev-parse --abbrev-ref @{upstream}\n          git log --oneline @{u}..HEAD HEAD@{1} main@{2.days.ago}\n          git checkout @{-1}\n"), code: 0},
		{name: "a literal brace elsewhere is still SC1083", files: ubuntu("      - run: |\n          git rev-parse @{u}\n          echo {a\n"), code: 1,
			want: []string{"ci.yml:9:16: run: block (bash -e): warning: This { is literal.", "[SC1083]"}, not: []string{"ci.yml:8:"}},
		{name: "honoured directives are counted", files: ubuntu("      - run: |\n          # shellcheck source=/dev/null\n          . ./lib.sh\n"), code: 0,
			want: []string{"; 1 ShellCheck directive honoured, silencing 0 findings"}},
		{name: "a trailing directive is read as a comment and counted", files: ubuntu("      - run: |\n          cd build # shellcheck disable=SC2164\n"), code: 0,
			want: []string{"; 1 trailing ShellCheck directive read as a plain comment"}},
		{name: "cr-only block", files: map[string]string{"ci.yml": strings.ReplaceAll(wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo $(ls)\n"), "\n", "\r")}, code: 1,
			want: []string{"ci.yml:8:16: run: block (bash -e)"}},
		{name: "anchored step block", files: ubuntu("      - &s\n        run: |\n          echo $(ls)\n"), code: 1, want: []string{"ci.yml:9:16: run: block (bash -e)"}},
		{name: "flow workflow single-line values linted", files: map[string]string{"ci.yml": `{"on": "push", "jobs": {"b": {"runs-on": "ubuntu-latest", "steps": [{"run": "cd build"}, {"run": "echo $(ls)"}]}}}`}, code: 1,
			want: []string{"ci.yml:1:104: run: value (bash -e): warning: Quote this"}, not: []string{"SC2164"}},
		{name: "json workflow is in the subject", files: map[string]string{"ci.yml": `{"on": "push", "jobs": {"b": {"runs-on": "windows-latest", "steps": [{"run": "a\nb"}]}}}`}, code: 1,
			want: []string{"ci.yml:1: run: value has no shell: and the job runs on Windows"}},
		{name: "a value decoded to several lines is linted", files: map[string]string{"ci.yml": `{"on": "push", "jobs": {"b": {"runs-on": "ubuntu-latest", "steps": [{"run": "cd x\necho $(ls)"}]}}}`}, code: 1,
			want: []string{"ci.yml:1: run: value (bash -e): warning: Quote this to prevent word splitting. [SC2046]"}},
		{name: "tab-indented workflow is a finding", files: map[string]string{".github/workflows/ci.yml": "on: push\njobs:\n  b:\n    steps:\n\t- run: |\n          cd x\n"}, code: 1, want: []string{".github/workflows/ci.yml:5: cannot read the file as YAML"}},
		{name: "tab-indented file GitHub does not load is skipped", files: map[string]string{"ci.yml": "on: push\njobs:\n  b:\n    steps:\n\t- run: |\n          cd x\n"}, code: 0, want: []string{"1 unparseable YAML file skipped"}},
	})
}

func TestRunPathSpellings(t *testing.T) {
	base := map[string]string{"scripts/build.sh": "#!/bin/sh\n", "web/tools/x.sh": "#!/bin/sh\n"}
	with := func(doc string) map[string]string {
		m := map[string]string{"ci.yml": doc}
		for k, v := range base {
			m[k] = v
		}
		return m
	}
	runActionCases(t, checkActionRunPath, "check-action-run-path", []actionCase{
		{name: "workflow defaults working directory", files: with(wf("defaults:\n  run:\n    working-directory: web\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: tools/x.sh\n      - run: tools/gone.sh\n")), code: 1,
			want: []string{"ci.yml:11: run: invokes tools/gone.sh (working-directory: web)"}},
		{name: "job defaults over the workflow's", files: with(wf("defaults:\n  run:\n    working-directory: web\njobs:\n  b:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: .\n    steps:\n      - run: scripts/build.sh\n")), code: 0},
		{name: "defaults shell pwsh skips", files: with(wf("defaults:\n  run:\n    shell: pwsh\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: scripts/gone.sh\n")), code: 0,
			want: []string{"1 non-shell step"}},
		{name: "flow steps", files: with(wf("jobs:\n  b: {runs-on: ubuntu-latest, steps: [{run: scripts/gone.sh}]}\n")), code: 1, want: []string{"ci.yml:4: run: invokes scripts/gone.sh"}},
		{name: "double-quoted value decoded", files: with(wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: \"scripts/gone.sh\\tx\"\n")), code: 1, want: []string{"ci.yml:7: run: invokes scripts/gone.sh"}},
		// A continued line's first words are the previous command's
		// arguments (a resource named like a script); a command after a
		// separator on it is still read, and so is the line after an even
		// run of backslashes or a comment ending in one.
		{name: "argument on a continued line", files: with(wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          kubectl wait --for=condition=established \\\n            crd/templates.policy.sh\n          scripts/build.sh \\\n            web/gone.sh; scripts/gone.sh\n")), code: 1,
			want: []string{"ci.yml:11: run: invokes scripts/gone.sh"}, not: []string{"templates.policy.sh", "web/gone.sh"}},
		{name: "command after an even run of backslashes", files: with(wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo a\\\\\n          scripts/gone.sh\n          # note \\\n          tools/gone.sh\n")), code: 1,
			want: []string{"ci.yml:9: run: invokes scripts/gone.sh", "ci.yml:11: run: invokes tools/gone.sh"}},
	})
}

func TestStepOrderSpellings(t *testing.T) {
	k := map[string]string{"GATE_LOCAL_STEP_ORDER_ACTION": "./.github/actions/toolchain", "GATE_LOCAL_STEP_ORDER_PROGRAMS": "cargo"}
	runActionCases(t, checkActionStepOrder, "check-action-step-order", []actionCase{
		{name: "one-line json keeps step order", files: map[string]string{"ci.yml": `{"on": "push", "jobs": {"b": {"runs-on": "x", "steps": [{"uses": "./.github/actions/toolchain"}, {"run": "cargo build"}]}}}`}, knobs: k, code: 0,
			want: []string{"1 armed job hold the order"}},
		{name: "one-line json, wrong order", files: map[string]string{"ci.yml": `{"on": "push", "jobs": {"b": {"runs-on": "x", "steps": [{"run": "cargo build"}, {"uses": "./.github/actions/toolchain"}]}}}`}, knobs: k, code: 1,
			want: []string{"ci.yml:1: job b spells cargo"}},
		{name: "flow steps", files: map[string]string{"ci.yml": wf("jobs:\n  b:\n    runs-on: x\n    steps: [{run: cargo build}]\n")}, knobs: k, code: 1, want: []string{"job b spells cargo"}},
	})
}

func TestJobRefSpellings(t *testing.T) {
	k := map[string]string{"GATE_SDK_JOB_REF_PATTERNS": "(build|test)-[a-z0-9-]+"}
	ci := wf("jobs:\n  build-linux:\n    runs-on: ubuntu-latest\n")
	runActionCases(t, checkActionJobRef, "check-action-job-ref", []actionCase{
		{name: "backtick in the info string is no fence", files: map[string]string{"ci.yml": ci, "README.md": "```a`b\n\nsee `build-gone`\n"}, knobs: k, code: 1,
			want: []string{"README.md:3: build-gone names no job"}},
		{name: "line ending in an opening backtick run", files: map[string]string{"ci.yml": ci, "README.md": "see `build-gone` then ``\n```\n"}, knobs: k, code: 1,
			want: []string{"README.md:1: build-gone names no job"}},
		{name: "tilde fence keeps backticks in its info string", files: map[string]string{"ci.yml": ci, "README.md": "~~~ a`b\n`build-gone`\n~~~\n"}, knobs: k, code: 0},
		{name: "json jobs", files: map[string]string{"ci.yml": `{"on": "push", "jobs": {"build-linux": {}}}`, "README.md": "`build-linux`\n"}, knobs: k, code: 0,
			want: []string{"1 job reference checked against 1 job in 1 workflow"}},
		{name: "markdown is not parsed as yaml", files: map[string]string{"ci.yml": ci, "README.md": "key: [unclosed\n`build-linux`\n"}, knobs: k, code: 0},
		{name: "a body line is no comment", files: map[string]string{"ci.yml": ci + "    steps:\n      - run: |\n          # see `build-gone`\n"}, knobs: k, code: 0},
	})
}

// FuzzCodeSpans: the markdown span and fence readers take any line
// without panicking, and every span they answer is a piece of the line.
func FuzzCodeSpans(f *testing.F) {
	for _, s := range []string{"a `b` c", "``", "x ```", "```a`b", "~~~ `", "`a` ``b`` `c", "   ```", "    ```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, sp := range codeSpans(s) {
			if !strings.Contains(s, "`"+sp+"`") {
				t.Fatalf("%q: span %q is not on the line", s, sp)
			}
		}
		for _, open := range []string{"", "```", "~~~~"} {
			if got := mdFence(s, open); got != "" && got != open && fenceOpen(s) != got {
				t.Fatalf("%q: fence %q from %q", s, got, open)
			}
		}
	})
}

// TestScanRoot: the scan set is a filesystem walk of the scan root, and
// every spelling of one root names the same directory.
func TestScanRoot(t *testing.T) {
	files := map[string]string{".github/workflows/ci.yml": wf("jobs:\n  b:\n    steps: [{uses: a/b@v1}]\n"), "x/keep.txt": "k\n"}
	for _, root := range []string{".github/./workflows", ".github//workflows", "x/../.github", ".github/workflows/", "./.github"} {
		run := runAction(t, checkActionPinning, "check-action-pinning", files, nil, nil, root)
		if run.Code != 1 || !strings.Contains(run.Stdout, ".github/workflows/ci.yml:5: uses: a/b@v1") {
			t.Errorf("root %q: exit %d\n%s%s", root, run.Code, run.Stdout, run.Stderr)
		}
	}
	for _, root := range []string{"..", "x/../..", ".github/../../elsewhere", "/", "x/keep.txt", "missing"} {
		run := runAction(t, checkActionPinning, "check-action-pinning", files, nil, nil, root)
		if run.Code != 2 {
			t.Errorf("root %q: exit %d, want 2\n%s%s", root, run.Code, run.Stdout, run.Stderr)
		}
	}
	// A root reached through a link out of the run directory leaves it.
	dir, outside := t.TempDir(), t.TempDir()
	writeFiles(t, dir, files)
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	run := gatetest.Exec(checkActionPinning, "check-action-pinning", dir, &gatetest.Tree{Data: files}, actionKnobs(nil), nil, "out")
	if run.Code != 2 || !strings.Contains(run.Stderr, "scan root out is outside the run directory") {
		t.Errorf("linked root: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// A nested repository below the root is another project: not walked.
	dir = t.TempDir()
	writeFiles(t, dir, map[string]string{"ci.yml": wf("jobs: {}\n"), "vendor-src/.git/HEAD": "ref: refs/heads/main\n", "vendor-src/.github/workflows/x.yml": "- uses: e/f@v1\n"})
	run = gatetest.Exec(checkActionPinning, "check-action-pinning", dir, &gatetest.Tree{Data: map[string]string{}}, actionKnobs(nil), nil)
	if run.Code != 0 {
		t.Errorf("nested repository walked: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// The walk reads files the snapshot does not track.
	dir = t.TempDir()
	writeFiles(t, dir, files)
	run = gatetest.Exec(checkActionPinning, "check-action-pinning", dir, &gatetest.Tree{Data: map[string]string{}}, actionKnobs(nil), nil)
	if run.Code != 1 || !strings.Contains(run.Stdout, "ci.yml:5: uses: a/b@v1") {
		t.Errorf("untracked workflow: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

// TestScanShared: the seven gates of one run share one walk and one
// reading per file: a file added after the first gate scanned is seen by
// none of the later ones over the same snapshot, and is by a new one.
func TestScanShared(t *testing.T) {
	files := map[string]string{"ci.yml": wf("jobs:\n  b:\n    steps: [{uses: a/b@v1}]\n")}
	dir := t.TempDir()
	writeFiles(t, dir, files)
	tree := &gatetest.Tree{Data: files}
	first := gatetest.Exec(checkActionPinning, "check-action-pinning", dir, tree, actionKnobs(nil), nil)
	writeFiles(t, dir, map[string]string{"late.yml": "- uses: c/d@v1\n"})
	again := gatetest.Exec(checkActionPinning, "check-action-pinning", dir, tree, actionKnobs(nil), nil)
	if first.Stdout != again.Stdout || strings.Contains(again.Stdout, "late.yml") {
		t.Fatalf("the second gate walked again:\n%s\n%s", first.Stdout, again.Stdout)
	}
	fresh := gatetest.Exec(checkActionPinning, "check-action-pinning", dir, &gatetest.Tree{Data: files}, actionKnobs(nil), nil)
	if !strings.Contains(fresh.Stdout, "late.yml:1: uses: c/d@v1") {
		t.Fatalf("a new snapshot did not walk:\n%s", fresh.Stdout)
	}
}
