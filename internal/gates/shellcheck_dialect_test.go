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
