package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/harness"
	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/kits"
)

// harnessSettings names, per harness, the settings file `gates init
// --harness` merges into and the kit template it merges.
var harnessSettings = map[string]struct{ file, template string }{
	"claude": {file: ".claude/settings.json", template: kits.SeedClaudeSettings},
}

// splitHarness takes `--harness <name>` (or `--harness=<name>`) out of
// init's operands.
func splitHarness(args []string) (rest []string, name string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--harness":
			if i+1 >= len(args) {
				return nil, "", errors.New("init: --harness takes a harness name (claude)")
			}
			name = args[i+1]
			i++
		case len(a) > len("--harness=") && a[:len("--harness=")] == "--harness=":
			name = a[len("--harness="):]
		default:
			rest = append(rest, a)
		}
	}
	if name != "" {
		if _, ok := harnessSettings[name]; !ok {
			return nil, "", fmt.Errorf("init: no harness named %q; known: claude", name)
		}
	}
	return rest, name, nil
}

// wireHarness merges the kit's registrations for harness name into the
// repository's settings file. It answers 0 when the file holds them (now or
// already), 2 when the file cannot be read as the harness's settings; the
// file is then left exactly as it was.
func (s *Session) wireHarness(name string, dry bool) int {
	return s.mergeHarness(name, dry, false)
}

// refreshHarnesses is a later init's pass over the harnesses: each
// settings file holding registrations of this binary is merged again
// with the release's template, so an upgrade leaves no harness calling
// the binary the way an older release registered it. A settings file that
// is absent, unreadable or holds none of them is not init's to touch.
func (s *Session) refreshHarnesses(dry bool) int {
	top, err := s.Top()
	if err != nil {
		return 0
	}
	for _, name := range []string{"claude"} {
		data, err := os.ReadFile(walk.AbsAgainst(top, harnessSettings[name].file))
		if err != nil {
			continue
		}
		if regs, err := harness.Registrations(data); err != nil || len(regs) == 0 {
			continue
		}
		if c := s.mergeHarness(name, dry, true); c != 0 {
			return c
		}
	}
	return 0
}

// mergeHarness is wireHarness, and with refresh a later init's quiet
// re-merge: it names only a file it changed.
func (s *Session) mergeHarness(name string, dry, refresh bool) int {
	h := harnessSettings[name]
	top, set, err := s.repoKnobs()
	if err != nil {
		fmt.Fprintf(s.Stderr, "init: %v\n", err)
		return 2
	}
	bin, err := set.Scalar("GATE_SDK_NATIVE_BIN")
	if err != nil {
		fmt.Fprintf(s.Stderr, "init: %v\n", err)
		return 2
	}
	tmpl, err := harnessTemplate(h.template)
	if err != nil {
		fmt.Fprintf(s.Stderr, "init: %v\n", err)
		return 2
	}
	target := walk.AbsAgainst(top, h.file)
	existing, err := os.ReadFile(target)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(s.Stderr, "init: cannot read %s: %v\n", h.file, err)
		return 2
	}
	// assertion E: the harness's exec form names the binary under the
	// project-directory placeholder, so the path needs no quoting.
	out, changed, err := harness.MergeSettings(existing, tmpl, "$CLAUDE_PROJECT_DIR/"+bin)
	if err != nil {
		fmt.Fprintf(s.Stderr, "init: %s: %v; left as it was\n", h.file, err)
		return 2
	}
	if !changed {
		if !refresh {
			fmt.Fprintf(s.Stdout, "init: %s already registers the gate-sdk hook members\n", h.file)
		}
		return s.allowHarnessDir(set, top, dry)
	}
	if dry {
		verb := "merge"
		if refresh {
			verb = "refresh"
		}
		fmt.Fprintf(s.Stdout, "would %s the gate-sdk hook members (%s) and the status line into %s\n", verb, harnessMemberList(), h.file)
		return s.allowHarnessDir(set, top, dry)
	}
	if err := os.MkdirAll(walk.AbsAgainst(top, ".claude"), 0o755); err != nil {
		fmt.Fprintf(s.Stderr, "init: %v\n", err)
		return 2
	}
	if err := walk.ReplaceFile(target, out); err != nil {
		fmt.Fprintf(s.Stderr, "init: cannot write %s: %v\n", h.file, err)
		return 2
	}
	if refresh {
		fmt.Fprintf(s.Stdout, "init: refreshed the gate-sdk hook members in %s to this release's registrations; your own entries are kept\n", h.file)
		return s.allowHarnessDir(set, top, dry)
	}
	fmt.Fprintf(s.Stdout, "init: merged the gate-sdk hook members (%s) and the status line into %s; your own entries are kept (gates init --uninstall removes only these)\n", harnessMemberList(), h.file)
	return s.allowHarnessDir(set, top, dry)
}

// harnessTemplate reads a settings template out of the kit this binary
// carries.
func harnessTemplate(name string) ([]byte, error) {
	files, err := kits.Tree("gate-sdk")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.Path == name {
			return f.Data, nil
		}
	}
	return nil, fmt.Errorf("this binary's kit carries no %s", name)
}

// harnessDir is the top-level entry the harness's settings live under.
const harnessDir = ".claude"

// allowHarnessDir puts the settings directory on the root allowlist
// (GATE_SDK_ROOT_ALLOWLIST) so check-root-tiering stays green on the next
// battery. An allowlist that is absent is left absent: the gate has
// nothing to hold the new entry to.
func (s *Session) allowHarnessDir(set *knob.Set, top string, dry bool) int {
	// assertion H: --harness puts .claude on the root allowlist.
	rel, err := set.Scalar("GATE_SDK_ROOT_ALLOWLIST")
	if err != nil || rel == "" {
		return 0
	}
	p := walk.AbsAgainst(top, rel)
	cur, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(cur), "\n") {
		if strings.TrimSpace(strings.TrimSuffix(l, "\r")) == harnessDir {
			return 0
		}
	}
	if dry {
		fmt.Fprintf(s.Stdout, "would add %s to %s\n", harnessDir, rel)
		return 0
	}
	out := string(cur)
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	out += harnessDir + "\n"
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		fmt.Fprintf(s.Stderr, "init: cannot add %s to %s: %v\n", harnessDir, rel, err)
		return 2
	}
	fmt.Fprintf(s.Stdout, "init: added %s to %s (check-root-tiering)\n", harnessDir, rel)
	return 0
}

// harnessUnwire is what `init --uninstall` does to each harness's
// settings file, decided before the uninstall removes the knob files the
// binary's path is read from.
type harnessUnwire func(dry bool) int

// planUnwireHarness reads what removing init's registrations needs while
// the knobs still resolve.
func (s *Session) planUnwireHarness() harnessUnwire {
	top, set, err := s.repoKnobs()
	if err != nil {
		return func(bool) int { return 0 }
	}
	bin, err := set.Scalar("GATE_SDK_NATIVE_BIN")
	if err != nil {
		return func(bool) int { return 0 }
	}
	return func(dry bool) int {
		code := 0
		for _, name := range []string{"claude"} {
			if c := s.unwireHarness(name, top, bin, dry); c != 0 {
				code = c
			}
		}
		return code
	}
}

// unwireHarness removes from a harness's settings file the entries init
// merged into it; the file goes when nothing else is left in it.
func (s *Session) unwireHarness(name, top, bin string, dry bool) int {
	h := harnessSettings[name]
	target := walk.AbsAgainst(top, h.file)
	existing, err := os.ReadFile(target)
	if errors.Is(err, fs.ErrNotExist) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(s.Stderr, "init: cannot read %s: %v\n", h.file, err)
		return 2
	}
	tmpl, err := harnessTemplate(h.template)
	if err != nil {
		fmt.Fprintf(s.Stderr, "init: %v\n", err)
		return 2
	}
	// assertion I: --uninstall takes out exactly what the merge put in.
	out, removed, empty, err := harness.UnmergeSettings(existing, tmpl, "$CLAUDE_PROJECT_DIR/"+bin)
	if err != nil {
		fmt.Fprintf(s.Stderr, "init: %s: %v; left as it was, remove the gate-sdk entries by hand\n", h.file, err)
		return 2
	}
	if removed == 0 {
		return 0
	}
	verb := "removed"
	if dry {
		verb = "would remove"
	}
	if empty {
		fmt.Fprintf(s.Stdout, "%s %s (it held only the gate-sdk registrations)\n", verb, h.file)
		if !dry {
			if err := os.Remove(target); err != nil {
				fmt.Fprintf(s.Stderr, "init: cannot remove %s: %v\n", h.file, err)
				return 2
			}
			os.Remove(walk.AbsAgainst(top, harnessDir)) // only when empty
		}
		return 0
	}
	fmt.Fprintf(s.Stdout, "%s the %d gate-sdk registration(s) from %s; your own entries stay\n", verb, removed, h.file)
	if dry {
		return 0
	}
	if err := walk.ReplaceFile(target, out); err != nil {
		fmt.Fprintf(s.Stderr, "init: cannot write %s: %v\n", h.file, err)
		return 2
	}
	return 0
}

func harnessMemberList() string {
	out := ""
	for i, n := range harness.Names() {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// harnessWiring answers doctor's findings on each harness settings file:
// a registration of this binary whose program is absent or not executable
// runs nothing, and the harness reads its exit 127 as allow, so the guard
// is off with no word on any call.
func harnessWiring(top string) ([]string, error) {
	var out []string
	for _, name := range []string{"claude"} {
		for _, file := range []string{harnessSettings[name].file, ".claude/settings.local.json"} {
			data, err := os.ReadFile(walk.AbsAgainst(top, file))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("cannot read %s: %v", file, err)
			}
			regs, err := harness.Registrations(data)
			if err != nil {
				out = append(out, fmt.Sprintf("harness: %s: %v; the harness may not read it either", file, err))
				continue
			}
			for _, r := range regs {
				prog := strings.ReplaceAll(strings.ReplaceAll(r.Program, "${CLAUDE_PROJECT_DIR}", top), "$CLAUDE_PROJECT_DIR", top)
				if strings.Contains(prog, "$") || !walk.PathRoot(prog) {
					continue // a program found through PATH or an expansion: not ours to resolve
				}
				fi, err := os.Stat(prog)
				if err == nil && fi.Mode().IsRegular() && (fi.Mode().Perm()&0o111 != 0 || githook.ExeSuffix() != "") {
					continue
				}
				if r.Stub {
					out = append(out, fmt.Sprintf("harness: %s registers %s for %s, and %s is absent or not executable: the stub blocks each call until it is restored; restore it (the command the block names) or take the entries out (gates init --uninstall)", file, r.Member, r.Event, prog))
					continue
				}
				out = append(out, fmt.Sprintf("harness: %s registers %s for %s, and %s is absent or not executable: each call exits 127, which the harness treats as allow, so the guard is off; build the binary (make build) and register it through the stub (gates init --harness claude), or take the entries out (gates init --uninstall)", file, r.Member, r.Event, prog))
			}
		}
	}
	return out, nil
}
