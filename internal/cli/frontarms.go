package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/frontpar"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
)

// frontArms answers the shell-parity arms and the port-blockers emitter.
func frontArms() []Arm {
	return []Arm{
		{Flag: "--run-front-end-parity", Synopsis: "",
			Summary: "run the kit's sh front ends under bash, dash and busybox sh (the PowerShell twin under pwsh) over one case corpus and compare the transcripts",
			Knobs:   []string{"GATE_SDK_TMP_DIR", "GATE_SDK_KIT_DIRS"}, Family: Run, Main: runFrontEndParity},
		{Flag: "--with-foreign-shells", Synopsis: "<command> [<arg>...]",
			Summary: "run a command once with each of bash, dash and busybox as the sh on PATH, and compare the transcripts",
			Knobs:   []string{"GATE_SDK_TMP_DIR"}, Family: Run, Main: runWithForeignShells},
		{Flag: "--emit-port-blockers", Synopsis: "[--gates-dir <dir>] [--group | --tree]",
			Summary: "print which registered gates are still shell and what each requires beyond the program floor (--group: partition the still-shell members; --tree: every tracked .sh with its port disposition)",
			Knobs:   []string{"GATE_SDK_GATES_DIR", "GATE_SDK_KIT_DIRS", "GATE_SDK_PROGRAM_FLOOR", "GATE_SDK_TESTS_DIR", "GATE_SDK_KIT_TESTS_DIR", "GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS", "EVERY_REGISTERED_KNOB"},
			Family:  Emit, Main: emitPortBlockers},
	}
}

// shellEnv is a child environment with none of this tree's configuration:
// no GATE_SDK_ knob, no git steering variable, the C locale.
func shellEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GATE_SDK_") || strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "LC_") || strings.HasPrefix(kv, "LANG=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "GIT_CONFIG_NOSYSTEM=1")
}

func shellPresent(env func(string) (string, bool)) func(frontpar.Shell) bool {
	return func(sh frontpar.Shell) bool { return spawn.OnPath(sh.Prog.Name(), env) }
}

func runFrontEndParity(s *Session, args []string) int {
	const id = "FRONT-END-PARITY"
	if !noOperands(s, "--run-front-end-parity", args) {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(s.Stderr, "%s: could not run: %v\n", id, err)
		return 2
	}
	roots, err := s.KitRoots()
	if err != nil {
		return fail(err)
	}
	kit := ""
	for _, r := range roots.Abs() {
		if isFile(registry.Join(r, "bin/run-gates.sh")) && isFile(registry.Join(r, "bin/install.sh")) {
			kit = r
			break
		}
	}
	if kit == "" {
		return fail(fmt.Errorf("no kit root carries bin/run-gates.sh and bin/install.sh (kit roots: %s)", strings.Join(roots.Paths(), " ")))
	}
	self, err := spawn.SelfPath()
	if err != nil {
		return fail(err)
	}
	scratch, err := s.scratchDir("front-end-parity-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(scratch)
	res, err := frontpar.Run(frontpar.Config{Kit: kit, Scratch: scratch, Binary: self, Shells: frontpar.Shells(),
		Cases: frontpar.Corpus(), Present: shellPresent(s.Env), Env: shellEnv()})
	if err != nil {
		return fail(err)
	}
	return frontpar.Report(s.Stdout, id, frontpar.HelpFrontEnd, res)
}

func runWithForeignShells(s *Session, args []string) int {
	const id = "WITH-FOREIGN-SHELLS"
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return s.fail(usageError{msg: s.prog + ": --with-foreign-shells needs a command to run"})
	}
	fail := func(err error) int {
		fmt.Fprintf(s.Stderr, "%s: could not run: %v\n", id, err)
		return 2
	}
	cwd, err := s.Cwd()
	if err != nil {
		return fail(err)
	}
	scratch, err := s.scratchDir("foreign-shells-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(scratch)
	var stdin []byte
	if s.Stdin != nil {
		if stdin, err = io.ReadAll(s.Stdin); err != nil {
			return fail(fmt.Errorf("reading stdin: %w", err))
		}
	}
	env := os.Environ()
	res, err := frontpar.RunCommand(frontpar.CommandConfig{Argv: args, Dir: cwd, Scratch: scratch, Shells: frontpar.ShStandIns(),
		Present: shellPresent(s.Env), Env: env, Stdin: stdin,
		Locate: func(sh frontpar.Shell) (string, error) {
			p, ok := spawn.Where(sh.Prog.Name(), s.Env)
			if !ok {
				return "", fmt.Errorf("%s does not resolve on PATH", sh.Prog.Name())
			}
			return p, nil
		}})
	if err != nil {
		return fail(err)
	}
	// The command's own output once (every shell agreed on it, or the
	// reference's when they did not), then the verdict on stderr.
	io.WriteString(s.Stdout, res.Ref.Stdout)
	io.WriteString(s.Stderr, res.Ref.Stderr)
	if frontpar.Report(s.Stderr, id, frontpar.HelpCommand, res.Result) != 0 {
		return 1
	}
	return res.Ref.Code
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
