package frontpar

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/spawn"
)

func needShell(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Fatalf("%s is not on PATH; `make tools` installs it (the front-end parity arm runs under it)", name)
	}
}

// kit writes a throwaway kit whose bin/ holds the given files.
func kit(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"bin", "lib"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, "bin", name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func config(t *testing.T, kitDir string, shells []Shell, cases ...Case) Config {
	return Config{Kit: kitDir, Scratch: t.TempDir(), Shells: shells, Cases: cases, Env: os.Environ(),
		Present: func(sh Shell) bool { return spawn.OnPath(sh.Prog.Name(), nil) }}
}

// lookup reads a variable out of an environment list, last entry winning.
func lookup(env []string) spawn.LookupEnv {
	return func(name string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], name+"="); ok {
				return v, true
			}
		}
		return "", false
	}
}

func bashDash() []Shell { return Shells()[:2] }

// assertion D: a front end that means one thing under bash and another
// under dash is reported, naming the case and both shells.
func TestDivergenceIsAFinding(t *testing.T) {
	needShell(t, "dash")
	k := kit(t, map[string]string{"x.sh": "printf '%s\\n' $'tab'\n"})
	res, err := Run(config(t, k, bashDash(), Case{Name: "ansi-c quoting", Script: "bin/x.sh", WantText: "tab"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("want one finding, got %v", res.Findings)
	}
	f := res.Findings[0].String()
	if !strings.Contains(f, "ansi-c quoting: dash differs from bash: stdout line 1") || !strings.Contains(f, `"$tab"`) {
		t.Fatalf("finding %q does not name the case, the shells and the line", f)
	}
	var out bytes.Buffer
	if Report(&out, "FRONT-END-PARITY", HelpFrontEnd, res) != 1 || !strings.Contains(out.String(), "help: ") {
		t.Fatalf("a finding must exit 1 with a help line: %q", out.String())
	}
}

func TestExitCodeDivergence(t *testing.T) {
	needShell(t, "dash")
	k := kit(t, map[string]string{"x.sh": "[ a == a ] || exit 3\n"})
	res, err := Run(config(t, k, bashDash(), Case{Name: "double equals", Script: "bin/x.sh"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].What, "exit ") {
		t.Fatalf("want an exit-code finding, got %v", res.Findings)
	}
}

// assertion A, E: an absent shell is skipped and named; agreement is clean.
func TestAgreementIsCleanAndNamesSkips(t *testing.T) {
	k := kit(t, map[string]string{"x.sh": "printf 'ok %s\\n' \"$1\"; printf 'err\\n' >&2; exit 4\n"})
	cfg := config(t, k, Shells(), Case{Name: "plain", Script: "bin/x.sh", Args: []string{"a b"}, WantCode: 4, WantText: "ok a b"})
	inner := cfg.Present
	cfg.Present = func(sh Shell) bool { return sh.Name != "dash" && !sh.PS && inner(sh) }
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if Report(&out, "FRONT-END-PARITY", HelpFrontEnd, res) != 0 {
		t.Fatalf("agreeing shells reported: %q", out.String())
	}
	if !strings.Contains(out.String(), "skipped, not on this host: dash, pwsh") || !strings.HasPrefix(out.String(), "FRONT-END-PARITY: clean (1 case, ") {
		t.Fatalf("clean line %q must name the skipped shells", out.String())
	}
}

// assertion B: a shell that is present but cannot run is exit 2.
func TestPresentShellThatCannotRunRefuses(t *testing.T) {
	k := kit(t, map[string]string{"x.sh": "true\n"})
	broken := Shell{Name: "broken sh", Prog: spawn.Bash(), Probe: []string{"-c", "exit 3"}}
	_, err := Run(config(t, k, []Shell{Shells()[0], broken}, Case{Name: "c", Script: "bin/x.sh"}))
	if err == nil || !strings.Contains(err.Error(), "broken sh is on PATH but its probe") {
		t.Fatalf("want a refusal naming the shell, got %v", err)
	}
	// The reference itself missing is a refusal too, never a clean line.
	cfg := config(t, k, Shells()[:1], Case{Name: "c", Script: "bin/x.sh"})
	cfg.Present = func(Shell) bool { return false }
	if _, err := Run(cfg); err == nil || !strings.Contains(err.Error(), "reference shell bash is not on PATH") {
		t.Fatalf("want a refusal for the missing reference, got %v", err)
	}
}

// assertion C: all shells failing alike is not agreement: the reference
// must do what the case names.
func TestReferenceMustDoWhatTheCaseSays(t *testing.T) {
	k := kit(t, map[string]string{"x.sh": "exit 0\n"})
	_, err := Run(config(t, k, Shells()[:1], Case{Name: "refuses", Script: "bin/x.sh", WantCode: 2, WantText: "nope"}))
	if err == nil || !strings.Contains(err.Error(), "case refuses: the reference run under bash did not do what the case names") {
		t.Fatalf("got %v", err)
	}
}

// The PowerShell leg runs the .ps1 twin of a case's script. No PowerShell
// host is installable here, so a stand-in named pwsh (bash reading the
// twin) proves the leg is wired: a twin that says something else is a
// finding against pwsh.
func TestPowerShellLegRunsTheTwin(t *testing.T) {
	shim := t.TempDir()
	stub := "#!/usr/bin/env bash\ncase $3 in -Command) exit 0 ;; esac\nshift 3\nexec bash \"$@\"\n"
	if err := os.WriteFile(filepath.Join(shim, "pwsh"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	k := kit(t, map[string]string{"x.sh": "echo same\n", "x.ps1": "echo other\n"})
	pw := Shells()[3]
	cfg := config(t, k, []Shell{Shells()[0], pw}, Case{Name: "twin", Script: "bin/x.sh", PS: true, WantText: "same"}, Case{Name: "sh only", Script: "bin/x.sh", WantText: "same"})
	cfg.Env = append(os.Environ(), "PATH="+shim+string(os.PathListSeparator)+os.Getenv("PATH"))
	cfg.Present = func(sh Shell) bool { return spawn.OnPath(sh.Prog.Name(), lookup(cfg.Env)) }
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Shell != "pwsh" || res.Findings[0].Case != "twin" || res.Runs != 3 {
		t.Fatalf("want one pwsh finding on the twin case over 3 runs, got %+v (runs %d)", res.Findings, res.Runs)
	}
}

// The shipped corpus under the host's shells, through the scripts this
// tree ships: the parity the arm reports, minus the binary-backed cases
// (internal/e2e runs the arm itself with the binary).
func TestShippedFrontEndsAgree(t *testing.T) {
	needShell(t, "dash")
	needShell(t, "busybox")
	var cases []Case
	for _, c := range Corpus() {
		if c.Bin != "self" {
			cases = append(cases, c)
		}
	}
	root, err := filepath.Abs("../../kits/gate-sdk")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(t, root, Shells(), cases...)
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		t.Error(f)
	}
	if len(res.Ran) < 3 {
		t.Fatalf("ran under %v only", res.Ran)
	}
}

// RunCommand compares a command across the sh stand-ins.
func TestRunCommandComparesShStandIns(t *testing.T) {
	needShell(t, "dash")
	needShell(t, "busybox")
	cfg := CommandConfig{Argv: []string{"sh", "-c", "printf '%s\\n' $'q'"}, Dir: t.TempDir(), Scratch: t.TempDir(), Shells: ShStandIns(), Env: os.Environ(),
		Present: func(sh Shell) bool { return spawn.OnPath(sh.Prog.Name(), nil) },
		Locate: func(sh Shell) (string, error) {
			p, _ := spawn.Where(sh.Prog.Name(), nil)
			return p, nil
		}}
	res, err := RunCommand(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) == 0 || res.Findings[0].Shell != "dash as sh" || res.Ref.Stdout != "q\n" {
		t.Fatalf("want dash as sh to differ from bash as sh; got %+v, ref %q", res.Findings, res.Ref.Stdout)
	}
	cfg.Argv = []string{"sh", "-c", "echo same; exit 5"}
	cfg.Scratch = t.TempDir()
	res, err = RunCommand(cfg)
	if err != nil || len(res.Findings) != 0 || res.Ref.Code != 5 || res.Runs != 3 {
		t.Fatalf("agreeing command: %+v %v", res, err)
	}
	if _, err := RunCommand(CommandConfig{}); err == nil {
		t.Fatal("no command must refuse")
	}
}

// Issue 42 item 18: a case runs in its own scratch consumer, so the
// caller's GATE_SDK_* knobs (CI exports GATE_SDK_NATIVE_BIN for its test
// step) never reach it: the shipped cases agree with them exported.
func TestShippedCasesIgnoreTheCallersKnobs(t *testing.T) {
	needShell(t, "dash")
	var cases []Case
	for _, c := range Corpus() {
		if c.Bin != "self" {
			cases = append(cases, c)
		}
	}
	root, err := filepath.Abs("../../kits/gate-sdk")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(t, root, bashDash(), cases...)
	cfg.Env = append(cfg.Env, "GATE_SDK_NATIVE_BIN=/nonexistent/gates", "GATE_SDK_GATES_DIR=elsewhere")
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		t.Error(f)
	}
}
