package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The status line tells the truth: "hooks on" only while git runs the
// placed hooks on the recorded binary, a broken footing shown as broken,
// a red commit only while some ref still reaches it.

// statusWith renders the status line with the test's own build (the
// clone's bin/gates may be what is broken), for the player's session.
func (p *player) statusWith() string {
	p.t.Helper()
	cmd := exec.Command(binPath, "--statusline")
	cmd.Dir, cmd.Env = p.dir, p.env
	cmd.Stdin = strings.NewReader(`{"session_id": "` + p.session + `"}`)
	out, err := cmd.Output()
	if err != nil {
		p.t.Fatalf("--statusline: %v", err)
	}
	return string(out)
}

func TestStatusTruthFooting(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		break_ func(p *player)
		want   string
	}{
		{"binary replaced", func(p *player) {
			os.WriteFile(filepath.Join(p.dir, "bin/gates"), []byte("#!/bin/sh\nexit 0\n"), 0o755)
		}, "bin/gates"},
		{"binary cleaned", func(p *player) { p.git("clean", "-q", "-fdx") }, "bin/gates"},
		{"knob redirect", func(p *player) {
			os.WriteFile(filepath.Join(p.dir, "scripts/gate-sdk-config.local.knobs"), []byte("GATE_SDK_NATIVE_BIN = /bin/true\n"), 0o644)
		}, "GATE_SDK_NATIVE_BIN"},
		{"hook replaced", func(p *player) {
			os.WriteFile(filepath.Join(p.dir, ".git/gate-hooks/pre-commit"), []byte("#!/bin/sh\nexit 0\n"), 0o755)
		}, "pre-commit"},
		{"hooks path elsewhere", func(p *player) { p.git("config", "core.hooksPath", "/nonexistent") }, "/nonexistent"},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "status "+c.name)
			if sl := p.statusWith(); !strings.Contains(sl, "hooks on") {
				t.Fatalf("a whole footing reads %q", sl)
			}
			c.break_(p)
			sl := p.statusWith()
			if strings.Contains(sl, "hooks on") || !strings.Contains(sl, "hooks broken") || !strings.Contains(sl, c.want) {
				t.Fatalf("%s reads %q", c.name, sl)
			}
		})
	}
}

func TestStatusTruthRedCommitOnlyWhileReachable(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "status reachable")
	p.bashQuiet("git status --short")
	_, _, post := p.bash(`printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && echo 'git commit -q -n -m "docs: notes"' | sh`)
	id := p.git("rev-parse", "--short", "HEAD")
	if !strings.Contains(post, "Commit "+id) {
		t.Fatalf("not named: %s", post)
	}
	if sl := p.statusWith(); !strings.Contains(sl, "1 red commit this session") || !strings.Contains(sl, id) {
		t.Fatalf("the red commit is not shown: %q", sl)
	}
	p.bashQuiet("git reset -q --hard HEAD^ && git reflog expire --expire=now --all")
	if sl := p.statusWith(); strings.Contains(sl, id) || strings.Contains(sl, "red commit") {
		t.Fatalf("an undone red commit is still shown: %q", sl)
	}
}
