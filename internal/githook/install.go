package githook

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// InstallUsage is --install-hooks' usage line.
const InstallUsage = "usage: --install-hooks [--refresh | --take-over | --restore]"

// PreviousHooksPathKey is the local config key a take-over records the
// hooks path it replaced in ("" when none was set locally), so --restore
// can put it back.
const PreviousHooksPathKey = "gates.previousHooksPath"

// HooksDirName is the hooks directory's name under git's common dir.
const HooksDirName = "gate-hooks"

// IdentityGate is the member the opt-in runs once as its verification rung.
const IdentityGate = "check-identity"

// InstallWorld is the install arm's world beyond the hook family's.
type InstallWorld struct {
	World
	// NativeBin answers GATE_SDK_NATIVE_BIN through the general knob read.
	NativeBin func() (string, error)
	// Resolve resolves a member name consumer-first, as the registry does.
	Resolve func(name string) (Member, error)
	// Verify proves a file answers as the gates binary; nil is Handshake.
	Verify func(path string) error
}

func (w InstallWorld) handshake() func(string) error {
	if w.Verify != nil {
		return w.Verify
	}
	return Handshake
}

// RunInstall is `--install-hooks [--refresh]`.
func RunInstall(args []string, w InstallWorld) int {
	const arm = "install-hooks"
	// assertion A: no operand, or --refresh alone.
	refresh, takeOver := false, false
	switch {
	case len(args) == 0:
	case len(args) == 1 && args[0] == "--refresh":
		refresh = true
	case len(args) == 1 && args[0] == "--take-over":
		takeOver = true
	case len(args) == 1 && args[0] == "--restore":
		return runRestore(w)
	default:
		fmt.Fprintf(w.Stderr, "%s: unexpected argument %q\n%s\n", arm, args[0], InstallUsage)
		return 2
	}
	if refresh {
		return runRefresh(w)
	}
	top, ok, err := walk.ToplevelOpt(w.Dir, nil)
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v; nothing placed\n", arm, err)
		return 2
	}
	if !ok {
		fmt.Fprintf(w.Stderr, "%s: %s is not inside a git repository; nothing placed\n", arm, w.Dir)
		return 2
	}
	// assertion B: no binary, nothing placed.
	src, ok := w.binary(top)
	if !ok {
		return 2
	}
	dir, err := HooksDir(top)
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v; nothing placed\n", arm, err)
		return 2
	}
	// assertion K: hooks someone else placed are never silently replaced.
	previous, taken, err := otherHooks(top, dir)
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v; nothing placed\n", arm, err)
		return 2
	}
	if taken != "" && !takeOver {
		fmt.Fprint(w.Stderr, TakeOverRefusal(arm, taken, dir, src, "gates --install-hooks --take-over"))
		return 2
	}
	if taken != "" {
		if err := setConfig(top, PreviousHooksPathKey, previous); err != nil {
			fmt.Fprintf(w.Stderr, "%s: could not record the hooks path being taken over in %s: %v; nothing placed\n", arm, PreviousHooksPathKey, err)
			return 2
		}
	}
	if !w.placeAll(dir, src) {
		return 2
	}
	if err := writeSource(dir, src); err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v\n", arm, err)
		return 2
	}
	// assertion E: git pointed at the directory (relative to the top where
	// the clone's own .git holds it, see HooksPathValue), or exit 2.
	value := HooksPathValue(top, dir)
	if err := setConfig(top, "core.hooksPath", value); err != nil {
		fmt.Fprintf(w.Stderr, "%s: the hooks are placed in %s but core.hooksPath could not be set, so git runs none of them: %v\n", arm, dir, err)
		return 2
	}
	if err := pointLinkedWorktrees(top, dir, value); err != nil {
		fmt.Fprintf(w.Stderr, "%s: the hooks are placed, but linked worktrees may run none of them: %v\n", arm, err)
		return 2
	}
	// assertion F: blame's ignore list, best effort.
	if regularFile(walk.Child(top, ".git-blame-ignore-revs")) {
		if err := setConfig(top, "blame.ignoreRevsFile", ".git-blame-ignore-revs"); err != nil {
			fmt.Fprintf(w.Stderr, "%s: could not set blame.ignoreRevsFile: %v\n", arm, err)
		}
	}
	if err := recordPlaced(dir); err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v\n", arm, err)
		return 2
	}
	status := w.identityRung(top)
	if err := writeReceipt(w, dir); err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v\n", arm, err)
		return 2
	}
	return status
}

// runRefresh re-places the files of a clone already opted in, and is a
// silent no-op anywhere else.
func runRefresh(w InstallWorld) int {
	// assertion I: both no-op tests come first.
	top, ok, err := walk.ToplevelOpt(w.Dir, nil)
	if err != nil || !ok || !sameDir(top, w.Dir) {
		return 0
	}
	dir, err := HooksDir(top)
	if err != nil {
		return 0
	}
	if !OptedIn(top, dir) {
		return 0
	}
	src, ok := w.binary(top)
	if !ok {
		return 2
	}
	if !w.placeAll(dir, src) {
		return 2
	}
	if err := writeSource(dir, src); err != nil {
		fmt.Fprintf(w.Stderr, "install-hooks: %v\n", err)
		return 2
	}
	if err := recordPlaced(dir); err != nil {
		fmt.Fprintf(w.Stderr, "install-hooks: %v\n", err)
		return 2
	}
	if v, set, err := repo.ConfigGetLocal(top, "core.hooksPath"); err == nil && set {
		if err := pointLinkedWorktrees(top, dir, v); err != nil {
			fmt.Fprintf(w.Stderr, "install-hooks: %v\n", err)
			return 2
		}
	}
	fmt.Fprintf(w.Stdout, "install-hooks: refreshed %s\n", dir)
	return 0
}

// TakeOverRefusal is the refusal an opt-in over another manager's hooks
// prints: what it would stop and the two ways on. arm leads the line;
// takeOver spells the command that takes over.
func TakeOverRefusal(arm, taken, dir, src, takeOver string) string {
	return fmt.Sprintf("%s: %s, so pointing core.hooksPath at %s would silently stop them; nothing placed. Choose one:\n"+
		"  chain: keep them and call the gates from them (add `%s --git-hook pre-commit` to their pre-commit and `%s --git-hook commit-msg \"$1\"` to their commit-msg);\n"+
		"  take over: %s, which records the current value in %s so gates --install-hooks --restore puts it back\n",
		arm, taken, dir, src, src, takeOver, PreviousHooksPathKey)
}

// OtherHooks answers the hooks another manager placed that opting the
// clone at top in would stop ("" when none), as --install-hooks reads them.
func OtherHooks(top string) (string, error) {
	dir, err := HooksDir(top)
	if err != nil {
		return "", err
	}
	_, taken, err := otherHooks(top, dir)
	return taken, err
}

// otherHooks reports hooks that opting in would silently turn off: a
// core.hooksPath naming another directory (husky, a team's hooks dir), or,
// with none set, an active hook in git's own hooks directory (lefthook and
// hand-written hooks live there). taken describes them, "" when there are
// none; previous is the local core.hooksPath value a take-over records ("",
// when the value is inherited from another scope or unset).
func otherHooks(top, dir string) (previous, taken string, err error) {
	v, set, err := repo.ConfigGet(top, "core.hooksPath")
	if err != nil {
		return "", "", err
	}
	local, localSet, err := repo.ConfigGetLocal(top, "core.hooksPath")
	if err != nil {
		return "", "", err
	}
	if localSet {
		previous = local
	}
	if set && v != "" {
		if HooksPathRepairable(top, dir) {
			return "", "", nil // already ours, or ours left behind by a move
		}
		return previous, fmt.Sprintf("core.hooksPath is already %s", v), nil
	}
	_, common, err := walk.GitDirs(top, nil)
	if err != nil {
		return "", "", err
	}
	hooks := walk.Child(common, "hooks")
	ents, err := walk.ListDir(hooks)
	if err != nil {
		return previous, "", nil // no hooks directory: nothing to stop
	}
	var active []string
	for _, e := range ents {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".sample") {
			continue
		}
		if fi, err := os.Stat(walk.Child(hooks, e.Name())); err == nil && fi.Mode().IsRegular() && (ExeSuffix() != "" || fi.Mode().Perm()&0o111 != 0) {
			active = append(active, e.Name())
		}
	}
	if len(active) == 0 {
		return previous, "", nil
	}
	sort.Strings(active)
	return previous, fmt.Sprintf("%s already holds active hooks (%s)", hooks, strings.Join(active, ", ")), nil
}

// runRestore undoes a take-over: core.hooksPath goes back to the value
// recorded in PreviousHooksPathKey (unset when that was empty, the value
// having been inherited or absent), and the record is dropped. Without a
// record it only opts out, when core.hooksPath names the gates' directory.
func runRestore(w InstallWorld) int {
	const arm = "install-hooks"
	top, ok, err := walk.ToplevelOpt(w.Dir, nil)
	if err != nil || !ok {
		fmt.Fprintf(w.Stderr, "%s: %s is not inside a git repository; nothing restored\n", arm, w.Dir)
		return 2
	}
	dir, err := HooksDir(top)
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v; nothing restored\n", arm, err)
		return 2
	}
	prev, recorded, err := repo.ConfigGetLocal(top, PreviousHooksPathKey)
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: %v; nothing restored\n", arm, err)
		return 2
	}
	if !recorded {
		if !OptedIn(top, dir) {
			fmt.Fprintf(w.Stderr, "%s: no take-over is recorded (%s is unset) and core.hooksPath does not name %s; nothing to restore\n", arm, PreviousHooksPathKey, dir)
			return 2
		}
		prev = ""
	}
	// assertion L: the recorded value comes back, then the record goes;
	// a core.hooksPath changed since the take-over is the user's and stays.
	if recorded && !OptedIn(top, dir) {
		cur, _, _ := repo.ConfigGetLocal(top, "core.hooksPath")
		fmt.Fprintf(w.Stderr, "%s: core.hooksPath is %q, no longer %s as the take-over left it, so it was changed since; nothing restored (the value recorded in %s is %q: set it by hand if you want it back, then git config --unset %s)\n",
			arm, cur, dir, PreviousHooksPathKey, prev, PreviousHooksPathKey)
		return 2
	}
	if prev == "" {
		err = unsetConfig(top, "core.hooksPath")
	} else {
		err = setConfig(top, "core.hooksPath", prev)
	}
	if err != nil {
		fmt.Fprintf(w.Stderr, "%s: could not restore core.hooksPath: %v\n", arm, err)
		return 2
	}
	if err := DropWorktreeInclude(top, dir); err != nil {
		fmt.Fprintf(w.Stderr, "%s: could not remove the linked worktrees' include: %v\n", arm, err)
		return 2
	}
	if err := dropRecord(dir); err != nil {
		fmt.Fprintf(w.Stderr, "%s: core.hooksPath is restored but the opt-in record could not be removed: %v\n", arm, err)
		return 2
	}
	if recorded {
		if err := unsetConfig(top, PreviousHooksPathKey); err != nil {
			fmt.Fprintf(w.Stderr, "%s: core.hooksPath is restored but %s could not be dropped: %v\n", arm, PreviousHooksPathKey, err)
			return 2
		}
	}
	if prev == "" {
		fmt.Fprintf(w.Stdout, "install-hooks: restored: core.hooksPath is unset (git's own hooks directory serves again)\n")
	} else {
		fmt.Fprintf(w.Stdout, "install-hooks: restored: core.hooksPath is %s again\n", prev)
	}
	return 0
}

// unsetConfig removes a key from the local config; an absent key is fine.
func unsetConfig(top, key string) error {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"config", "--local", "--unset-all", key}, Dir: top})
	if err != nil {
		return err
	}
	if c.Code() == 5 { // the key was not set
		return nil
	}
	if rep, failed := c.FailureReport(); failed {
		return fmt.Errorf("%s", rep)
	}
	return nil
}

// HooksDir answers <git-common-dir>/gate-hooks, absolute.
func HooksDir(top string) (string, error) {
	// assertion C: <git-common-dir>/gate-hooks, absolute.
	_, common, err := walk.GitDirs(top, nil)
	if err != nil {
		return "", err
	}
	return walk.Child(common, HooksDirName), nil
}

// OptedIn reports whether core.hooksPath names the hooks directory.
func OptedIn(top, dir string) bool {
	v, set, err := repo.ConfigGet(top, "core.hooksPath")
	if err != nil || !set || v == "" {
		return false
	}
	return sameDir(walk.AbsAgainst(top, walk.CrossArg(v)), dir)
}

// sameDir reports whether two absolute spellings name one directory.
func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	fa, aerr := os.Stat(a)
	fb, berr := os.Stat(b)
	return aerr == nil && berr == nil && os.SameFile(fa, fb)
}

func setConfig(top, key, value string) error {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"config", key, value}, Dir: top})
	if err != nil {
		return err
	}
	if rep, failed := c.FailureReport(); failed {
		return fmt.Errorf("%s", rep)
	}
	return nil
}

// binary answers the absolute path of the binary the hooks link to,
// refusing when it is not an executable file.
func (w InstallWorld) binary(top string) (string, bool) {
	val, err := w.NativeBin()
	if err != nil {
		fmt.Fprintf(w.Stderr, "install-hooks: %v; nothing placed\n", err)
		return "", false
	}
	src := walk.AbsAgainst(top, walk.CrossArg(val))
	fi, err := os.Stat(src)
	if err != nil || !fi.Mode().IsRegular() || (ExeSuffix() == "" && fi.Mode().Perm()&0o111 == 0) {
		fmt.Fprintf(w.Stderr, "install-hooks: the gates binary %s (%s=%s) is absent or not executable; build or install it, or point %s at it; nothing placed\n", src, NativeBinKnob, val, NativeBinKnob)
		return "", false
	}
	// assertion B: an executable that does not answer as the gates binary
	// (empty, truncated, another program) is no binary to place.
	if err := w.handshake()(src); err != nil {
		fmt.Fprintf(w.Stderr, "install-hooks: the gates binary %s (%s=%s) does not answer as the gates binary: %v; rebuild or reinstall it, or point %s at a working one; nothing placed\n", src, NativeBinKnob, val, err, NativeBinKnob)
		return "", false
	}
	return src, true
}

// placeAll places every served hook.
func (w InstallWorld) placeAll(dir, src string) bool {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(w.Stderr, "install-hooks: cannot create the hooks directory %s: %v\n", dir, err)
		return false
	}
	p, err := NewPlacer(dir, w.Stderr)
	if err != nil {
		fmt.Fprintf(w.Stderr, "install-hooks: %v\n", err)
		return false
	}
	p.verify = w.handshake()
	for _, name := range p.Sweep() {
		fmt.Fprintf(w.Stderr, "install-hooks: removed %s, left by a placement that was cut short\n", walk.Child(dir, name))
	}
	for _, h := range Served() {
		if err := p.Place(src, h+ExeSuffix()); err != nil {
			fmt.Fprintf(w.Stderr, "install-hooks: %v\n", err)
			return false
		}
	}
	return true
}

// identityRung runs check-identity once, resolved consumer-first: a .gate
// re-executes this binary on the name, a .sh shadow is started by its
// path, and a name declared nowhere is skipped. It answers 0, 1 (the
// gate's finding) or 2.
func (w InstallWorld) identityRung(top string) int {
	// assertion G: resolved consumer-first, dispatched as the hook does, skipped
	// when declared nowhere.
	m, err := w.Resolve(IdentityGate)
	if err != nil {
		fmt.Fprintf(w.Stderr, "install-hooks: cannot resolve %s: %v\n", IdentityGate, err)
		return 2
	}
	if m.Kind == registry.Unresolved {
		return 0
	}
	r := w.runner(top)
	code, out := r.dispatch(m, nil)
	w.Stdout.Write(out)
	switch code {
	case 0, 1:
		return code
	}
	return 2
}

// writeReceipt prints the receipt: every file in the hooks directory,
// sorted, under "Active hooks:".
func writeReceipt(w InstallWorld, dir string) error {
	// assertion H: every file in the directory, sorted.
	ents, err := walk.ListDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("Active hooks:\n")
	for _, n := range names {
		b.WriteString("  " + n + "\n")
	}
	_, err = fmt.Fprint(w.Stdout, b.String())
	return err
}
