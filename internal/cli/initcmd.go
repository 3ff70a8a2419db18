package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/gate-sdk/gates/internal/githook"
	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/internal/payload"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// initKnobs are the knobs `gates init` reads.
var initKnobs = []string{"GATE_SDK_ROOT", "GATE_SDK_GATES_DIR", "GATE_SDK_NATIVE_BIN",
	"GATE_SDK_PAYLOAD_WITHHOLD", "GATE_SDK_MSG_PATTERN_FILES", "GATE_SDK_MSG_PATTERN_FILES_LOCAL",
	"GATE_SDK_ROOT_ALLOWLIST", "GATE_SDK_TMP_DIR"}

// runInit is `gates init`: the vendoring from the kit this binary carries.
func runInit(s *Session, args []string) int {
	return readableCommand(s, args, payload.InitUsage+initHarnessUsage, func() int {
		args, harnessName, err := splitHarness(args)
		if err != nil {
			fmt.Fprintln(s.Stderr, err)
			return 2
		}
		if harnessName != "" && slices.Contains(args, "--uninstall") {
			fmt.Fprintf(s.Stderr, "init: --harness does not combine with --uninstall: a bare --uninstall takes the gate-sdk entries out of %s\n", harnessSettings[harnessName].file)
			return 2
		}
		w, err := s.initWorld()
		if err != nil {
			fmt.Fprintf(s.Stderr, "init: %v\n", err)
			return 2
		}
		// The probes' scratch directory is init's own when the tree had
		// none: it goes again, so --uninstall finds the tree as it was.
		if tmp, terr := s.tmpDirAbs(); terr == nil {
			if _, serr := os.Lstat(tmp); errors.Is(serr, fs.ErrNotExist) {
				defer os.RemoveAll(tmp)
			}
		}
		var unwire harnessUnwire
		if slices.Contains(args, "--uninstall") {
			unwire = s.planUnwireHarness()
		}
		if harnessName != "" {
			w.RootEntries = append(w.RootEntries, harnessDir)
		}
		code := payload.RunInit(args, w)
		if code != 2 && unwire != nil {
			if c := unwire(slices.Contains(args, "--dry-run")); c != 0 {
				return c
			}
			return code
		}
		if code != 0 || harnessName == "" {
			return code
		}
		return s.wireHarness(harnessName, slices.Contains(args, "--dry-run"))
	})
}

// tmpDirAbs answers GATE_SDK_TMP_DIR, absolute against the work-tree top,
// where init's probes run.
func (s *Session) tmpDirAbs() (string, error) {
	tmp, err := s.tmpKnob()
	if err != nil {
		return "", err
	}
	top, err := s.Top()
	if err != nil {
		return "", err
	}
	return walk.AbsAgainst(top, tmp), nil
}

// initHarnessUsage is the harness wiring's line of init's usage.
const initHarnessUsage = `

--harness claude also merges the agent-hook registrations (commit-guard,
edit-gates, stop-gates) and the status line into .claude/settings.json,
keeping your own entries, and puts .claude on the root allowlist; a file
that is not JSON of the harness's shape is refused and left as it was.
--uninstall takes those registrations out again.`

// readableCommand serves a readable command's help, usage on stdout at
// exit 0 wherever -h or --help stands, and otherwise runs it.
func readableCommand(s *Session, args []string, usage string, run func() int) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprintln(s.Stdout, usage)
			return 0
		}
	}
	return run()
}

// repoKnobs answers the repository's toplevel, in the module's dialect,
// and the knob set: what init and doctor both start from.
func (s *Session) repoKnobs() (string, *knob.Set, error) {
	top, err := s.Top()
	if err != nil {
		return "", nil, err
	}
	set, err := s.Knobs()
	if err != nil {
		return "", nil, err
	}
	return walk.NormalizeAbs(top), set, nil
}

// initWorld wires init to the session: knobs, the tracked listing, the
// running image, a probe that runs one gate as a child of this build, and
// the clone's hook configuration.
func (s *Session) initWorld() (*payload.InitWorld, error) {
	top, set, err := s.repoKnobs()
	if err != nil {
		return nil, err
	}
	self, err := spawn.SelfImage()
	if err != nil {
		return nil, err
	}
	return &payload.InitWorld{
		Top: top, Stdout: s.Stdout, Stderr: s.Stderr, Env: s.Env, Stamp: sourceStamp,
		Knob: set.Scalar,
		Self: func() ([]byte, error) { return os.ReadFile(self) },
		Tracked: func() ([]string, error) {
			return repo.Tracked(top)
		},
		Branch: func() (string, error) {
			h, err := repo.ReadHead(top)
			if err != nil {
				return "", err
			}
			return strings.TrimPrefix(h.Branch, "refs/heads/"), nil
		},
		Probe: func(gate string) (int, []byte, error) {
			m, err := spawn.RunMerged(spawn.Cmd{Program: spawn.At(self), Args: []string{gate}, Dir: top})
			if err != nil {
				return 2, nil, err
			}
			return m.ReportedCode(), m.Output(), nil
		},
		InstallHooks: func(bin string, takeOver bool) (int, error) {
			args := []string{"--install-hooks"}
			if takeOver {
				args = append(args, "--take-over")
			}
			return spawn.RunPassing(spawn.Cmd{Program: spawn.At(bin), Args: args, Dir: top}, s.Stdout)
		},
		Hooks: cloneHooks{top: top},
	}, nil
}

// cloneHooks is the hook configuration of one clone: core.hooksPath, the
// placed hooks directory, and init's record beside it under the git
// common dir, which no commit carries.
type cloneHooks struct{ top string }

const hookRecordName = "gates-init-hooks.json"

func (c cloneHooks) HooksPath() (string, bool, error) { return repo.ConfigGet(c.top, "core.hooksPath") }

func (c cloneHooks) SetHooksPath(v string, set bool) error {
	args := []string{"config", "core.hooksPath", v}
	if !set {
		args = []string{"config", "--unset", "core.hooksPath"}
	}
	r, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: c.top})
	if err != nil {
		return err
	}
	// git config --unset of an unset key exits 5: the state wanted holds.
	if rep, failed := r.FailureReport(); failed && !(r.Code() == 5 && !set) {
		return fmt.Errorf("git %s: %s", strings.Join(args, " "), rep)
	}
	// A take-over by --install-hooks left its own note of the old value;
	// init's record restores it, so that note goes too.
	unset := []string{"config", "--unset", githook.PreviousHooksPathKey}
	r, err = spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: unset, Dir: c.top})
	if err != nil {
		return err
	}
	if rep, failed := r.FailureReport(); failed && r.Code() != 5 {
		return fmt.Errorf("git %s: %s", strings.Join(unset, " "), rep)
	}
	return nil
}

func (c cloneHooks) HooksDir() (string, error) { return githook.HooksDir(c.top) }

func (c cloneHooks) recordPath() (string, error) {
	_, common, err := walk.GitDirs(c.top, nil)
	if err != nil {
		return "", err
	}
	return walk.Child(common, hookRecordName), nil
}

func (c cloneHooks) Record() (*payload.HookRecord, error) {
	p, err := c.recordPath()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r payload.HookRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s does not parse: %v", p, err)
	}
	return &r, nil
}

func (c cloneHooks) SaveRecord(r *payload.HookRecord) error {
	p, err := c.recordPath()
	if err != nil {
		return err
	}
	data, _ := json.Marshal(r)
	return os.WriteFile(p, append(data, '\n'), 0o644)
}

func (c cloneHooks) DropRecord() error {
	p, err := c.recordPath()
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
