package gates

import (
	"os"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// A script whose #! line names a shell ShellCheck does not read (zsh,
// fish, csh) is skipped and counted on the clean line, not linted as sh:
// ShellCheck answers such a file with SC1071 and nothing else of use.
func TestShellcheckSkipsAShellItCannotRead(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tools/release-notes.sh": "#!/bin/zsh\nsetopt extendedglob\nprint -l ${(f)\"$(git tag)\"}\n",
		"tools/env-zsh.sh":       "#!/usr/bin/env zsh\nprint hi\n",
		"tools/build.sh":         "#!/usr/bin/env bash\necho ok\n",
		"tools/zshrc-helper.sh":  "#!/bin/bash\n# mentions zsh only in a comment\necho ok\n",
	})
	env := map[string]string{"PATH": os.Getenv("PATH")}
	run := gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, "tools")
	want := "SHELLCHECK: clean (2 shell files pass shellcheck -S warning; 2 zsh scripts skipped (ShellCheck reads sh, bash, dash and ksh only))"
	if run.Code != 0 || !strings.Contains(run.Stdout, want) {
		t.Fatalf("exit %d, want clean with %q\n%s%s", run.Code, want, run.Stdout, run.Stderr)
	}
	// A bash script beside them is still judged.
	writeFiles(t, dir, map[string]string{"tools/build.sh": "#!/usr/bin/env bash\ncd /tmp\n"})
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, "tools")
	if run.Code != 1 || !strings.Contains(run.Stdout, "tools/build.sh:2: warning:") || strings.Contains(run.Stdout, "SC1071") {
		t.Fatalf("exit %d, want the bash finding alone\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

// A file with no #! holding a template tag (<% ... %>) outside any quote
// is a template a test renders into shell, not shell as committed: it is
// skipped and counted, not linted as sh. A tag inside a quoted string, or
// in a script with a #!, leaves the file linted.
func TestShellcheckSkipsATemplate(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"spec/support/prelude.sh": "set -u\nexport PS1= LANG=C\nunset <%= CLEARED.join(' ') %>\n<% if with_rc %>source <%= rc %><% end %>\n",
		"spec/support/ok.sh":      "#!/bin/sh\necho ok\n",
	})
	env := map[string]string{"PATH": os.Getenv("PATH")}
	run := gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, "spec/support")
	want := "SHELLCHECK: clean (1 shell file pass shellcheck -S warning; 1 template skipped (a <% %> tag and no #!: shell only once rendered))"
	if run.Code != 0 || !strings.Contains(run.Stdout, want) {
		t.Fatalf("exit %d, want clean with %q\n%s%s", run.Code, want, run.Stdout, run.Stderr)
	}
	// The tag inside a quoted string is text the script prints, and a #!
	// says the file is run as it stands: both are linted.
	writeFiles(t, dir, map[string]string{
		"spec/support/prelude.sh": "echo '<%= name %>' > out.erb\ncd /tmp\n",
		"spec/support/ok.sh":      "#!/bin/sh\necho <%= x %>\ncd /tmp\n",
	})
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, "spec/support")
	if run.Code != 1 || !strings.Contains(run.Stdout, "spec/support/prelude.sh:") || !strings.Contains(run.Stdout, "spec/support/ok.sh:") || strings.Contains(run.Stdout, "template") {
		t.Fatalf("exit %d, want both files linted\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

// A script a workflow step runs by its path inherits that step's
// environment: a lower-case name the step's, job's or workflow's env:
// sets is assigned when the script starts, so SC2154 on it is dropped.
// A name only some callers set, or none, is still reported.
func TestShellcheckCallerEnvAssigns(t *testing.T) {
	dir := t.TempDir()
	script := "#!/usr/bin/env bash\nset -u\necho \"fetching $release_tag for $target_os\"\nunzip \"$bundle_dir/pkg.zip\"\n"
	wf := "name: e2e\non: push\nenv:\n  release_tag: v1\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    env:\n      target_os: linux\n    steps:\n      - name: run the smoke script\n        env:\n          bundle_dir: dist\n        run: .github/scripts/smoke.sh\n"
	writeFiles(t, dir, map[string]string{
		".github/scripts/smoke.sh":  script,
		".github/workflows/e2e.yml": wf,
	})
	env := map[string]string{"PATH": os.Getenv("PATH")}
	run := gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, ".github/scripts")
	if run.Code != 0 || !strings.Contains(run.Stdout, "3 SC2154 reports on names the calling step's env: sets dropped") {
		t.Fatalf("exit %d, want clean with the names a caller sets dropped\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// A second caller whose step sets no bundle_dir: that name is not
	// assigned on every path into the script.
	writeFiles(t, dir, map[string]string{".github/workflows/nightly.yml": "name: n\non: push\nenv:\n  release_tag: v2\n  target_os: linux\njobs:\n  n:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          ./.github/scripts/smoke.sh\n"})
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, ".github/scripts")
	if run.Code != 1 || !strings.Contains(run.Stdout, "bundle_dir is referenced but not assigned") || strings.Contains(run.Stdout, "release_tag is referenced") || strings.Contains(run.Stdout, "target_os is referenced") {
		t.Fatalf("exit %d, want bundle_dir alone reported\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// With no caller at all, every name is reported.
	os.Remove(dir + "/.github/workflows/e2e.yml")
	os.Remove(dir + "/.github/workflows/nightly.yml")
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, ".github/scripts")
	if run.Code != 1 || strings.Count(run.Stdout, "[SC2154]") != 3 {
		t.Fatalf("exit %d, want the three names reported\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

// The variable of a for loop over literal numbers (1 2 3, {1..5}) that
// the body never reads is a repeat count: SC2034 on it is dropped. A
// loop over words whose variable goes unread is still reported.
func TestShellcheckRetryCounterIsNoFinding(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tools/wait-ready.sh": "#!/usr/bin/env bash\nfor try in {1..10}; do\n  curl -fsS http://localhost:8080/ready && exit 0\n  sleep 1\ndone\nfor n in 1 2 3\ndo\n  sync\ndone\nexit 1\n",
	})
	env := map[string]string{"PATH": os.Getenv("PATH")}
	run := gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, "tools")
	if run.Code != 0 {
		t.Fatalf("exit %d, want clean\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	writeFiles(t, dir, map[string]string{
		"tools/wait-ready.sh": "#!/usr/bin/env bash\nfor host in alpha beta; do\n  sync\ndone\n",
	})
	run = gatetest.Exec(checkShellcheck, "check-shellcheck", dir, &gatetest.Tree{}, gatetest.Knobs{}, env, "tools")
	if run.Code != 1 || !strings.Contains(run.Stdout, "host appears unused") {
		t.Fatalf("exit %d, want SC2034 on host\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}
