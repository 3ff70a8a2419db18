package shellkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// suitesStub is a fake binary for run-fixture-suites.sh: --emit
// fixture-suites prints $ROWS (exit $EMIT_STATUS), and --run-gate-tests
// logs its operands and exits with the status $STATUS_<basename of the
// tests dir's parent> names (default 0).
const suitesStub = `#!/bin/bash
` + handshakeLine + `if [ "$1 $2" = "--emit fixture-suites" ]; then
	printf '%b' "$ROWS"
	exit "${EMIT_STATUS:-0}"
fi
if [ "$1" = --run-gate-tests ]; then
	echo "run-gate-tests $2 ${3-}" >>"$LOG"
	kit="${2%/gate-tests}"; kit="${kit##*/}"; kit="${kit//-/_}"
	v="STATUS_$kit"
	exit "${!v:-0}"
fi
exit 9
`

func TestRunFixtureSuites(t *testing.T) {
	repo, env := scratchRepo(t)
	stub := filepath.Join(repo, "stub")
	writeFile(t, stub, suitesStub, 0o755)
	script := filepath.Join(repo, "gate-sdk", "bin", "run-fixture-suites.sh")
	rows := `gate_sdk\tgate-sdk/gate-tests\t\nfoo_kit\tfoo-kit/gate-tests\tfoo-kit/checks\n`

	cases := []struct {
		name    string
		env     []string
		code    int
		ran     string
		summary string
	}{
		{"all pass", nil, 0, "run-gate-tests gate-sdk/gate-tests \nrun-gate-tests foo-kit/gate-tests foo-kit/checks\n", "suites: 2 passed, 0 failed\n"},
		{"one fails", []string{"STATUS_foo_kit=1"}, 1, "run-gate-tests gate-sdk/gate-tests \nrun-gate-tests foo-kit/gate-tests foo-kit/checks\n", "suites: 1 passed, 1 failed\n"},
		{"a harness error outranks a failure", []string{"STATUS_gate_sdk=2", "STATUS_foo_kit=1"}, 2, "run-gate-tests gate-sdk/gate-tests \nrun-gate-tests foo-kit/gate-tests foo-kit/checks\n", "suites: 0 passed, 2 failed\n"},
		{"emit fails: nothing runs", []string{"EMIT_STATUS=2"}, 2, "", ""},
		{"no suite: refused", []string{"ROWS="}, 2, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "log")
			writeFile(t, log, "", 0o644)
			e := with(env, "GATE_SDK_NATIVE_BIN="+stub, "ROWS="+rows, "LOG="+log)
			r := run(t, filepath.Join(repo, "gate-sdk"), with(e, c.env...), "", "bash", script)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", r.code, c.code, r.stdout, r.stderr)
			}
			ran, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			if string(ran) != c.ran {
				t.Fatalf("ran %q, want %q", ran, c.ran)
			}
			if c.summary != "" && !strings.HasSuffix(r.stdout, c.summary) {
				t.Fatalf("stdout does not close on %q:\n%s", c.summary, r.stdout)
			}
			if c.code == 2 && c.ran == "" && r.stderr == "" {
				t.Fatal("a refusal printed no reason")
			}
		})
	}

	for _, args := range [][]string{{"--bogus"}, {"extra"}} {
		r := run(t, repo, with(env, "GATE_SDK_NATIVE_BIN="+stub), "", append([]string{"bash", script}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "usage:") {
			t.Errorf("%q: want usage on stderr at exit 2, got %d %q", args, r.code, r.stderr)
		}
	}
	if r := run(t, repo, env, "", "bash", script, "--help"); r.code != 0 || !strings.HasPrefix(r.stdout, "usage:") {
		t.Errorf("--help: exit %d stdout %q", r.code, r.stdout)
	}
}

// TestTestHermeticPins sources lib/test-hermetic.sh from a vendored kit and
// reads back what it exported.
func TestTestHermeticPins(t *testing.T) {
	repo, env := scratchRepo(t)
	for _, d := range []string{"foo-kit", "bar/checks", "baz/smoke", "plain"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tmp := physicalTemp(t)
	env = with(env, "TMPDIR="+tmp, "GATE_SDK_TMP_DIR=/live/tmp", "GATE_SDK_WORKFLOW_DIR=/live/wf", "GIT_CEILING_DIRECTORIES=/before")
	// A tracked knob file value must not place the binary (it is pinned
	// first); the seat's overlay may.
	writeFile(t, filepath.Join(repo, "scripts", "gate-sdk-config.knobs"), "GATE_SDK_NATIVE_BIN = tracked/gates\n", 0o644)
	lib := filepath.Join(repo, "gate-sdk", "lib", "test-hermetic.sh")
	sandbox := t.TempDir()
	show := `. "$1"; for v in GATE_SDK_KNOB_FILE GATE_SDK_LOCAL_KNOB_FILE GATE_SDK_CONFIG_FILE FOO_KIT_KNOB_FILE FOO_KIT_LOCAL_KNOB_FILE BAR_KNOB_FILE BAZ_CONFIG_FILE PLAIN_KNOB_FILE GATE_SDK_TMP_DIR GATE_SDK_WORKFLOW_DIR GIT_CEILING_DIRECTORIES GATE_SDK_NATIVE_BIN GATE_SDK_ROOT; do printf '%s=%s\n' "$v" "${!v-<unset>}"; done`

	got := mustRun(t, sandbox, env, "bash", "-c", show, "_", lib)
	empty := tmp + "/gate-sdk-hermetic-empty.knobs"
	emptySh := tmp + "/gate-sdk-hermetic-empty.sh"
	want := strings.Join([]string{
		"GATE_SDK_KNOB_FILE=" + empty,
		"GATE_SDK_LOCAL_KNOB_FILE=" + empty,
		"GATE_SDK_CONFIG_FILE=" + emptySh,
		"FOO_KIT_KNOB_FILE=" + empty,
		"FOO_KIT_LOCAL_KNOB_FILE=" + empty,
		"BAR_KNOB_FILE=" + empty,
		"BAZ_CONFIG_FILE=" + emptySh,
		"PLAIN_KNOB_FILE=<unset>",
		"GATE_SDK_TMP_DIR=<unset>",
		"GATE_SDK_WORKFLOW_DIR=<unset>",
		"GIT_CEILING_DIRECTORIES=" + tmp + ":/before",
		"GATE_SDK_NATIVE_BIN=" + repo + "/bin/gates",
		"GATE_SDK_ROOT=" + repo + "/gate-sdk",
	}, "\n") + "\n"
	if got != want {
		t.Fatalf("pins:\n%s\nwant:\n%s", got, want)
	}
	for _, f := range []string{empty, emptySh} {
		if st, err := os.Stat(f); err != nil || st.Size() != 0 {
			t.Fatalf("%s must exist and be empty: %v", f, err)
		}
	}

	// The seat's overlay places the binary; an invoker's pin is kept as is.
	writeFile(t, filepath.Join(repo, "scripts", "gate-sdk-config.local.knobs"), "GATE_SDK_NATIVE_BIN = seat/gates\n", 0o644)
	got = mustRun(t, sandbox, env, "bash", "-c", `. "$1"; echo "$GATE_SDK_NATIVE_BIN"`, "_", lib)
	if got != repo+"/seat/gates\n" {
		t.Errorf("overlay-placed binary: %q", got)
	}
	got = mustRun(t, sandbox, with(env, "GATE_SDK_NATIVE_BIN=rel/pinned"), "bash", "-c", `. "$1"; echo "$GATE_SDK_NATIVE_BIN"`, "_", lib)
	if got != "rel/pinned\n" {
		t.Errorf("an invoker's pin was rewritten: %q", got)
	}

	// gate_env steers one call and leaves the shell alone.
	got = mustRun(t, sandbox, env, "bash", "-c", `. "$1"; gate_env X=1 -u GATE_SDK_ROOT sh -c 'echo "$X ${GATE_SDK_ROOT-none}"'; echo "${X-unset}"`, "_", lib)
	if got != "1 none\nunset\n" {
		t.Errorf("gate_env: %q", got)
	}
}

// TestCheckSkeleton copies the template into a scratch consumer and runs it
// against the real binary: clean on a clean tree, a finding and help: on a
// bad one, exit 2 when the prune set cannot be read.
func TestCheckSkeleton(t *testing.T) {
	bin := gatesBin(t)
	repo, env := scratchRepo(t)
	data, err := os.ReadFile(filepath.Join(fx.root, "templates", "check-skeleton.sh"))
	if err != nil {
		t.Fatal(err)
	}
	gate := filepath.Join(repo, "scripts", "check-example.sh")
	writeFile(t, gate, string(data), 0o755)
	writeFile(t, filepath.Join(repo, "docs", "a.md"), "fine\n", 0o644)
	writeFile(t, filepath.Join(repo, "target", "skip.md"), "TODO-EXAMPLE\n", 0o644)
	env = with(env, "GATE_SDK_NATIVE_BIN="+bin)

	r := run(t, repo, env, "", "bash", gate)
	if r.code != 0 || r.stdout != "EXAMPLE: clean (1 files checked)\n" {
		t.Fatalf("clean tree: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	writeFile(t, filepath.Join(repo, "docs", "b.md"), "one\nTODO-EXAMPLE here\n", 0o644)
	r = run(t, repo, env, "", "bash", gate)
	want := "./docs/b.md:2: placeholder marker left in the text\nhelp: replace each placeholder marker with the text it stands for\n"
	if r.code != 1 || r.stdout != want {
		t.Fatalf("bad tree: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, repo, with(env, "GATE_SDK_NATIVE_BIN="+filepath.Join(repo, "absent")), "", "bash", gate)
	if r.code != 2 || strings.Contains(r.stdout, "clean") {
		t.Fatalf("no binary: exit %d stdout %q", r.code, r.stdout)
	}
}
