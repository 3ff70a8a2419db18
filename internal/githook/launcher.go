package githook

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// Lookup reads one environment variable (production: os.LookupEnv).
type Lookup func(string) (string, bool)

// NativeBinKnob is the one knob the launcher reads.
const NativeBinKnob = "GATE_SDK_NATIVE_BIN"

// The launcher's view of the knob-file layout. It mirrors the knob
// engine's: the tracked file and the overlay sit in the gates directory
// unless their locator variables name others.
const (
	gatesDirVar      = "GATE_SDK_GATES_DIR"
	defaultGatesDir  = "scripts"
	knobFileVar      = "GATE_SDK_KNOB_FILE"
	localKnobFileVar = "GATE_SDK_LOCAL_KNOB_FILE"
	trackedKnobFile  = "gate-sdk-config.knobs"
	overlayKnobFile  = "gate-sdk-config.local.knobs"
)

// DefaultNativeBin is GATE_SDK_NATIVE_BIN's default for this host.
func DefaultNativeBin() string { return "bin/gates" + ExeSuffix() }

// envValue answers a variable's value, "" when unset.
func envValue(env Lookup, name string) string {
	if env == nil {
		return ""
	}
	v, _ := env(name)
	return v
}

// NativeBin is the launcher's answer: the value as spelled and where it
// came from ("environment", a file path, or "default").
type NativeBin struct {
	Value  string
	Origin string
}

// ReadNativeBin resolves GATE_SDK_NATIVE_BIN with the scalar precedence
// (environment, overlay, tracked file, default) reading nothing but that
// knob: a file is consulted only when every layer above it was silent, and
// within a file only the lines whose head is the knob's name are parsed.
// An empty value answers the default. Relative file paths resolve against
// dir.
func ReadNativeBin(dir string, env Lookup) (NativeBin, error) {
	// assertion K: one knob, its own precedence, other lines unread.
	if v := envValue(env, NativeBinKnob); v != "" {
		return NativeBin{Value: v, Origin: "environment"}, nil
	}
	if _, set := lookupOK(env, NativeBinKnob); set {
		// An exported empty value answers the default, as the table says.
		return NativeBin{Value: DefaultNativeBin(), Origin: "default"}, nil
	}
	gatesDir := envValue(env, gatesDirVar)
	if gatesDir == "" {
		gatesDir = defaultGatesDir
	}
	layers := []struct{ locator, fallback string }{
		{localKnobFileVar, joinRel(gatesDir, overlayKnobFile)},
		{knobFileVar, joinRel(gatesDir, trackedKnobFile)},
	}
	for _, l := range layers {
		spelled, named := l.fallback, false
		if v := envValue(env, l.locator); v != "" {
			spelled, named = v, true
		}
		val, found, err := scanKnobFile(dir, walk.AbsAgainst(dir, spelled), spelled, named, l.locator)
		if err != nil {
			return NativeBin{}, err
		}
		if !found {
			continue
		}
		if val == "" {
			val = DefaultNativeBin()
		}
		return NativeBin{Value: val, Origin: spelled}, nil
	}
	return NativeBin{Value: DefaultNativeBin(), Origin: "default"}, nil
}

func lookupOK(env Lookup, name string) (string, bool) {
	if env == nil {
		return "", false
	}
	return env(name)
}

func joinRel(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return strings.TrimRight(dir, "/") + "/" + name
}

// scanKnobFile reads one knob file for the launcher's knob alone. found is
// false when the file is absent (and not named) or never sets the knob.
func scanKnobFile(top, abs, spelled string, named bool, locator string) (value string, found bool, err error) {
	data, rerr := walk.ReadConfigIn(top, abs)
	if rerr != nil {
		if errors.Is(rerr, fs.ErrNotExist) && !named {
			return "", false, nil
		}
		if errors.Is(rerr, fs.ErrNotExist) {
			return "", false, fmt.Errorf("%s: %s names this file, which does not exist", spelled, locator)
		}
		return "", false, fmt.Errorf("%s: cannot read knob file: %v", spelled, rerr)
	}
	first := 0
	for i, raw := range strings.Split(string(data), "\n") {
		num := i + 1
		raw = strings.TrimSuffix(raw, "\r")
		if headName(raw) != NativeBinKnob {
			continue
		}
		lines, findings := knob.ParseFile(spelled, []byte(raw))
		if len(findings) > 0 {
			return "", false, fmt.Errorf("%s:%d: %s", spelled, num, findings[0].Msg)
		}
		if len(lines) != 1 || lines[0].Kind != knob.KindScalar {
			return "", false, fmt.Errorf("%s:%d: %s must be set as a scalar (%s = <path>); the launcher has no binary to start", spelled, num, NativeBinKnob, NativeBinKnob)
		}
		if first != 0 {
			return "", false, fmt.Errorf("%s:%d: %s is set twice in this file (first at line %d)", spelled, num, NativeBinKnob, first)
		}
		first, value, found = num, lines[0].Value, true
	}
	return value, found, nil
}

// headName answers the knob name a line opens with: the run of name
// characters after leading blanks, "" for a blank or comment line.
func headName(raw string) string {
	s := strings.TrimLeft(raw, " \t")
	if s == "" || s[0] == '#' {
		return ""
	}
	end := 0
	for end < len(s) {
		c := s[end]
		if c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			end++
			continue
		}
		break
	}
	return s[:end]
}

// LaunchInput is the launcher's world: the directory git started it in
// (the work-tree top), the environment and the process's streams.
type LaunchInput struct {
	Dir    string
	Env    Lookup
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Self is this process's own file ("" when unknown); Hook, when set,
	// runs `--git-hook <args>` in this process. The launcher uses it in
	// place of a child when the binary the knob names is Self's very
	// bytes (SameBuild).
	Self string
	Hook func(args []string) int
}

// Launch runs the launcher for hook: it resolves the binary the knob names
// and starts it as `<bin> --git-hook <hook> <args>`, answering its status,
// or runs the hook in this process when that binary is this hook's own
// bytes (SameBuild).
func Launch(hook string, args []string, in LaunchInput) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(in.Stderr, "%s: "+format+"\n", append([]any{hook}, a...)...)
		return 2
	}
	bin, err := ReadNativeBin(in.Dir, in.Env)
	if err != nil {
		return fail("cannot read %s: %v", NativeBinKnob, err)
	}
	// assertion L: a served stem would start this launcher again.
	if s := stem(bin.Value); IsServed(s) {
		return fail("%s=%s (from %s) names a binary called %s, which would start this launcher again; point it at the gates binary", NativeBinKnob, bin.Value, bin.Origin, s)
	}
	path := walk.AbsAgainst(in.Dir, bin.Value)
	// assertion O: the binary the knob names is this hook's own bytes
	// (neither changed since --install-hooks copied one to the other):
	// the hook runs here, one process, as the child would have.
	if in.Hook != nil && in.Self != "" && SameBuild(in.Self, path) {
		return in.Hook(append([]string{hook}, args...))
	}
	// assertion M: otherwise a child, at the work-tree top, its status returned.
	// The child's two streams share one writer and reach git's terminal
	// live, in the order the child wrote them.
	code, err := spawn.RunPassing(spawn.Cmd{
		Program: spawn.At(path),
		Args:    append([]string{"--git-hook", hook}, args...),
		Dir:     in.Dir,
		Stdin:   in.Stdin,
	}, in.Stdout)
	if err != nil {
		return fail("cannot start the gates binary %s (%s=%s from %s): %v\n"+
			"  Place or build the gates binary at that path (or point %s at it),\n"+
			"  or bypass this commit once: git commit --no-verify",
			path, NativeBinKnob, bin.Value, bin.Origin, err, NativeBinKnob)
	}
	// assertion N: --git-hook answers 0, 1 or 2; any other status (a
	// crash, a truncated file killed by a signal) is a binary that could
	// not run, and the commit is refused saying so, never passed.
	if code < 0 || code > 2 {
		return fail("the gates binary %s (%s=%s from %s) did not run to completion (status %d): it may be truncated or broken.\n"+
			"  Rebuild or reinstall it (then gates --install-hooks --refresh),\n"+
			"  or bypass this commit once: git commit --no-verify",
			path, NativeBinKnob, bin.Value, bin.Origin, code)
	}
	return code
}
