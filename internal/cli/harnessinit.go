package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gate-sdk/gates/internal/harness"
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
	files, err := kits.Tree("gate-sdk")
	if err != nil {
		fmt.Fprintf(s.Stderr, "init: %v\n", err)
		return 2
	}
	var tmpl []byte
	for _, f := range files {
		if f.Path == h.template {
			tmpl = f.Data
		}
	}
	if tmpl == nil {
		fmt.Fprintf(s.Stderr, "init: this binary's kit carries no %s\n", h.template)
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
		fmt.Fprintf(s.Stdout, "init: %s already registers the gate-sdk hook members\n", h.file)
		return 0
	}
	if dry {
		fmt.Fprintf(s.Stdout, "would merge the gate-sdk hook members (%s) into %s\n", harnessMemberList(), h.file)
		return 0
	}
	if err := os.MkdirAll(walk.AbsAgainst(top, ".claude"), 0o755); err != nil {
		fmt.Fprintf(s.Stderr, "init: %v\n", err)
		return 2
	}
	tmp := target + ".gates-tmp"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		fmt.Fprintf(s.Stderr, "init: cannot write %s: %v\n", h.file, err)
		return 2
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		fmt.Fprintf(s.Stderr, "init: cannot write %s: %v\n", h.file, err)
		return 2
	}
	fmt.Fprintf(s.Stdout, "init: merged the gate-sdk hook members (%s) into %s; your own entries are kept (gates init --uninstall does not remove these)\n", harnessMemberList(), h.file)
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
