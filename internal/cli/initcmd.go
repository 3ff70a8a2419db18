package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
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
		if code == 0 && harnessName == "" && !slices.Contains(args, "--uninstall") {
			// assertion J: a later init brings each harness it wired to
			// this release's registrations.
			return s.refreshHarnesses(slices.Contains(args, "--dry-run"))
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
commit-audit, edit-gates, git-dir-guard, stop-gates) and the status line
into .claude/settings.json, keeping your own entries, and puts .claude on
the root allowlist; a file that is not JSON of the harness's shape is
refused and left as it was. Each registration runs the binary through a
short sh stub that blocks with the restore command when the binary is gone
or differs from the one the hooks recorded; registrations an older init
wrote are rewritten that way. --uninstall takes those registrations out
again.`

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
		Baseline: func(asCommitted bool) ([]byte, error) { return s.initBaseline(self, top, asCommitted) },
		EmitGraph: func() ([]byte, error) {
			env, done, err := asCommittedIndex(top)
			if err != nil {
				return nil, err
			}
			defer done()
			c, err := spawn.Run(spawn.Cmd{Program: spawn.At(self), Args: []string{"--emit", "graph"}, Dir: top, ExtraEnv: env})
			if err != nil {
				return nil, err
			}
			out, ok := c.Stdout()
			if !ok {
				return nil, fmt.Errorf("gates --emit graph: exit %d: %s", c.Code(), strings.TrimSpace(string(c.Stderr())))
			}
			return out, nil
		},
		InstallHooks: func(bin string, takeOver bool) (int, error) {
			args := []string{"--install-hooks"}
			if takeOver {
				args = append(args, "--take-over")
			}
			return spawn.RunPassing(spawn.Cmd{Program: spawn.At(bin), Args: args, Dir: top}, s.Stdout)
		},
		RefreshHooks: func(bin string) (int, error) {
			return spawn.RunPassing(spawn.Cmd{Program: spawn.At(bin), Args: []string{"--install-hooks", "--refresh"}, Dir: top}, s.Stdout)
		},
		Hooks: cloneHooks{top: top},
		Ignored: func(paths []string, root []byte) (map[string]string, error) {
			return ignoredPaths(top, paths, root)
		},
		Messages: func(n int) ([]payload.HistoryCommit, error) { return recentMessages(top, n) },
		Judge:    s.judgeMessage,
	}, nil
}

// ignoredPaths asks git check-ignore which paths an ignore rule hides,
// ignoring the index (a path init writes is not tracked yet). With root
// non-nil it asks a scratch repository whose root .gitignore holds root.
func ignoredPaths(top string, paths []string, root []byte) (map[string]string, error) {
	dir := top
	if root != nil {
		scratch, err := os.MkdirTemp("", "gates-init-ignore-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(scratch)
		r, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"init", "-q"}, Dir: scratch})
		if err != nil {
			return nil, err
		}
		if rep, failed := r.FailureReport(); failed {
			return nil, fmt.Errorf("git init: %s", rep)
		}
		if err := os.WriteFile(walk.Child(scratch, ".gitignore"), root, 0o644); err != nil {
			return nil, err
		}
		dir = scratch
	}
	in := strings.Join(paths, "\x00") + "\x00"
	r, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"check-ignore", "--no-index", "-v", "-z", "--stdin"}, Dir: dir, Stdin: strings.NewReader(in)})
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	if r.Code() == 1 {
		return out, nil // none is ignored
	}
	data, ok := r.Stdout()
	if !ok {
		rep, _ := r.FailureReport()
		return nil, fmt.Errorf("git check-ignore: %s", rep)
	}
	// -z -v: source, line, pattern, path, each NUL-terminated.
	f := strings.Split(string(data), "\x00")
	for i := 0; i+3 < len(f); i += 4 {
		if f[i+2] == "" || strings.HasPrefix(f[i+2], "!") {
			continue // no rule, or a negation: the path is not hidden
		}
		src := f[i]
		if rel, ok := walk.RelUnder(top, walk.NormalizeAbs(src)); ok {
			src = rel
		}
		out[f[i+3]] = src + ":" + f[i+1] + ":" + f[i+2]
	}
	return out, nil
}

// recentMessages answers the last n non-merge commits with their authors,
// newest first; a repository with no commit has none.
func recentMessages(top string, n int) ([]payload.HistoryCommit, error) {
	head, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"rev-parse", "--verify", "-q", "HEAD"}, Dir: top})
	if err != nil {
		return nil, err
	}
	if !head.Succeeded() {
		return nil, nil
	}
	r, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"log", "-n", strconv.Itoa(n), "--no-merges", "--format=%an%x1f%ae%x1f%B%x00", "HEAD"}, Dir: top})
	if err != nil {
		return nil, err
	}
	data, ok := r.Stdout()
	if !ok {
		rep, _ := r.FailureReport()
		return nil, fmt.Errorf("git log: %s", rep)
	}
	var out []payload.HistoryCommit
	for _, rec := range strings.Split(string(data), "\x00") {
		rec = strings.TrimLeft(rec, "\n")
		f := strings.SplitN(rec, "\x1f", 3)
		if len(f) != 3 {
			continue
		}
		if m := strings.TrimLeft(f[2], "\n"); m != "" {
			out = append(out, payload.HistoryCommit{Author: f[0], Email: f[1], Message: m})
		}
	}
	return out, nil
}

// judgeMessage runs a commit-message gate over one message: in process,
// or, with knob settings in env, as a child of this build that reads them
// first.
func (s *Session) judgeMessage(gate, message string, env []string) (bool, error) {
	f, err := os.CreateTemp("", "gates-init-msg-")
	if err != nil {
		return false, err
	}
	defer os.Remove(f.Name())
	_, werr := f.WriteString(message)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return false, werr
	}
	var code int
	var out []byte
	if len(env) > 0 {
		self, err := spawn.SelfImage()
		if err != nil {
			return false, err
		}
		top, err := s.Top()
		if err != nil {
			return false, err
		}
		c, err := spawn.RunMerged(spawn.Cmd{Program: spawn.At(self), Args: []string{gate, f.Name()}, Dir: top, ExtraEnv: env})
		if err != nil {
			return false, err
		}
		code, out = c.ReportedCode(), c.Output()
	} else {
		code, out = s.runCompiled(githook.CompiledRun{Name: gate, Args: []string{f.Name()}})
	}
	if code != 0 && code != 1 {
		return false, fmt.Errorf("%s exited %d: %s", gate, code, strings.TrimSpace(string(out)))
	}
	return code == 0, nil
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
	// The linked worktrees' include names the gates' directory too.
	if err := githook.DropWorktreeInclude(c.top, mustHooksDir(c.top)); err != nil {
		return err
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

// mustHooksDir is HooksDir where the directory is only named, never read:
// "" when git cannot say.
func mustHooksDir(top string) string {
	d, _ := githook.HooksDir(top)
	return d
}

func (c cloneHooks) Foreign() (string, error) { return githook.OtherHooks(c.top) }

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
