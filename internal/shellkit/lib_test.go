package shellkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/walk"
)

// prebinaryKnobs are the knobs lib/gate.sh resolves without the binary.
var prebinaryKnobs = []string{
	"GATE_SDK_NATIVE_BIN",
	"GATE_SDK_NATIVE_CRATE",
	"GATE_SDK_NATIVE_TARGETS_FILE",
	"GATE_SDK_NATIVE_RUNNERS_FILE",
	"GATE_SDK_MSG_PATTERN_FILES",
	"GATE_SDK_MSG_PATTERN_FILES_LOCAL",
}

// shellAnswers sources lib/gate.sh in dir and prints, per knob, the
// pre-binary accessor's answer and gate_knob_values' answer.
func shellAnswers(t *testing.T, dir string, env []string, lib string) (pre, viaBin []string) {
	t.Helper()
	script := `. "$1"; shift
for k in "$@"; do _gate_prebinary_knob "$k" || exit 3; done
echo ---
gate_knob_values "$@" || exit 4
echo ---
gate_sdk_gates_dir`
	r := run(t, dir, env, "", append([]string{"bash", "-c", script, "_", lib}, prebinaryKnobs...)...)
	if r.code != 0 {
		t.Fatalf("shell accessors: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	parts := strings.Split(r.stdout, "---\n")
	if len(parts) != 3 {
		t.Fatalf("shell accessors: unexpected output %q", r.stdout)
	}
	return strings.Split(strings.TrimSuffix(parts[0], "\n"), "\n"), strings.Split(strings.TrimSuffix(parts[1], "\n"), "\n")
}

// TestPrebinaryAccessorsAgreeWithBinary holds each pre-binary accessor, and
// gate_knob_values, to `gates --emit knob-values` over every layer: the
// environment, the overlay, the tracked file, an empty value, and nothing.
func TestPrebinaryAccessorsAgreeWithBinary(t *testing.T) {
	bin := gatesBin(t)
	repo, env := scratchRepo(t)
	lib := filepath.Join(repo, "gate-sdk", "lib", "gate.sh")
	env = with(env, "GATE_SDK_NATIVE_BIN="+bin)
	tracked := filepath.Join(repo, "scripts", "gate-sdk-config.knobs")
	overlay := filepath.Join(repo, "scripts", "gate-sdk-config.local.knobs")
	// GATE_SDK_NATIVE_BIN is pinned in the environment so both sides can
	// run the binary; its own layers are covered by ownEnv below.
	layers := []struct {
		name            string
		env             []string
		tracked, overly string
	}{
		{name: "defaults"},
		{name: "tracked file", tracked: "GATE_SDK_NATIVE_CRATE = mod/\nGATE_SDK_MSG_PATTERN_FILES = a.list b.list\nGATE_SDK_NATIVE_RUNNERS_FILE = ci/runners.list\n"},
		{name: "overlay beats tracked", tracked: "GATE_SDK_NATIVE_CRATE = mod/\n", overly: "GATE_SDK_NATIVE_CRATE = over\nGATE_SDK_MSG_PATTERN_FILES_LOCAL = private.list\n"},
		{name: "environment beats files", env: []string{"GATE_SDK_NATIVE_CRATE=envmod", "GATE_SDK_NATIVE_TARGETS_FILE=t.list"}, tracked: "GATE_SDK_NATIVE_CRATE = mod\n", overly: "GATE_SDK_NATIVE_CRATE = over\n"},
		{name: "empty values take defaults", env: []string{"GATE_SDK_NATIVE_TARGETS_FILE="}, tracked: "GATE_SDK_NATIVE_CRATE =\nGATE_SDK_MSG_PATTERN_FILES =\n"},
		{name: "gates dir moves defaults", env: []string{"GATE_SDK_GATES_DIR=gates"}},
		{name: "located files", env: []string{"GATE_SDK_KNOB_FILE=conf/t.knobs", "GATE_SDK_LOCAL_KNOB_FILE=conf/o.knobs"}},
	}
	writeFile(t, filepath.Join(repo, "conf", "t.knobs"), "GATE_SDK_NATIVE_CRATE = located\n", 0o644)
	writeFile(t, filepath.Join(repo, "conf", "o.knobs"), "GATE_SDK_MSG_PATTERN_FILES = o.list\n", 0o644)
	for _, l := range layers {
		t.Run(l.name, func(t *testing.T) {
			os.Remove(tracked)
			os.Remove(overlay)
			if l.tracked != "" {
				writeFile(t, tracked, l.tracked, 0o644)
			}
			if l.overly != "" {
				writeFile(t, overlay, l.overly, 0o644)
			}
			e := with(env, l.env...)
			want := binaryValues(t, repo, e, bin)
			pre, via := shellAnswers(t, repo, e, lib)
			for i, k := range prebinaryKnobs {
				if pre[i] != want[i] {
					t.Errorf("%s: accessor %q, binary %q", k, pre[i], want[i])
				}
				if via[i] != want[i] {
					t.Errorf("%s: gate_knob_values %q, binary %q", k, via[i], want[i])
				}
			}
		})
	}

	// GATE_SDK_NATIVE_BIN's own layers, read with the binary reached by an
	// absolute path rather than through the knob.
	ownEnv := []struct {
		name            string
		env             []string
		tracked, overly string
	}{
		{name: "default"},
		{name: "tracked", tracked: "GATE_SDK_NATIVE_BIN = t/gates\n"},
		{name: "overlay", tracked: "GATE_SDK_NATIVE_BIN = t/gates\n", overly: "GATE_SDK_NATIVE_BIN = o/gates\n"},
		{name: "environment", env: []string{"GATE_SDK_NATIVE_BIN=e/gates"}, overly: "GATE_SDK_NATIVE_BIN = o/gates\n"},
		{name: "empty environment", env: []string{"GATE_SDK_NATIVE_BIN="}, overly: "GATE_SDK_NATIVE_BIN = o/gates\n"},
		{name: "empty overlay", tracked: "GATE_SDK_NATIVE_BIN = t/gates\n", overly: "GATE_SDK_NATIVE_BIN =\n"},
	}
	base := baseEnv(t, filepath.Dir(repo))
	for _, l := range ownEnv {
		t.Run("native bin/"+l.name, func(t *testing.T) {
			os.Remove(tracked)
			os.Remove(overlay)
			if l.tracked != "" {
				writeFile(t, tracked, l.tracked, 0o644)
			}
			if l.overly != "" {
				writeFile(t, overlay, l.overly, 0o644)
			}
			e := with(base, l.env...)
			want := foldKnobValues(t, mustRun(t, repo, e, bin, "--emit", "knob-values", "GATE_SDK_NATIVE_BIN"), []string{"GATE_SDK_NATIVE_BIN"})[0]
			got := strings.TrimSuffix(mustRun(t, repo, e, "bash", "-c", `. "$1"; gate_native_bin`, "_", lib), "\n")
			if got != want {
				t.Errorf("gate_native_bin %q, binary %q", got, want)
			}
		})
	}
}

// binaryValues answers `gates --emit knob-values` for the pre-binary knobs.
func binaryValues(t *testing.T, dir string, env []string, bin string) []string {
	t.Helper()
	out := mustRun(t, dir, env, append([]string{bin, "--emit", "knob-values"}, prebinaryKnobs...)...)
	return foldKnobValues(t, out, prebinaryKnobs)
}

// foldKnobValues reads `--emit knob-values` output as one wire value per
// name. It takes either form the arm may print: one value line per name,
// or the roster grammar (NAME<TAB>shape<TAB>element per element), whose
// elements it tab-joins as lib/gate.sh's gate_knob_values does.
func foldKnobValues(t *testing.T, out string, names []string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	roster := len(lines) > 0
	for _, l := range lines {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 || (f[1] != "scalar" && f[1] != "indexed" && f[1] != "keyed") {
			roster = false
			break
		}
	}
	if !roster {
		if len(lines) != len(names) {
			t.Fatalf("knob-values answered %d lines for %d names: %q", len(lines), len(names), out)
		}
		return lines
	}
	var vals []string
	i := 0
	for _, n := range names {
		var elems []string
		for i < len(lines) {
			f := strings.SplitN(lines[i], "\t", 3)
			if f[0] != n {
				break
			}
			elems = append(elems, f[2])
			i++
			if f[1] == "scalar" {
				break
			}
		}
		if elems == nil {
			t.Fatalf("knob-values printed nothing for %s: %q", n, out)
		}
		vals = append(vals, strings.Join(elems, "\t"))
	}
	if i != len(lines) {
		t.Fatalf("knob-values printed lines for names not asked: %q", out)
	}
	return vals
}

// TestGatesDirDefaultAgrees holds gate_sdk_gates_dir to the binary's
// locator default.
func TestGatesDirDefaultAgrees(t *testing.T) {
	bin := gatesBin(t)
	repo, env := scratchRepo(t)
	lib := filepath.Join(repo, "gate-sdk", "lib", "gate.sh")
	for _, e := range [][]string{nil, {"GATE_SDK_GATES_DIR="}, {"GATE_SDK_GATES_DIR=ci/gates"}} {
		ee := with(env, e...)
		want := foldKnobValues(t, mustRun(t, repo, ee, bin, "--emit", "knob-values", "GATE_SDK_GATES_DIR"), []string{"GATE_SDK_GATES_DIR"})[0] + "\n"
		got := mustRun(t, repo, ee, "bash", "-c", `. "$1"; gate_sdk_gates_dir`, "_", lib)
		if got != want {
			t.Errorf("env %q: gate_sdk_gates_dir %q, binary %q", e, got, want)
		}
	}
}

// rootedCorpus is the absoluteness corpus: both separators, drive letters,
// and the non-ASCII letters a collated bracket range would admit.
var rootedCorpus = []string{
	"/", "/a", "//x", `\`, `\a`, `\\srv\share`, "C:/", `C:\`, "c:/x", `z:\x`, "A:/b", "Z:/",
	"C:", "C:x", "C", "1:/x", ":/x", "é:/x", "É:\\x", "ß:/x", "ａ:/x", "Ω:/x",
	"a", "./a", "../a", "~/a", "", " /a", "-/a", "@:/x", "[:/x", "`:/x", "{:/x",
}

// TestPathRootedAgreesWithWalk holds gate_path_rooted to walk.PathRoot over
// the corpus under bash's default range reading, with globasciiranges off,
// and under a POSIX sh (dash) running the same body.
func TestPathRootedAgreesWithWalk(t *testing.T) {
	lib := kitPath("lib/gate.sh")
	data, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?ms)^gate_path_rooted\(\) \{\n.*?^\}\n`).Find(data)
	if body == nil {
		t.Fatal("lib/gate.sh: gate_path_rooted body not found")
	}
	if regexp.MustCompile(`\[[^]]*[A-Za-z]-[A-Za-z]`).Match(body) {
		t.Error("gate_path_rooted uses a bracket range; spell the letters out")
	}
	loop := `while IFS= read -r p; do if gate_path_rooted "$p"; then echo 1; else echo 0; fi; done`
	input := strings.Join(rootedCorpus, "\n") + "\n"
	var want strings.Builder
	for _, p := range rootedCorpus {
		if walk.PathRoot(p) {
			want.WriteString("1\n")
		} else {
			want.WriteString("0\n")
		}
	}
	dir := physicalTemp(t)
	env := baseEnv(t, dir)
	shells := map[string][]string{
		"bash":                      {"bash", "-c", `. "$1"; ` + loop, "_", lib},
		"bash, globasciiranges off": {"bash", "-c", `shopt -u globasciiranges 2>/dev/null; . "$1"; ` + loop, "_", lib},
	}
	if _, err := exec.LookPath("dash"); err == nil {
		shells["dash"] = []string{"dash", "-c", string(body) + loop}
	}
	for name, argv := range shells {
		for _, loc := range []string{"C", "C.UTF-8"} {
			r := run(t, dir, with(env, "LC_ALL="+loc), input, argv...)
			if r.code != 0 || r.stdout != want.String() {
				got := strings.Split(r.stdout, "\n")
				for i, p := range rootedCorpus {
					if i >= len(got) || got[i] != fmt.Sprint(map[bool]int{true: 1, false: 0}[walk.PathRoot(p)]) {
						t.Errorf("%s (LC_ALL=%s): %q disagrees with walk.PathRoot (exit %d, stderr %q)", name, loc, p, r.code, r.stderr)
					}
				}
			}
		}
	}
}

// TestShellcheckClean holds every kit shell file to shellcheck -S warning.
func TestShellcheckClean(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Fatal("shellcheck is not on PATH; `make tools` installs it (Debian's shellcheck package)")
	}
	var files []string
	for _, pat := range []string{"kits/*/bin/*.sh", "kits/*/lib/*.sh", "gate-tests/*.sh", "kits/*/checks/*.sh", "kits/*/smoke/*.sh", "kits/*/templates/*.sh", "scripts/*.sh", "scripts/gate-tests/*.sh", ".ci/run", ".ci/tools", ".ci/demo-tools"} {
		m, err := filepath.Glob(filepath.Join(fx.root, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 6 {
		t.Fatalf("found only %d kit shell files: %q", len(files), files)
	}
	r := run(t, fx.root, baseEnv(t, fx.root), "", append([]string{sc, "-S", "warning"}, files...)...)
	if r.code != 0 {
		t.Fatalf("shellcheck -S warning found problems:\n%s%s", r.stdout, r.stderr)
	}
}

// TestLibGateShellSuite runs the kit's own lib-gate.test.sh against the
// built binary; it must pass, standalone, from the toplevel. The suite is
// authored at the top-level gate-tests/, outside the kit root, so the
// locator names the kit whose lib/ it sources.
func TestLibGateShellSuite(t *testing.T) {
	bin := gatesBin(t)
	env := with(baseEnv(t, filepath.Dir(fx.root)), "GATE_SDK_NATIVE_BIN="+bin, "GATE_SDK_ROOT="+kitPath(""))
	r := run(t, fx.root, env, "", "bash", filepath.Join(fx.root, "gate-tests", "lib-gate.test.sh"))
	if r.code != 0 {
		t.Fatalf("lib-gate.test.sh: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !regexp.MustCompile(`(?m)^lib-gate\.test\.sh: [1-9][0-9]* passed, 0 failed$`).MatchString(r.stdout) {
		t.Fatalf("lib-gate.test.sh: no passing summary:\n%s", r.stdout)
	}
}

// TestGateKitRootsAndCheckDirs runs gate_kit_roots and gate_check_dirs over
// a scratch layout against the real binary.
func TestGateKitRootsAndCheckDirs(t *testing.T) {
	bin := gatesBin(t)
	repo, env := scratchRepo(t)
	for _, d := range []string{"gate-sdk/checks", "foo-kit/checks", "scripts"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env = with(env, "GATE_SDK_NATIVE_BIN="+bin)
	lib := filepath.Join(repo, "gate-sdk", "lib", "gate.sh")
	roots := mustRun(t, repo, env, bin, "--emit", "kit-roots")
	got := mustRun(t, repo, env, "bash", "-c", `. "$1"; gate_kit_roots`, "_", lib)
	if got != roots {
		t.Errorf("gate_kit_roots %q, binary %q", got, roots)
	}
	dirs := mustRun(t, repo, env, "bash", "-c", `. "$1"; gate_check_dirs`, "_", lib)
	if !strings.HasPrefix(dirs, "scripts\n") || !strings.Contains(dirs, "checks\n") {
		t.Errorf("gate_check_dirs: want the gates dir first, then kit checks dirs; got %q", dirs)
	}
	writeFile(t, filepath.Join(repo, "foo-kit", "checks", "check-x.gate"), "# graph: x\n", 0o644)
	writeFile(t, filepath.Join(repo, "scripts", "check-x.sh"), "#!/bin/sh\n", 0o755)
	got = mustRun(t, repo, env, "bash", "-c", `. "$1"; gate_resolve check-x`, "_", lib)
	if got != "scripts/check-x.sh\n" {
		t.Errorf("gate_resolve: the consumer's shadow must win, got %q", got)
	}
	os.Remove(filepath.Join(repo, "scripts", "check-x.sh"))
	got = mustRun(t, repo, env, "bash", "-c", `. "$1"; gate_command check-x`, "_", lib)
	if got != bin+"\ncheck-x\n" {
		t.Errorf("gate_command for a .gate member: %q", got)
	}
}

// TestGateKnobValuesShapes holds gate_knob_values to the binary for an
// indexed knob (elements tab-joined, an element's inner blanks kept), an
// emptied one, and a scalar beside them: one line per name, in order.
func TestGateKnobValuesShapes(t *testing.T) {
	bin := gatesBin(t)
	repo, env := scratchRepo(t)
	env = with(env, "GATE_SDK_NATIVE_BIN="+bin)
	lib := filepath.Join(repo, "gate-sdk", "lib", "gate.sh")
	names := []string{"GATE_SDK_JOB_REF_PATTERNS", "GATE_SDK_NATIVE_BIN", "GATE_SDK_PROGRAM_FLOOR"}
	tracked := filepath.Join(repo, "scripts", "gate-sdk-config.knobs")
	for _, file := range []string{
		"GATE_SDK_JOB_REF_PATTERNS[] = a b\nGATE_SDK_JOB_REF_PATTERNS[] = c\n",
		"GATE_SDK_JOB_REF_PATTERNS =\n",
	} {
		writeFile(t, tracked, file, 0o644)
		want := foldKnobValues(t, mustRun(t, repo, env, append([]string{bin, "--emit", "knob-values"}, names...)...), names)
		got := mustRun(t, repo, env, append([]string{"bash", "-c", `. "$1"; shift; gate_knob_values "$@"`, "_", lib}, names...)...)
		if got != strings.Join(want, "\n")+"\n" {
			t.Errorf("file %q:\ngate_knob_values %q\nbinary           %q", file, got, want)
		}
	}
	if r := run(t, repo, env, "", "bash", "-c", `. "$1"; gate_knob_values NOT_A_KNOB`, "_", lib); r.code != 2 {
		t.Errorf("an unowned name: exit %d, want 2", r.code)
	}
}
