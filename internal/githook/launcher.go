package githook

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/digest"
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
	path = linkedFallback(in, bin, path)
	// assertion O: the binary the knob names is this hook's own bytes
	// (neither changed since --install-hooks copied one to the other):
	// the hook runs here, one process, as the child would have.
	if in.Hook != nil && in.Self != "" && SameBuild(in.Self, path) {
		return in.Hook(append([]string{hook}, args...))
	}
	// assertion X: the binary must be the one --install-hooks recorded.
	if refusal := verifyBinary(in, bin, path); refusal != "" {
		return fail("%s", refusal)
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
			"  Place or build the gates binary at that path (or point %s at it)%s",
			path, NativeBinKnob, bin.Value, bin.Origin, err, NativeBinKnob, bypassOnce(in.Env))
	}
	// assertion N: --git-hook answers 0, 1 or 2; any other status (a
	// crash, a truncated file killed by a signal) is a binary that could
	// not run, and the commit is refused saying so, never passed.
	if code < 0 || code > 2 {
		return fail("the gates binary %s (%s=%s from %s) did not run to completion (status %d): it may be truncated or broken.\n"+
			"  Rebuild or reinstall it (then gates --install-hooks --refresh)%s",
			path, NativeBinKnob, bin.Value, bin.Origin, code, bypassOnce(in.Env))
	}
	return code
}

// linkedFallback answers the binary a hook in a linked worktree starts:
// the default path lies under that worktree's own top, where a gitignored
// binary was never checked out, so when nothing is there (and the knob
// was left at its default) the binary --install-hooks recorded is started
// in its place, verified as any other. Anywhere else path is kept.
func linkedFallback(in LaunchInput, bin NativeBin, path string) string {
	// assertion X: a linked worktree runs the recorded binary.
	if bin.Origin != "default" || in.Self == "" {
		return path
	}
	if fi, err := os.Lstat(filepath.Join(in.Dir, ".git")); err != nil || !fi.Mode().IsRegular() {
		return path
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return path
	}
	if rec := src(filepath.Dir(in.Self)); rec != "" {
		if _, err := os.Stat(rec); err == nil {
			return rec
		}
	}
	return path
}

// AgentCaller reports a commit run by a coding agent: Claude Code sets
// CLAUDECODE in the environment of the commands it runs, and
// GATE_SDK_AGENT names any other harness. An agent is never told to
// bypass the hooks.
func AgentCaller(env Lookup) bool {
	return envValue(env, "CLAUDECODE") != "" || envValue(env, "GATE_SDK_AGENT") != ""
}

// bypassOnce is the launcher's last resort line for a person; "" for an
// agent.
func bypassOnce(env Lookup) string {
	if AgentCaller(env) {
		return ""
	}
	return ",\n  or bypass this commit once: git commit --no-verify"
}

// bypassLast is bypassOnce as a sentence of its own.
func bypassLast(env Lookup) string {
	if AgentCaller(env) {
		return ""
	}
	return "\n  Or bypass this commit once: git commit --no-verify"
}

// verifyBinary answers why the binary at path may not serve this hook
// ("" when it may): the opt-in record beside the hook holds the digest of
// the binary the hook was copied from, and a binary that differs from it,
// or is gone, is refused with the one command that restores it. A hook
// with no record (placed by hand, or before records) is not checked.
func verifyBinary(in LaunchInput, bin NativeBin, path string) string {
	if in.Self == "" {
		return ""
	}
	dir := filepath.Dir(in.Self)
	files, ok, err := readRecord(dir)
	if err != nil || !ok {
		return ""
	}
	want := ""
	for _, f := range files {
		if f.name == filepath.Base(in.Self) {
			want = f.sum
		}
	}
	if want == "" {
		return ""
	}
	show := func(p string) string {
		if rel, ok := walk.RelUnder(walk.NormalizeAbs(in.Dir), walk.NormalizeAbs(p)); ok && rel != "" {
			return rel
		}
		return p
	}
	restore := fmt.Sprintf("cp %s %s", show(in.Self), show(path))
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		restore = fmt.Sprintf("mkdir -p %s; %s", show(filepath.Dir(path)), restore)
	}
	if fi, err := os.Lstat(path); err == nil && (fi.Mode()&os.ModeSymlink != 0 || fi.IsDir() || fi.Mode().Perm()&0o111 == 0) {
		// A copy onto a link writes through it, into whatever it names;
		// onto a directory it lands inside; onto a file it keeps the mode.
		restore = fmt.Sprintf("rm -rf %s; %s", show(path), restore)
	}
	got, err := digest.File(path)
	if err == nil && got == want {
		// The recorded bytes, wherever they lie (a linked worktree's own
		// copy, a knob naming another path to the same build).
		return ""
	}
	if bin.Origin != "default" && src(dir) != "" && walk.NormalizeAbs(src(dir)) != walk.NormalizeAbs(path) {
		// A knob points the hooks somewhere else than the binary the
		// record names: the knob is what to undo.
		where := bin.Origin
		if where != "environment" {
			where = show(where)
		}
		return fmt.Sprintf("%s=%s (from %s) points the hooks at %s, not at the binary --install-hooks recorded (%s), so this commit is not judged.\n"+
			"  Remove that setting from %s (or set it to %s), then commit again.%s",
			NativeBinKnob, bin.Value, where, path, show(src(dir)), where, show(src(dir)), bypassLast(in.Env))
	}
	if err != nil {
		return fmt.Sprintf("the gates binary %s (%s=%s from %s) is gone or unreadable (%v), so this commit cannot be judged.\n"+
			"  Restore the binary --install-hooks recorded: %s\n"+
			"  then commit again.%s%s",
			path, NativeBinKnob, bin.Value, bin.Origin, err, restore, refreshNote(in.Env, path), bypassLast(in.Env))
	}
	if got != want {
		return fmt.Sprintf("the gates binary %s (%s=%s from %s) is not the one --install-hooks recorded (its bytes differ), so this commit is not judged.\n"+
			"  Restore the binary --install-hooks recorded: %s\n"+
			"  then commit again.%s%s",
			path, NativeBinKnob, bin.Value, bin.Origin, restore, refreshNote(in.Env, path), bypassLast(in.Env))
	}
	return ""
}

// refreshNote tells a person who rebuilt the binary on purpose how to
// record it; an agent is not asked to re-record a binary it may have
// replaced.
func refreshNote(env Lookup, path string) string {
	if AgentCaller(env) {
		return ""
	}
	return fmt.Sprintf("\n  If you rebuilt it on purpose, record the new build instead: %s --install-hooks --refresh", path)
}

// src answers the path the source record names ("" when none).
func src(dir string) string {
	data, err := walk.ReadConfig(sourcePath(dir))
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 3 || lines[0] != sourceHeader {
		return ""
	}
	p, err := strconv.Unquote(lines[2])
	if err != nil {
		return ""
	}
	return p
}
