package witness

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
)

// Scratch is a history-bearing copy of a repository: a shared clone of its
// toplevel with the working tree's tracked bytes laid over it and
// committed as a seed, so an emitter reading history or the origin URL
// reads what the source would.
type Scratch struct {
	Dir string
}

func git(dir string, args ...string) (string, error) {
	full := append([]string{"-c", "user.name=projection-witness", "-c", "user.email=witness@invalid", "-c", "commit.gpgsign=false"}, args...)
	done, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: full, Dir: dir})
	if err != nil {
		return "", err
	}
	out, ok := done.Stdout()
	if !ok {
		report, _ := done.FailureReport()
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), report)
	}
	return string(out), nil
}

// NewScratch builds the scratch under parent from the repository at top.
func NewScratch(top, parent string) (*Scratch, error) {
	dir := filepath.Join(parent, "tree")
	if _, err := git(parent, "clone", "-q", "--shared", "--", top, dir); err != nil {
		return nil, fmt.Errorf("cannot clone %s: %w", top, err)
	}
	if url, err := git(top, "remote", "get-url", "origin"); err == nil && strings.TrimSpace(url) != "" {
		if _, err := git(dir, "remote", "set-url", "origin", strings.TrimSpace(url)); err != nil {
			return nil, err
		}
	} else if _, err := git(dir, "remote", "remove", "origin"); err != nil {
		return nil, err
	}
	files, err := repo.Tracked(top)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		src, dst := filepath.Join(top, filepath.FromSlash(f)), filepath.Join(dir, filepath.FromSlash(f))
		fi, err := os.Lstat(src)
		if errors.Is(err, fs.ErrNotExist) {
			_ = os.Remove(dst)
			continue
		}
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			continue // links and gitlinks stay as cloned
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
			return nil, err
		}
	}
	if _, err := git(dir, "add", "-A", "--", "."); err != nil {
		return nil, err
	}
	if _, err := git(dir, "commit", "-q", "--allow-empty", "--no-verify", "-m", "projection-witness seed"); err != nil {
		return nil, err
	}
	return &Scratch{Dir: dir}, nil
}

// Files answers the scratch's tracked files.
func (s *Scratch) Files() []string {
	files, err := repo.Tracked(s.Dir)
	if err != nil {
		return nil
	}
	return files
}

// Append adds one line to a file and answers its restore.
func (s *Scratch) Append(p string) (func() error, error) {
	full := filepath.Join(s.Dir, filepath.FromSlash(p))
	old, err := os.ReadFile(full)
	if err != nil {
		return nil, err
	}
	add := "projection-witness\n"
	if len(old) > 0 && old[len(old)-1] != '\n' {
		add = "\n" + add
	}
	if err := os.WriteFile(full, append(append([]byte(nil), old...), add...), 0o644); err != nil {
		return nil, err
	}
	return func() error { return os.WriteFile(full, old, 0o644) }, nil
}

// Create writes and stages a new file and answers its removal.
func (s *Scratch) Create(p string) (func() error, error) {
	full := filepath.Join(s.Dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(full, []byte("projection-witness\n"), 0o644); err != nil {
		return nil, err
	}
	if _, err := git(s.Dir, "add", "-f", "--", p); err != nil {
		return nil, err
	}
	return func() error {
		if _, err := git(s.Dir, "rm", "-q", "--cached", "--", p); err != nil {
			return err
		}
		return os.Remove(full)
	}, nil
}

// SpawnRunner runs a gate by name with the running binary, its working
// directory the scratch and the gate-sdk locator blanked, so the child
// resolves the scratch's own roots.
type SpawnRunner struct {
	Dir    string
	Self   spawn.Program
	Bin    string // the binary's placement in the scratch, absolute
	Script map[string]string
}

// Run runs one gate.
func (r SpawnRunner) Run(gate string) (int, []byte, error) {
	cmd := spawn.Cmd{Program: r.Self, Args: []string{gate}, Dir: r.Dir, ExtraEnv: []string{"GATE_SDK_ROOT=", "GATE_SDK_NATIVE_BIN=" + r.Bin}}
	if p, ok := r.Script[gate]; ok {
		cmd = spawn.Cmd{Program: spawn.Bash(), Args: []string{p}, Dir: r.Dir, ExtraEnv: cmd.ExtraEnv}
	}
	m, err := spawn.RunMerged(cmd)
	if err != nil {
		return 0, nil, err
	}
	code, ok := m.Code()
	if !ok {
		return 0, m.Output(), fmt.Errorf("%s was signalled", gate)
	}
	return code, m.Output(), nil
}
