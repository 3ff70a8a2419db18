package cli

import (
	"fmt"
	"github.com/gate-sdk/gates/internal/harness"
	"sort"
	"strings"
)

// Family is an arm's exit grammar.
type Family int

const (
	// Emit arms answer a document: 0 on success, 2 on any failure.
	Emit Family = iota
	// Run arms return a verdict of their own (0/1/2).
	Run
)

// Arm is one row of the arm table: every non-gate entry point of the binary.
type Arm struct {
	Flag     string   // the arm's one spelling, e.g. "--emit-kit-roots"
	Synopsis string   // argument grammar shown in the usage text
	Summary  string   // one line for the usage text
	Knobs    []string // knobs the arm reads (sentinels allowed)
	Family   Family
	FailOpen bool // the front end exits 0 when the binary is unavailable
	// Paths marks an arm whose every operand is a path (a leading -- is
	// dropped): a file named --help is judged, never read as a help request.
	Paths bool
	// Main runs the arm with the operands after its flag.
	Main func(s *Session, args []string) int
}

// FailOpenArms answers the authoritative fail-open set, read off the arm
// table; the sh and PowerShell front ends each carry a copy that a test
// holds equal to this one.
func FailOpenArms() []string {
	var out []string
	for _, a := range armTable() {
		if a.FailOpen {
			out = append(out, a.Flag)
		}
	}
	return out
}

// armTable answers the arm table, sorted by flag.
func armTable() []Arm {
	arms := []Arm{
		{Flag: "--run", Synopsis: "[<gates-dir>] [--shard <K>/<N>] [--for <path>... | --only <name>... [-- <arg>...]]",
			Summary: "run the registered battery (the default for run-gates.sh)",
			Knobs:   []string{"GATE_SDK_JOBS", "GATE_SDK_VERBOSE", "GATE_SDK_SARIF_FILE", "GATE_SDK_TMP_DIR", "GATE_SDK_KIT_DIRS", "GATE_SDK_SPEC_BASE_URL", "EVERY_REGISTERED_KNOB"},
			Family:  Run, Main: runBattery},
		{Flag: "--run-gate-tests", Synopsis: "[<tests-dir> [<checks-dir>...]]",
			Summary: "run each gate's good/ and bad/ fixture cases, then the *.test.sh tests",
			Knobs:   []string{"GATE_SDK_TESTS_DIR", "GATE_SDK_TMP_DIR", "GATE_SDK_NATIVE_BIN", "GATE_SDK_KIT_DIRS"},
			Family:  Run, Main: runGateTests},
		{Flag: "--emit-kit-roots", Synopsis: "", Summary: "print the kit roots, relative to the working directory",
			Knobs: []string{"GATE_SDK_KIT_DIRS"}, Family: Emit, Main: emitKitRoots},
		{Flag: "--emit-knob-roster", Synopsis: "[--describe]", Summary: "print every statically owned knob with its default; --describe: with its current value, source and description, by gate",
			Family: Emit, Main: emitKnobRoster},
		{Flag: "--emit-knob-values", Synopsis: "<NAME>...", Summary: "print the resolved value of each named knob",
			Family: Emit, Main: emitKnobValues},
		{Flag: "--emit-capture-drain", Synopsis: "[--done] [--] <log>", Summary: "rotate a capture log for triage",
			Family: Emit, Main: emitCaptureDrain},
		{Flag: "--emit-fixture-suites", Synopsis: "", Summary: "print one suite<TAB>tests-dir<TAB>checks-dir row per fixture tree",
			Knobs: []string{"GATE_SDK_KIT_DIRS", "GATE_SDK_KIT_TESTS_DIR"}, Family: Emit, Main: emitFixtureSuites},
	}
	arms = append(arms, Arm{Flag: "--hook", Synopsis: "<member>",
		Summary: "a coding harness's hook (commit-audit, commit-guard, edit-gates, git-dir-guard, stop-gates): the payload on stdin, the harness's exit protocol",
		// EVERY_HOOK_KNOB: the union of the member table's knob slices.
		Knobs:  harness.EveryHookKnob(""),
		Family: Run, FailOpen: true, Main: runHook})
	arms = append(arms, Arm{Flag: "--statusline", Synopsis: "",
		Summary: "a coding harness's status line: the hooks, the last battery's verdict, the accepted findings; always exit 0",
		Knobs:   []string{"GATE_SDK_GATES_DIR"},
		Family:  Run, FailOpen: true, Main: runStatusline})
	arms = append(arms, Arm{Flag: "--pack-installer", Synopsis: "<out-dir | out.tar.gz>",
		Summary: "assemble the installer payload: the kit roots at HEAD, one verified artifact per roster target, the roster, the installers",
		Knobs:   packKnobs, Family: Run, Main: runPackInstaller})
	arms = append(arms, hookAndSmokeArms()...)
	arms = append(arms, filesArm())
	arms = append(arms, graphArms()...)
	arms = append(arms, frontArms()...)
	sort.Slice(arms, func(i, j int) bool { return arms[i].Flag < arms[j].Flag })
	return arms
}

// lookupArm finds an arm by its exact flag.
func lookupArm(flag string) (Arm, bool) {
	for _, a := range armTable() {
		if a.Flag == flag {
			return a, true
		}
	}
	return Arm{}, false
}

// emitNames answers the names --emit <name> can compose.
func emitNames() []string {
	var out []string
	for _, a := range armTable() {
		if strings.HasPrefix(a.Flag, "--emit-") {
			out = append(out, strings.TrimPrefix(a.Flag, "--emit-"))
		}
	}
	return out
}

// normalize turns the front end's `--emit <name>` spelling into the arm's
// own `--emit-<name>` flag. It is the one place that still knows the argv
// opened with --emit, so an unknown name is refused here with the emit
// family rather than the gate roster.
func normalize(prog string, args []string) ([]string, error) {
	if len(args) == 0 || args[0] != "--emit" {
		return args, nil
	}
	if len(args) < 2 || args[1] == "" {
		return nil, usageError{msg: prog + ": --emit needs an arm name; emit arms: " + strings.Join(emitNames(), " ")}
	}
	flag := "--emit-" + args[1]
	if _, ok := lookupArm(flag); !ok {
		return nil, refusal{msg: fmt.Sprintf("%s: no emit arm %q%s\nemit arms: %s", prog, args[1], didYouMean(args[1], emitNames()), strings.Join(emitNames(), " "))}
	}
	return append([]string{flag}, args[2:]...), nil
}

// usageError is an argv-decidable refusal: the cause and the short usage
// on stderr, exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// refusal is a runtime refusal: the cause alone on stderr, exit 2.
type refusal struct{ msg string }

func (e refusal) Error() string { return e.msg }
