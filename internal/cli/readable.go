package cli

import (
	"fmt"
	"io"

	"github.com/gate-sdk/gates/internal/payload"

	"github.com/spf13/cobra"
)

// command is one readable word offered beside the spec's argv: `gates
// help`, `gates run ...`. The usage text, dispatch and the cobra tree the
// completion scripts are generated from all read this one table.
type command struct {
	Name     string
	Synopsis string
	Summary  string
	// Usage, when set, is the word's own help text, printed for --help in
	// place of the synopsis and summary.
	Usage string
	// Main runs the word with the operands after it; cobra parses nothing.
	Main func(s *Session, args []string) int
}

// commandTable answers the readable words in the order the usage lists them.
func commandTable() []command {
	return []command{
		{Name: "help", Synopsis: "[<gate> | <arm> | <command>]", Summary: "this text, or one gate's, arm's or command's help", Main: runHelp},
		{Name: "run", Synopsis: "[<gates-dir>] [--shard <K>/<N>] [--for <path>... | --only <name>...]", Summary: "the battery (the same as --run)", Main: runBattery},
		{Name: "list", Summary: "the compiled gates and their owning kit (the same as --list)", Main: listArm},
		{Name: "knobs", Synopsis: "[<gate>...]", Summary: "every knob with its current value, where it came from and what it does, grouped by the gates that read it", Main: runKnobs},
		{Name: "init", Synopsis: "[--dry-run] [--hooks] [--harness claude] | --uninstall [--dry-run]", Summary: "vendor the kit this binary carries, place the binary and write a first configuration the battery is green and honest on; --uninstall reverses it", Usage: payload.InitUsage + initHarnessUsage, Main: runInit},
		{Name: "doctor", Summary: "name each registered gate that asserts nothing yet and the knob arming it, programs the host lacks, the hooks' state, and a kit older or newer than the binary", Usage: payload.DoctorUsage, Main: runDoctor},
		{Name: "new", Synopsis: "<name>", Summary: "scaffold a gate of this repository's own from the kit's skeleton: the gate, its good/ and bad/ fixture pair with expect.txt, and its registration", Usage: newUsage, Main: runNew},
		{Name: "baseline", Synopsis: "[--prune]", Summary: "record the registered gates' findings of today in the gates dir's gates.baseline, so they are counted instead of red; --prune drops entries nothing matches", Usage: baselineUsage, Main: runBaseline},
		{Name: "version", Summary: "the release and the build's source stamp (the same as --version and -v)", Main: versionArm},
		{Name: "completion", Synopsis: "bash | zsh | fish | powershell", Summary: "print a shell completion script; source it to complete gates, arms, emit names and knobs", Main: runCompletion},
	}
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commandTable() {
		if c.Name == name {
			return c, true
		}
	}
	return command{}, false
}

// completeWords are cobra's hidden completion entry points, which the
// generated shell scripts call back into.
var completeWords = map[string]bool{cobra.ShellCompRequestCmd: true, cobra.ShellCompNoDescRequestCmd: true}

// readable serves a readable word, or cobra's completion request.
func readable(s *Session, args []string) (int, bool) {
	if len(args) == 0 {
		return 0, false
	}
	if completeWords[args[0]] {
		root := s.commandTree()
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			fmt.Fprintf(s.Stderr, "%s: %v\n", s.prog, err)
			return 2, true
		}
		return 0, true
	}
	c, ok := lookupCommand(args[0])
	if !ok {
		return 0, false
	}
	if isHelp(args[1:]) && c.Name != "help" {
		writeCommandHelp(s.Stdout, c)
		return 0, true
	}
	return c.Main(s, args[1:]), true
}

// commandTree builds the cobra tree the completion scripts are generated
// from and answer through. Every command disables cobra's flag parsing: the
// grammar stays the hand-written one, and a readable word runs its Main
// directly (readable), so cobra only offers candidates and writes scripts.
func (s *Session) commandTree() *cobra.Command {
	root := &cobra.Command{
		Use:                "gates",
		Short:              "self-testing lint gates for prose, config and workflow surfaces",
		SilenceUsage:       true,
		SilenceErrors:      true,
		DisableFlagParsing: true,
		Args:               cobra.ArbitraryArgs,
		CompletionOptions:  cobra.CompletionOptions{DisableDefaultCmd: true},
		ValidArgsFunction: func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return s.complete(args, toComplete)
		},
		Run: func(*cobra.Command, []string) { writeUsage(s.Stdout, s.prog) },
	}
	root.SetOut(s.Stdout)
	root.SetErr(s.Stderr)
	for _, c := range commandTable() {
		c := c
		sub := &cobra.Command{
			Use:                c.Name,
			Short:              c.Summary,
			DisableFlagParsing: true,
			Args:               cobra.ArbitraryArgs,
			ValidArgsFunction: func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return s.completeCommand(c.Name, args, toComplete)
			},
			// A Run makes the word an available command, which completion lists.
			Run: func(*cobra.Command, []string) {},
		}
		if c.Name == "help" {
			// cobra keeps a help command of its own unless it is given one.
			root.SetHelpCommand(sub)
			continue
		}
		root.AddCommand(sub)
	}
	return root
}

// runCompletion prints the completion script of one shell.
func runCompletion(s *Session, args []string) int {
	const usage = "usage: gates completion bash | zsh | fish | powershell"
	if len(args) != 1 {
		fmt.Fprintf(s.Stderr, "%s: completion takes one shell name\n%s\n", s.prog, usage)
		return 2
	}
	root := s.commandTree()
	var err error
	switch args[0] {
	case "bash":
		err = root.GenBashCompletionV2(s.Stdout, true)
	case "zsh":
		err = root.GenZshCompletion(s.Stdout)
	case "fish":
		err = root.GenFishCompletion(s.Stdout, true)
	case "powershell":
		err = root.GenPowerShellCompletionWithDesc(s.Stdout)
	default:
		fmt.Fprintf(s.Stderr, "%s: completion: no shell named %q\n%s\n", s.prog, args[0], usage)
		return 2
	}
	if err != nil {
		return s.fail(err)
	}
	return 0
}

// versionArm is --version, -v and `gates version`.
func versionArm(s *Session, args []string) int {
	if !noOperands(s, "version", args) {
		return 2
	}
	fmt.Fprintln(s.Stdout, versionLine())
	return 0
}

// listArm is --list and `gates list`.
func listArm(s *Session, args []string) int {
	if len(args) > 0 {
		return s.fail(usageError{msg: fmt.Sprintf("%s: --list takes no operand, got %q", s.prog, args[0])})
	}
	return listRoster(s)
}

func writeCommandHelp(w io.Writer, c command) {
	if c.Usage != "" {
		fmt.Fprintln(w, c.Usage)
		fmt.Fprintln(w, "\nexit status: 0 success, 1 a gate found a violation, 2 the command could not run.")
		return
	}
	line := "gates " + c.Name
	if c.Synopsis != "" {
		line += " " + c.Synopsis
	}
	fmt.Fprintf(w, "usage: %s\n\n%s\n", line, c.Summary)
	fmt.Fprintln(w, "\nexit status: 0 success, 1 a gate found a violation, 2 the command could not run.")
}
