package cli

import (
	"io"

	"github.com/spf13/cobra"
)

// readableWords are the cobra aliases offered beside the spec's argv.
var readableWords = map[string]bool{"help": true, "completion": true, "run": true, "list": true, "version": true}

// readable serves `gates help`, `gates completion <shell>`, `gates run ...`,
// `gates list` and `gates version` through cobra. Each alias maps onto the
// same arm the flag spelling reaches; cobra prints no usage on a refusal
// and never picks the exit status.
func readable(s *Session, args []string) (int, bool) {
	if len(args) == 0 || !readableWords[args[0]] {
		return 0, false
	}
	code := 0
	root := &cobra.Command{
		Use:           "gates",
		Short:         "self-testing lint gates for prose, config and workflow surfaces",
		SilenceUsage:  true,
		SilenceErrors: true,
		ValidArgs:     append(gateNames(), "run", "list", "version"),
		Run:           func(*cobra.Command, []string) { writeUsage(s.Stdout) },
	}
	root.SetOut(s.Stdout)
	root.SetErr(s.Stderr)
	root.SetHelpFunc(func(*cobra.Command, []string) { writeUsage(s.Stdout) })
	root.AddCommand(
		&cobra.Command{Use: "run [<gates-dir>] [--for <path>... | --only <name>...]", Short: "run the battery",
			DisableFlagParsing: true,
			Run:                func(_ *cobra.Command, a []string) { code = runBattery(s, a) }},
		&cobra.Command{Use: "list", Short: "list the compiled gates", Args: cobra.NoArgs,
			Run: func(*cobra.Command, []string) { code = listRoster(s) }},
		&cobra.Command{Use: "version", Short: "print the build's source stamp", Args: cobra.NoArgs,
			Run: func(c *cobra.Command, _ []string) { io.WriteString(c.OutOrStdout(), "gates "+sourceStamp+"\n") }},
	)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		return s.fail(usageError{msg: "gates: " + err.Error()}), true
	}
	return code, true
}
