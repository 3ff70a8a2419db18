package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/battery"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
)

// gateContext builds the run context of one in-process gate over the
// work tree, its baseline the work tree's.
func (s *Session) gateContext(def gate.Def, args []string, out, errw io.Writer, scratch string) (*gate.Context, error) {
	c, err := s.bareContext(def, args, out, errw, scratch)
	if err != nil || def.Rule == nil {
		// An arm reusing a gate's readers (armContext) reports no
		// findings and reads no baseline.
		return c, err
	}
	bl, err := s.diskBaseline()
	if err != nil {
		return nil, err
	}
	s.acceptFrom(c, bl)
	return c, nil
}

// bareContext is gateContext with no baseline read: a caller judging
// another tree (the hook's index) reads that tree's.
func (s *Session) bareContext(def gate.Def, args []string, out, errw io.Writer, scratch string) (*gate.Context, error) {
	cwd, err := s.Cwd()
	if err != nil {
		return nil, err
	}
	set, err := s.GateKnobs()
	if err != nil {
		return nil, err
	}
	gatesDir, err := s.GatesDir()
	if err != nil {
		return nil, err
	}
	roots, err := s.KitRoots()
	if err != nil {
		return nil, err
	}
	jobs, err := s.jobs()
	if err != nil {
		return nil, err
	}
	c := &gate.Context{
		Name:         def.Name,
		Args:         args,
		Dir:          cwd,
		GatesDir:     gatesDir,
		KitRoots:     roots.Paths(),
		Scratch:      scratch,
		Jobs:         jobs,
		Env:          s.Env,
		Knobs:        set,
		Tree:         lazyTree{s},
		Out:          out,
		Err:          errw,
		Coupling:     s.coupling(gatesDir),
		CouplesKnobs: couplesKnobs{s},
		Progress:     s.stageLog(),
	}
	c.ProposedMessage = s.proposedMessage
	if s.indexFirst {
		// assertion T: a git hook's rule inputs are the commit's.
		c.ConfigCopy = s.indexConfigCopy
	}
	c.Cache = s.treeCache()
	c.PriorFn = s.editPrior
	if def.OwnOnly {
		// A rule judging gates skips the kit root init vendored (gate/own.go).
		vendored, shipped, err := s.vendoredRoots(roots, gatesDir)
		if err != nil {
			return nil, err
		}
		if len(vendored) > 0 {
			var own []string
			for _, r := range c.KitRoots {
				if !gate.UnderAny(r, vendored) {
					own = append(own, r)
				}
			}
			c.KitRoots, c.VendoredRoots = own, vendored
			c.Shipped = shippedBy(c.Tree, c.Dir, shipped)
			// The filtered listing is named by the inner one's digest with
			// the lock's digests, and a prior tree of the inner listing is
			// one of the filtered listing while no vendored file changed.
			key := shippedKey(shipped)
			c.Tree = gate.OwnTreeKeyed(c.Tree, vendored, c.Shipped, key)
			if prior := c.PriorFn; prior != nil {
				c.PriorFn = func() *gate.Prior { return gate.OwnPrior(prior(), vendored, key) }
			}
		}
	}
	return c, nil
}

// runStandalone is `gates <gate> [args]`: the rule over the working
// directory with its output on the process's own streams.
func runStandalone(s *Session, def gate.Def, args []string) int {
	format, args, err := takeFormat(s.prog, args)
	if err != nil {
		return s.fail(err)
	}
	if args, err = s.standaloneOperands(def, args); err != nil {
		return s.fail(err)
	}
	if format == formatJSON {
		return runStandaloneJSON(s, def, args)
	}
	// assertion J: the scratch lives under GATE_SDK_TMP_DIR, never in the
	// system temp directory.
	scratch, err := s.scratchDir("gates-" + def.Name + "-")
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: cannot make a scratch directory: %v\n", def.Name, err)
		return 2
	}
	defer os.RemoveAll(scratch)
	c, err := s.gateContext(def, args, s.Stdout, s.Stderr, scratch)
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: %v\n", def.Name, err)
		return 2
	}
	return protect(def, c)
}

// standaloneOperands is the one resolution of a standalone run's path
// operands, the one --files and --run --for use: each is taken from the
// caller's directory and spelled from the run directory the rule reads
// from (the top, or a fixture case). One that leaves the tree is refused,
// named, before the rule reads anything; a gate's message file alone may
// lie outside (git keeps a linked worktree's message in the common git
// directory, the agent hook in a scratch file), and is handed on rooted.
// A token led by '-' (a flag, or stdin) is no path and passes as written,
// as does an operand the gate declares a word (gate.Def.Word).
// A battery member's operands come from the registry and are relative to
// the top by design: they never come through here. Outside a repository
// the operands pass unchanged and the rule refuses the run itself.
func (s *Session) standaloneOperands(def gate.Def, args []string) ([]string, error) {
	// assertion N: a standalone gate's operands resolve from the caller's
	// directory, and one that leaves the tree is refused, named.
	if len(args) == 0 {
		return args, nil
	}
	if _, err := s.Top(); err != nil {
		return args, nil
	}
	dir, err := s.Cwd()
	if err != nil {
		return nil, err
	}
	caller, err := s.callerDir()
	if err != nil {
		return nil, err
	}
	dir, caller = walk.NormalizeAbs(dir), walk.NormalizeAbs(caller)
	message := strings.HasPrefix(def.Operands, "<message-file>")
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "" || strings.HasPrefix(a, "-") || def.Word != nil && def.Word(args, i) {
			out = append(out, a)
			continue
		}
		abs := walk.AbsAgainstPhysical(caller, a)
		spelled, inside := walk.ListingSpelling(dir, abs)
		switch {
		case !inside && !(message && i == 0):
			return nil, refusal{msg: fmt.Sprintf("%s: operand %s does not name a path inside the repository %s (it lies outside or climbs out through '..'); name a path inside the tree", def.Name, a, dir)}
		case caller == dir:
			out = append(out, a) // spelled as the caller spelled it
		case inside:
			out = append(out, spelled)
		default:
			out = append(out, abs)
		}
	}
	return out, nil
}

// inProcess answers a battery member's Exec for a compiled rule: stdout
// and stderr captured into one buffer, as a child's would be under 2>&1.
//
// assertion K: the same context and rule as a standalone run, so the bytes match.
//
// part, when set, restricts a per-file rule to a shard's share of the
// files (gate.Context.SetPart).
func inProcess(s *Session, def gate.Def, args []string, part *gate.FilePart) func(scratch string) battery.Outcome {
	return func(scratch string) battery.Outcome {
		var buf bytes.Buffer
		w := &lockedWriter{w: &buf}
		c, err := s.gateContext(def, args, w, w, scratch)
		if err != nil {
			fmt.Fprintf(w, "%s: %v\n", def.Name, err)
			return battery.Outcome{Code: 2, Output: buf.Bytes()}
		}
		if part != nil {
			c.SetPart(*part)
		}
		code := protect(def, c)
		return battery.Outcome{Code: code, Output: buf.Bytes(), Structured: true, Findings: structured(c.Findings()), Nothing: code == 0 && c.CheckedNothing()}
	}
}

// protect runs a rule, turning a panic into that gate's exit 2 and any
// status outside 0..2 into 2.
func protect(def gate.Def, c *gate.Context) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(c.Err, "%s: internal error: %v\n", def.Name, r)
			code = 2
		}
	}()
	code = def.Rule(c)
	if code < 0 || code > 2 {
		fmt.Fprintf(c.Err, "%s: rule answered status %d; treating it as could-not-run\n", def.Name, code)
		code = 2
	}
	return code
}

// stageLog answers the progress channel of a run that asked for stage
// lines (GATE_SDK_STAGE_LOG, environment only, names the label each line
// opens with, `make test` in the Makefile): `<label>: <stage> <n> s` on
// stderr as each stage ends. Unset, a run reports none.
func (s *Session) stageLog() func(string, time.Duration) {
	label := s.Getenv("GATE_SDK_STAGE_LOG")
	if label == "" {
		return nil
	}
	w := s.Stderr
	return func(stage string, took time.Duration) {
		fmt.Fprintf(w, "%s: %s %d s\n", label, stage, int(took.Round(time.Second).Seconds()))
	}
}
