// Package frontpar runs the kit's front ends under every shell the host
// carries and compares what each shell made of the same case.
//
// A case is one invocation of a front end (bin/run-gates.sh or
// bin/install.sh) in a fresh scratch directory, with fixed arguments,
// stdin and environment. Each present shell runs every case it applies to
// in the same scratch path, rebuilt before every run, so two transcripts
// (exit code, stdout, stderr, CRLF read as LF) are comparable byte for
// byte. bash is the reference: its transcript must do what the case says
// (else the arm cannot judge and exits 2); every other shell's transcript
// must equal it (else a finding naming the case and both shells).
//
// The PowerShell twins run under pwsh over the cases marked for them. A
// shell that is not on PATH is skipped and named on the clean line; a
// shell that is on PATH and cannot run (its probe fails, or a case's start
// fails) is exit 2, never a skip.
package frontpar

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/spawn"
)

// Shell is one interpreter a front end can be handed to.
type Shell struct {
	Name string        // as findings and the clean line name it
	Prog spawn.Program // what is started
	Pre  []string      // arguments before the script path
	// Probe is the argv (after Prog) that must exit 0 when the shell runs.
	Probe []string
	// PS marks PowerShell: it runs the .ps1 twin of the case's script.
	PS bool
}

// Shells answers every shell the arm knows, the reference first.
func Shells() []Shell {
	return []Shell{
		{Name: "bash", Prog: spawn.Bash(), Probe: []string{"-c", ":"}},
		{Name: "dash", Prog: spawn.Dash(), Probe: []string{"-c", ":"}},
		{Name: "busybox sh", Prog: spawn.Busybox(), Pre: []string{"sh"}, Probe: []string{"sh", "-c", ":"}},
		{Name: "pwsh", Prog: spawn.Pwsh(), Pre: []string{"-NoProfile", "-NonInteractive", "-File"}, Probe: []string{"-NoProfile", "-NonInteractive", "-Command", "exit 0"}, PS: true},
	}
}

// Case is one invocation of a front end.
type Case struct {
	Name   string
	Script string   // kit-relative sh front end, e.g. "bin/run-gates.sh"
	Args   []string // after the script path
	Stdin  string
	Repo   bool   // the scratch is a git repository with one commit
	Sub    string // run from this subdirectory of the scratch (created)
	// Bin places GATE_SDK_NATIVE_BIN: "" leaves it unset, "self" names
	// the gates binary under test, "empty" an empty executable file.
	Bin string
	// Setup shapes the scratch further (after the kit is copied in).
	Setup func(dir string) error
	// PS runs the case under PowerShell too, against the script's twin.
	PS bool
	// WantCode and WantText are what the reference transcript must show:
	// the exit code and a fragment of stdout+stderr.
	WantCode int
	WantText string
}

// Transcript is what one shell made of one case.
type Transcript struct {
	Code           int
	Stdout, Stderr string
}

func (t Transcript) lines(stream string) []string {
	s := t.Stdout
	if stream == "stderr" {
		s = t.Stderr
	}
	return strings.Split(s, "\n")
}

// Config is one parity run.
type Config struct {
	Kit     string // the kit root whose bin/ and lib/ are vendored into each case
	Scratch string // an empty directory the cases are built in
	Binary  string // the gates binary a "self" case names
	Shells  []Shell
	Cases   []Case
	// Present answers whether a shell's program is on the PATH of Env.
	Present func(Shell) bool
	Env     []string // the base environment of every case and probe
}

// Finding is one divergence: a case on which a shell's transcript differs
// from the reference's.
type Finding struct {
	Case, Shell, Ref string
	What             string // "exit 1 vs 0", or the first differing line
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s differs from %s: %s", f.Case, f.Shell, f.Ref, f.What)
}

// Result is a completed run.
type Result struct {
	Ran      []string // shells that ran, reference first
	Skipped  []string // shells not on this host
	Cases    int
	Runs     int
	Findings []Finding
}

// Run executes every case under every present shell. The error is the
// arm's exit 2: the reference is missing, a present shell cannot run, or
// the reference did not do what a case says.
func Run(cfg Config) (Result, error) {
	var res Result
	var shells []Shell
	for _, sh := range cfg.Shells {
		if cfg.Present != nil && !cfg.Present(sh) {
			// assertion A: an absent shell is a named skip.
			res.Skipped = append(res.Skipped, sh.Name)
			continue
		}
		// assertion B: a present shell that cannot run is exit 2.
		if err := probe(sh, cfg.Env); err != nil {
			return res, err
		}
		shells = append(shells, sh)
		res.Ran = append(res.Ran, sh.Name)
	}
	if len(shells) == 0 || shells[0].Name != cfg.Shells[0].Name {
		return res, fmt.Errorf("the reference shell %s is not on PATH; nothing can be compared", cfg.Shells[0].Name)
	}
	res.Cases = len(cfg.Cases)
	caseDir := filepath.Join(cfg.Scratch, "case")
	for _, c := range cfg.Cases {
		var ref Transcript
		for i, sh := range shells {
			if sh.PS && !c.PS {
				continue
			}
			script := c.Script
			if sh.PS {
				script = strings.TrimSuffix(script, ".sh") + ".ps1"
			}
			t, err := runCase(cfg, c, sh, script, caseDir)
			if err != nil {
				return res, fmt.Errorf("case %s under %s: %w", c.Name, sh.Name, err)
			}
			res.Runs++
			if i == 0 {
				// assertion C: the reference must do what the case names.
				if t.Code != c.WantCode || !strings.Contains(t.Stdout+t.Stderr, c.WantText) {
					return res, fmt.Errorf("case %s: the reference run under %s did not do what the case names (want exit %d and %q; got exit %d, stdout %q, stderr %q)",
						c.Name, sh.Name, c.WantCode, c.WantText, t.Code, t.Stdout, t.Stderr)
				}
				ref = t
				continue
			}
			// assertion D: any byte of difference is a finding.
			if what := diff(ref, t); what != "" {
				res.Findings = append(res.Findings, Finding{Case: c.Name, Shell: sh.Name, Ref: shells[0].Name, What: what})
			}
		}
	}
	return res, nil
}

// probe starts the shell once under the environment its cases run in.
func probe(sh Shell, env []string) error {
	done, err := spawn.Run(spawn.Cmd{Program: sh.Prog, Args: sh.Probe, Env: env})
	if err != nil {
		return fmt.Errorf("%s is on PATH but cannot be started: %w", sh.Name, err)
	}
	if !done.Succeeded() {
		rep, _ := done.FailureReport()
		return fmt.Errorf("%s is on PATH but its probe (%s %s) failed: %s", sh.Name, sh.Prog.Name(), strings.Join(sh.Probe, " "), rep)
	}
	return nil
}

// runCase rebuilds the scratch and runs one case under one shell.
func runCase(cfg Config, c Case, sh Shell, script, dir string) (Transcript, error) {
	if err := os.RemoveAll(dir); err != nil {
		return Transcript{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Transcript{}, err
	}
	for _, sub := range []string{"bin", "lib"} {
		if err := copyFlat(filepath.Join(cfg.Kit, sub), filepath.Join(dir, "gate-sdk", sub)); err != nil {
			return Transcript{}, err
		}
	}
	// A case is its own scratch consumer: the caller's GATE_SDK_* knobs
	// name the caller's tree (CI exports GATE_SDK_NATIVE_BIN), so none
	// reaches a case; what a case needs it sets below.
	var env []string
	for _, kv := range cfg.Env {
		if !strings.HasPrefix(kv, "GATE_SDK_") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+dir, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	switch c.Bin {
	case "self":
		env = append(env, "GATE_SDK_NATIVE_BIN="+cfg.Binary)
	case "empty":
		p := filepath.Join(dir, "empty-gates")
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			return Transcript{}, err
		}
		env = append(env, "GATE_SDK_NATIVE_BIN="+p)
	}
	if c.Repo {
		if err := gitInit(dir, env); err != nil {
			return Transcript{}, err
		}
	}
	if c.Setup != nil {
		if err := c.Setup(dir); err != nil {
			return Transcript{}, err
		}
	}
	cwd := dir
	if c.Sub != "" {
		cwd = filepath.Join(dir, filepath.FromSlash(c.Sub))
		if err := os.MkdirAll(cwd, 0o755); err != nil {
			return Transcript{}, err
		}
	}
	args := append(append(append([]string(nil), sh.Pre...), filepath.Join(dir, "gate-sdk", filepath.FromSlash(script))), c.Args...)
	r := spawn.RunStreamed(spawn.Cmd{Program: sh.Prog, Args: args, Dir: cwd, Env: env}, []byte(c.Stdin))
	if err := r.StartErr(); err != nil {
		return Transcript{}, err
	}
	lf := func(b []byte) string { return string(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))) }
	return Transcript{Code: r.Code(), Stdout: lf(r.Stdout()), Stderr: lf(r.Stderr())}, nil
}

// gitInit makes dir a repository with one commit.
func gitInit(dir string, env []string) error {
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", "."},
		{"-c", "user.name=parity", "-c", "user.email=parity@example.invalid", "commit", "-q", "--allow-empty", "-m", "init"},
	} {
		done, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: dir, Env: env})
		if err != nil {
			return err
		}
		if rep, failed := done.FailureReport(); failed {
			return fmt.Errorf("git %s: %s", args[0], rep)
		}
	}
	return nil
}

// copyFlat copies the regular files of one directory, modes kept.
func copyFlat(from, to string) error {
	ents, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

// diff answers the first difference between two transcripts, "" if none.
func diff(ref, got Transcript) string {
	if ref.Code != got.Code {
		return fmt.Sprintf("exit %d vs %d", got.Code, ref.Code)
	}
	for _, stream := range []string{"stdout", "stderr"} {
		a, b := ref.lines(stream), got.lines(stream)
		for i := 0; i < len(a) || i < len(b); i++ {
			var x, y string
			if i < len(a) {
				x = a[i]
			}
			if i < len(b) {
				y = b[i]
			}
			if x != y || (i >= len(a)) != (i >= len(b)) {
				return fmt.Sprintf("%s line %d: %q vs %q", stream, i+1, y, x)
			}
		}
	}
	return ""
}

// Help lines of the two arms' one failure class.
const (
	HelpFrontEnd = "make the front end mean one thing under every shell (POSIX sh only in a #!/bin/sh script; a bash script hands itself to bash), then re-run gates --run-front-end-parity"
	HelpCommand  = "the command's meaning depends on which shell is sh: keep what it runs to POSIX sh, or have it start bash by name"
)

// Report prints the findings and the help line, or the clean line.
func Report(w io.Writer, id, help string, res Result) int {
	if len(res.Findings) > 0 {
		for _, f := range res.Findings {
			fmt.Fprintln(w, f.String())
		}
		fmt.Fprintln(w, "help: "+help)
		return 1
	}
	skipped := "none skipped"
	if len(res.Skipped) > 0 {
		s := append([]string(nil), res.Skipped...)
		sort.Strings(s)
		skipped = "skipped, not on this host: " + strings.Join(s, ", ")
	}
	// assertion E: the clean line names every shell that ran and every one skipped.
	fmt.Fprintf(w, "%s: clean (%s, %s, one transcript under %s; %s)\n", id, count(res.Cases, "case"), count(res.Runs, "run"), strings.Join(res.Ran, ", "), skipped)
	return 0
}

// ShStandIns answers the shells --with-foreign-shells stands in as `sh`:
// bash in its sh mode (the reference), dash and busybox. Each is started
// through a link named sh, so the command's own `sh` and `#!/usr/bin/env sh`
// reach it.
func ShStandIns() []Shell {
	all := Shells()
	return []Shell{all[0], all[1], all[2]}
}

// CommandConfig is one --with-foreign-shells run.
type CommandConfig struct {
	Argv    []string // the command and its operands
	Dir     string   // the command's working directory
	Scratch string   // an empty directory holding one bin/ per shell
	Shells  []Shell
	Present func(Shell) bool
	// Locate answers the absolute path of a present shell's program.
	Locate func(Shell) (string, error)
	Env    []string // the base environment; PATH is prefixed per shell
	Stdin  []byte
}

// CommandResult is a completed command run; Ref is the reference
// shell's transcript (equal to every other's when Findings is empty).
type CommandResult struct {
	Result
	Ref Transcript
}

// RunCommand runs the command once per present stand-in, each time with
// a directory first on PATH whose `sh` is that shell, and compares the
// transcripts to the reference's.
func RunCommand(cfg CommandConfig) (CommandResult, error) {
	var res CommandResult
	if len(cfg.Argv) == 0 {
		return res, fmt.Errorf("no command given")
	}
	prog, err := spawn.ConsumerCommand(cfg.Argv[0], "the --with-foreign-shells operand")
	if err != nil {
		return res, err
	}
	res.Cases = 1
	for i, sh := range cfg.Shells {
		if cfg.Present != nil && !cfg.Present(sh) {
			if i == 0 {
				return res, fmt.Errorf("the reference shell %s is not on PATH; nothing can be compared", sh.Name)
			}
			res.Skipped = append(res.Skipped, sh.Name)
			continue
		}
		if err := probe(sh, cfg.Env); err != nil {
			return res, err
		}
		target, err := cfg.Locate(sh)
		if err != nil {
			return res, fmt.Errorf("%s is on PATH but cannot be located: %w", sh.Name, err)
		}
		bin := filepath.Join(cfg.Scratch, strings.ReplaceAll(sh.Name, " ", "-"), "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			return res, err
		}
		if err := os.Symlink(target, filepath.Join(bin, "sh")); err != nil {
			return res, err
		}
		env := prefixPath(cfg.Env, bin)
		r := spawn.RunStreamed(spawn.Cmd{Program: prog, Args: cfg.Argv[1:], Dir: cfg.Dir, Env: env}, cfg.Stdin)
		if err := r.StartErr(); err != nil {
			return res, err
		}
		t := Transcript{Code: r.Code(), Stdout: string(r.Stdout()), Stderr: string(r.Stderr())}
		res.Ran = append(res.Ran, sh.Prog.Name()+" as sh")
		res.Runs++
		if len(res.Ran) == 1 {
			res.Ref = t
			continue
		}
		if what := diff(res.Ref, t); what != "" {
			res.Findings = append(res.Findings, Finding{Case: strings.Join(cfg.Argv, " "), Shell: sh.Prog.Name() + " as sh", Ref: res.Ran[0], What: what})
		}
	}
	return res, nil
}

// prefixPath answers env with dir first on its PATH.
func prefixPath(env []string, dir string) []string {
	out := make([]string, 0, len(env)+1)
	path := dir
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = dir + string(os.PathListSeparator) + v
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path)
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
