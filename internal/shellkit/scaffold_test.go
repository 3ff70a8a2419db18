package shellkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scaffoldStub stands in for the gates binary under test-hermetic.sh's
// scaffolding: it names its arguments and working directory on stdout, its
// PATH on stderr, and exits $STUB_EXIT (default 0). It calls only builtins,
// so a case may hand it any PATH.
const scaffoldStub = `#!/bin/sh
echo "args $*"
echo "cwd $(pwd)"
echo "path $PATH" >&2
exit "${STUB_EXIT:-0}"
`

// TestTestScaffolding drives the bespoke-test scaffolding of
// lib/test-hermetic.sh (gate_sandbox through gate_tests_done) over a stub
// binary, one bash script per case.
func TestTestScaffolding(t *testing.T) {
	repo, env := scratchRepo(t)
	stub := filepath.Join(repo, "stub")
	writeFile(t, stub, scaffoldStub, 0o755)
	checks := filepath.Join(repo, "checks")
	writeFile(t, filepath.Join(checks, "check-desc.gate"), "# graph: couples=* dir=one valve=none tier=precommit\n", 0o644)
	writeFile(t, filepath.Join(checks, "check-script.sh"), "#!/bin/sh\necho \"script $*\"\nexit 1\n", 0o755)
	lib := filepath.Join(repo, "gate-sdk", "lib", "test-hermetic.sh")
	env = with(env, "GATE_SDK_NATIVE_BIN="+stub)

	cases := []struct {
		name   string
		script string
		env    []string
		code   int
		has    []string // each must stand in stdout
		lacks  []string // none may stand in stdout
		stderr string   // must stand in stderr when non-empty
	}{
		{
			name: "all pass",
			script: `gate_sandbox check-x
gate_scratch_repo a
gate_expect args 0 'args check-x one two' one two
gate_expect cwd 0 '/a'
gate_expect from-stderr 0 'path '
gate_lacks lacks 'args check-y'
gate_check check true
gate_tests_done`,
			code: 0, has: []string{"check-x: 5 passed, 0 failed\n"}, lacks: []string{"FAIL"},
		},
		{
			name: "each kind of failure counts",
			script: `gate_sandbox check-x
gate_scratch_dir a
gate_expect wrong-code 1 'args check-x'
gate_expect wrong-text 0 'not printed'
STUB_EXIT=2 gate_expect right-code 2 'args check-x'
gate_lacks holds 'args check-x'
gate_check false false
gate_tests_done`,
			code: 1,
			has: []string{
				"FAIL: wrong-code: exit 0 (want 1); want in stdout or stderr: args check-x\n--- stdout\nargs check-x\n",
				"FAIL: wrong-text: exit 0 (want 0); want in stdout or stderr: not printed\n",
				"FAIL: holds: want absent from stdout and stderr: args check-x\n",
				"FAIL: false\n",
				"check-x: 1 passed, 4 failed\n",
			},
		},
		{
			name: "a prefixed PATH reaches the gate alone",
			script: `gate_sandbox check-x
gate_scratch_dir a
PATH=/nowhere gate_expect path 0 'path /nowhere'
gate_tests_done`,
			code: 0, has: []string{"check-x: 1 passed, 0 failed\n"},
		},
		{
			name:   "no check ran",
			script: "gate_sandbox check-x\ngate_tests_done",
			code:   2, has: []string{"check-x: 0 passed, 0 failed\n"}, stderr: "no check ran",
		},
		{
			name: "a setup step failing in a pipeline still ends in exit 2",
			script: `gate_sandbox check-x
gate_scratch_dir a
printf 'x\n' | gate_put f
printf 'x\n' | gate_put f/under-a-file
gate_expect args 0 'args'
gate_tests_done`,
			code: 2, has: []string{"check-x: 1 passed, 0 failed\n"}, stderr: "gate_put: cannot write f/under-a-file",
		},
		{
			name: "put stages in a repository, loose does not, a plain dir is no repository",
			script: `gate_sandbox check-x
gate_scratch_repo r
printf 'x\n' | gate_put sub/staged.md
printf 'x\n' | gate_loose loose.md
gate_check staged test "$(git -C "$GATE_SCRATCH" ls-files)" = sub/staged.md
gate_scratch_dir p
printf 'x\n' | gate_put plain.md
gate_check plain-written test -f "$GATE_SANDBOX/p/plain.md"
gate_check plain-no-repo test ! -e "$GATE_SCRATCH/.git"
gate_tests_done`,
			code: 0, has: []string{"check-x: 3 passed, 0 failed\n"},
		},
		{
			name: "a scratch repository commits with no configured identity",
			script: `gate_sandbox check-x
gate_scratch_repo r
printf 'x\n' | gate_put a.md
gate_check commit git -C "$GATE_SCRATCH" commit -qm first
gate_check no-config-identity test -z "$(git -C "$GATE_SCRATCH" config user.email)"
gate_tests_done`,
			env:  []string{"GIT_AUTHOR_NAME=", "GIT_AUTHOR_EMAIL=", "GIT_COMMITTER_NAME=", "GIT_COMMITTER_EMAIL=", "EMAIL="},
			code: 0, has: []string{"check-x: 2 passed, 0 failed\n"},
		},
		{
			name: "a checks dir resolves a descriptor to the binary",
			script: `gate_sandbox check-desc "$CHECKS"
gate_scratch_dir a
gate_expect desc 0 'args check-desc z' z
gate_tests_done`,
			code: 0, has: []string{"check-desc: 1 passed, 0 failed\n"},
		},
		{
			name: "a checks dir resolves a script to itself",
			script: `gate_sandbox check-script "$CHECKS"
gate_scratch_dir a
gate_expect script 1 'script z' z
gate_tests_done`,
			code: 0, has: []string{"check-script: 1 passed, 0 failed\n"},
		},
		{
			name:   "a gate resolving nowhere is refused",
			script: `gate_sandbox check-gone "$CHECKS"`,
			code:   2, stderr: "check-gone resolves in no check dir",
		},
		{
			name:   "an absent binary is refused",
			script: "gate_sandbox check-x",
			env:    []string{"GATE_SDK_NATIVE_BIN=" + filepath.Join(repo, "absent")},
			code:   2, stderr: "absent or not executable",
		},
		{
			name:   "a case before any scratch directory is refused",
			script: "gate_sandbox check-x\ngate_expect a 0 x",
			code:   2, stderr: "no scratch directory yet",
		},
		{
			name:   "a scratch name escaping the sandbox is refused",
			script: "gate_sandbox check-x\ngate_scratch_dir ../out",
			code:   2, stderr: "relative path inside the sandbox",
		},
		{
			name:   "a second sandbox is refused",
			script: "gate_sandbox check-x\ngate_sandbox check-y",
			code:   2, stderr: "already open for check-x",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			e := with(env, append([]string{"TMPDIR=" + tmp, "CHECKS=" + checks}, c.env...)...)
			r := run(t, repo, e, "", "bash", "-c", `. "$1" && set -u && `+"\n"+c.script, "_", lib)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, c.code, r.stdout, r.stderr)
			}
			for _, s := range c.has {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, s := range c.lacks {
				if strings.Contains(r.stdout, s) {
					t.Errorf("stdout holds %q:\n%s", s, r.stdout)
				}
			}
			if c.stderr != "" && !strings.Contains(r.stderr, c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, r.stderr)
			}
			// The sandbox is gone, whatever the ending.
			left, err := filepath.Glob(filepath.Join(tmp, "check-*"))
			if err != nil {
				t.Fatal(err)
			}
			if len(left) != 0 {
				t.Errorf("sandbox left behind: %q", left)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(repo, "a")); err == nil {
		t.Error("a scratch directory landed in the working directory")
	}
}
