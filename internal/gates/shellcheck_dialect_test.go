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
