// Package cli is the binary's command line: the spec's argv grammar, driven
// by one arm table, and dispatch of a gate subcommand to its in-process rule.
//
// The grammar is the interface every front end, placed hook and harness
// registration calls, so it is parsed here by hand: `-h`/`--help` first is
// usage on stdout at exit 0; an unknown option is a short refusal with a
// did-you-mean on stderr at exit 2; `--` ends options; an unknown gate or
// arm is exit 2 with the nearest name and a pointer to --list.
// The readable words (`gates help`, `gates knobs`, ...) run their arm
// directly; cobra only writes the shell completion scripts and answers
// their `__complete` callback, and never decides an exit status.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gates"
	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/registry"
)

// sourceStamp is the source stamp (repo.SourceStamp of the module the
// binary was built from), baked in at build time with -ldflags -X by the
// Makefile and the build script. A plain `go build` leaves it empty: such a
// binary cannot say what it was built from, and --source-stamp refuses.
var sourceStamp = ""

// IO is the process's standard streams and environment.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Env    func(string) (string, bool)
	// Name is the name the user invoked, which every refusal opens with:
	// "gates" for the binary (the default), "run-gates" through the front end.
	Name string
}

// Main runs the binary with args (without argv[0]) and answers the exit status.
func Main(args []string, sio IO) int {
	env := sio.Env
	if env == nil {
		env = os.LookupEnv
	}
	colour := colourWanted(isTerminal(sio.Stdout), env)
	live := progressWanted(isTerminal(sio.Stderr), env)
	sio.Stdout = &departedWriter{w: sio.Stdout}
	var cw *colourWriter
	if colour && !wantsDocument(args) {
		cw = &colourWriter{w: sio.Stdout}
		sio.Stdout = cw
	}
	s := newSession(sio)
	s.liveStderr = live
	defer s.close()
	code := dispatch(s, args)
	if cw != nil {
		cw.Flush()
	}
	return code
}

// wantsDocument reports whether argv asks for a machine document (--format
// json, an --emit projection, the completion protocol), which is never
// coloured.
func wantsDocument(args []string) bool {
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == "--format=json" || a == "--format" && i+1 < len(args) && args[i+1] == "json" {
			return true
		}
	}
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "--emit", strings.HasPrefix(a, "--emit-"), a == "--hook", a == "--statusline", a == "completion", completeWords[a]:
			return true
		}
	}
	return false
}

func dispatch(s *Session, args []string) int {
	if len(args) == 0 {
		writeUsage(s.Stdout, s.prog)
		return 0
	}
	// assertion C: --emit <name> becomes --emit-<name> once, before dispatch.
	if args[0] == "--emit" && isHelp(args[1:min(2, len(args))]) {
		// The emit family's own help: its arms, each with what it prints.
		writeEmitHelp(s.Stdout)
		return 0
	}
	args, err := normalize(s.prog, args)
	if err != nil {
		return s.fail(err)
	}
	head := args[0]
	switch head {
	case "-h", "--help":
		// assertion A: help first is usage on stdout, exit 0.
		writeUsage(s.Stdout, s.prog)
		return 0
	case "--list":
		// assertion F: the roster with each member's owner.
		return listArm(s, args[1:])
	case "--version", "-v":
		return versionArm(s, args[1:])
	case "--source-stamp":
		// assertion K: an unstamped build answers no stamp, exit 2.
		if len(args) > 1 {
			return s.fail(usageError{msg: fmt.Sprintf("run-gates: --source-stamp takes no operand, got %q", args[1])})
		}
		if sourceStamp == "" {
			return s.fail(refusal{msg: "gates: this binary carries no source stamp (it was built without the stamp: build it with make build, which bakes it in with -ldflags -X)"})
		}
		fmt.Fprintln(s.Stdout, sourceStamp)
		return 0
	case githook.HandshakeFlag:
		// assertion I: the front ends' and the hook placer's proof that a
		// file answers as this binary: the nonce they drew, echoed after a
		// fixed lead. An empty or truncated file answers nothing.
		if len(args) != 2 || args[1] == "" {
			return s.fail(refusal{msg: "usage: gates " + githook.HandshakeFlag + " <nonce>"})
		}
		fmt.Fprintln(s.Stdout, githook.HandshakeReply(args[1]))
		return 0
	}
	if arm, ok := lookupArm(head); ok {
		// assertion C: help asked of an arm is its own help, whatever its grammar.
		// A paths-only arm's operands are paths whatever their spelling
		// (its help is `gates help <arm>`).
		if !arm.Paths && len(args) > 1 && (args[1] == "-h" || args[1] == "--help") {
			s.writeArmHelp(s.Stdout, arm)
			return 0
		}
		if arm.Family != Emit {
			return arm.Main(s, args[1:])
		}
		// A projection is its stdout: one that could not be written whole
		// (a full disk) is no projection, whatever the arm concluded.
		out := &writeFailure{w: s.Stdout}
		s.Stdout = out
		code := arm.Main(s, args[1:])
		s.Stdout = out.w
		if code == 0 && out.err != nil {
			fmt.Fprintf(s.Stderr, "%s: %s: the projection was not written whole: %v\n", s.prog, head, out.err)
			code = 2
		}
		// assertion D: an emit arm answers 0 or 2.
		if code != 0 {
			return 2
		}
		return code
	}
	if strings.HasPrefix(head, "-") {
		// Every other leading-dash token belongs to the battery's grammar,
		// which owns the selectors and the unrecognized-option refusal.
		return runBattery(s, args)
	}
	if def, ok := findGate(head); ok {
		// A gate's operand that asks for help is never handed to the rule.
		if isHelp(args[1:]) {
			s.writeGateHelp(s.Stdout, def)
			return 0
		}
		return runStandalone(s, def, args[1:])
	}
	if code, ok := readable(s, args); ok {
		return code
	}
	if m, ok := s.registeredShell(head); ok {
		return runShellStandalone(s, m, args[1:])
	}
	if hint := s.unregisteredHint(head); hint != "" {
		return s.fail(refusal{msg: hint})
	}
	// assertion E: an unknown first token names the compiled roster.
	return s.fail(refusal{msg: fmt.Sprintf("%s: no gate or arm named %q%s\nrun `gates --list` for the compiled gates, `gates --help` for the arms and commands", s.prog, head, didYouMean(head, firstWords()))})
}

// fail prints err the way its class asks and answers exit 2.
func (s *Session) fail(err error) int {
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintln(s.Stderr, u.msg)
		writeShortUsage(s.Stderr, s.prog)
		return 2
	}
	fmt.Fprintln(s.Stderr, strings.TrimRight(err.Error(), "\n"))
	return 2
}

func findGate(name string) (gate.Def, bool) { return gates.Find(name) }

func gateNames() []string {
	var out []string
	for _, d := range gates.All() {
		out = append(out, d.Name)
	}
	sort.Strings(out)
	return out
}

// listedGates answers the compiled gates this tree can run, sorted by
// name: every gate a kit ships, and a publisher-only gate (no kit ships
// its descriptor) only where its descriptor resolves in this tree's
// declaration dirs, as it does in the publisher's own gates dir. Anywhere
// else it has no declaration to run under and would only exit 2.
func (s *Session) listedGates() []gate.Def {
	var out []gate.Def
	var gatesDir string
	var roots []string
	located := false
	for _, d := range gates.All() {
		if d.Owner == "" {
			if !located {
				located = true
				gatesDir, _ = s.GatesDir()
				if r, err := s.KitRoots(); err == nil {
					roots = r.Paths()
				}
			}
			if gatesDir == "" {
				continue
			}
			res, err := registry.Resolve(s.regFS(), d.Name, gatesDir, roots)
			if err != nil || res.Kind == registry.Unresolved {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// listedNames answers listedGates' names.
func (s *Session) listedNames() []string {
	var out []string
	for _, d := range s.listedGates() {
		out = append(out, d.Name)
	}
	return out
}

// listRoster prints every compiled gate this tree can run and the kit
// that declares it, or the owner sentinel "-" for a member declared in a
// consumer gates dir (the publisher's own among them).
func listRoster(s *Session) int {
	for _, d := range s.listedGates() {
		owner := d.Owner
		if owner == "" {
			owner = "-"
		}
		fmt.Fprintf(s.Stdout, "%s\t%s\n", d.Name, owner)
	}
	return 0
}

// versionStamp answers the stamp --version shows, "unstamped" for a plain build.
func versionStamp() string {
	if sourceStamp == "" {
		return "unstamped"
	}
	return sourceStamp
}

// writeUsage prints the top-level usage: the grammar, every arm of the arm
// table and every readable word of the command table.
func writeUsage(w io.Writer, prog string) {
	fmt.Fprintln(w, "usage: gates <gate> [<arg>...]            run one gate over the working directory")
	fmt.Fprintln(w, "       gates --run [<gates-dir>]          run the registered battery (gates run, too)")
	fmt.Fprintln(w, "       gates --for <path>...              run the gates whose manifests couple to the paths")
	fmt.Fprintln(w, "       gates --only <name>... [-- <arg>...] run the named registered gates")
	fmt.Fprintln(w, "       gates --emit <name> [<arg>...]     print a projection")
	fmt.Fprintln(w, "       gates --list                       list the compiled gates and their owning kit")
	fmt.Fprintln(w, "       gates -v | --version               the release and the build's source stamp")
	fmt.Fprintln(w, "       gates [-h | --help]                this text; gates <gate> --help and gates <arm> --help for one")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "arms:")
	for _, a := range armTable() {
		fmt.Fprintf(w, "  %s\n      %s\n", armSpelling(a), a.Summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commandTable() {
		line := c.Name
		if c.Synopsis != "" {
			line += " " + c.Synopsis
		}
		fmt.Fprintf(w, "  gates %s\n      %s\n", line, c.Summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "gates and battery runs take --format text|json; the text is the default.")
	fmt.Fprintln(w, "exit status: 0 clean, 1 a gate found a violation, 2 the command could not run.")
	if prog != "gates" {
		fmt.Fprintf(w, "(%s passes its arguments to the gates binary.)\n", prog)
	}
}

// Launch is the process entry: a binary started under a served git hook's
// name is that hook's launcher; any other name is the ordinary command line.
func Launch(argv []string, sio IO) int {
	if len(argv) == 0 {
		return Main(nil, sio)
	}
	if hook, ok := launcherHook(argv[0]); ok {
		return runLauncher(hook, argv[1:], sio)
	}
	if len(argv) > 1 && argv[1] == treeWatchFlag {
		return treeWatchMain(argv[2:])
	}
	sio.Name = invokedName(argv[0])
	return Main(argv[1:], sio)
}

// invokedName answers the name refusals carry: the front end starts the
// binary under argv[0] "run-gates"; every other start is the binary's own.
//
// assertion D: refusals open with the invoked name.
func invokedName(argv0 string) string {
	base := argv0
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".exe"), ".sh")
	if base == "run-gates" {
		return "run-gates"
	}
	return "gates"
}
