package gates

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// hygieneGates answers the commit and tree hygiene family: the commit-msg
// pair, the leak scan over the tree, the clone's identity, the core-file
// pins, the two tiering rules, index modes, the portability floor and the
// harness-literal scan. Knobs lists every knob each rule reads, the shared
// derivations it calls included (the prune set, the kit roots).
func hygieneGates() []gate.Def {
	msg := func(more ...string) []string { return append([]string{msgPatternKnob, msgPatternLocalKnob}, more...) }
	git := []string{"git"} // the members listing a pathspec corpus or reading the clone's config
	return []gate.Def{
		{Name: "check-commit-msg", AnyLayout: true, Operands: "<message-file> [<pattern-file>...]", Rule: checkCommitMsg, Knobs: msg()},
		{Name: "check-commit-subject", AnyLayout: true, Operands: "<message-file>", Rule: checkCommitSubject, Knobs: []string{"GATE_SDK_COMMIT_TYPES"}},
		{Name: "check-core-files", Listing: true, Operands: "[<manifest>]", Rule: checkCoreFiles, Knobs: []string{"GATE_SDK_CORE_FILES_FILE", "GATE_SDK_KIT_DIRS"}},
		{Name: "check-exec-bit", Listing: true, Operands: "[<ls-files-dump>]", Rule: checkExecBit, Knobs: []string{"GATE_SDK_EXEC_GLOBS", "GATE_SDK_EXEC_PRUNE"}},
		{Name: "check-harness-literal", Listing: true, Operands: "-", Rule: checkHarnessLiteral, Knobs: []string{"GATE_SDK_HARNESS_LITERALS", "GATE_SDK_HARNESS_LITERAL_PATHS"}, Needs: git},
		{Name: "check-identity", AnyLayout: true, Operands: "-", Rule: checkIdentity, Knobs: []string{"GATE_SDK_IDENTITY_FILE", "GATE_SDK_GIT_EMAIL_FILE",
			"GATE_SDK_GIT_REMOTES_FILE", "GATE_SDK_GH_HOSTS_FILE", "GATE_SDK_GH_HOST"}, Needs: git},
		{Name: "check-portability-floor", Listing: true, Operands: "[<pattern-file>...]", Rule: checkPortabilityFloor, Knobs: []string{"GATE_SDK_PORTABILITY_PATTERNS",
			"GATE_SDK_PORTABILITY_PATHS", "GATE_SDK_KIT_DIRS", registry.KitTemplatesKnob}, Needs: git},
		{Name: "check-root-tiering", Listing: true, Operands: "[<gates-dir> [<root>]]", Rule: checkRootTiering, Knobs: []string{"GATE_SDK_ROOT_ALLOWLIST", "GATE_SDK_QUEUE_FILE", "GATE_SDK_AGENT_FILE"}},
		{Name: "check-tree-terms", AnyLayout: true, Listing: true, PerFile: true, Operands: "[<root> [<pattern-file>...]]", Rule: checkTreeTerms, Knobs: msg("GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS", "GATE_SDK_KIT_DIRS", registry.KitTemplatesKnob), ReadsTree: true},
		{Name: "check-workflow-tiering", Listing: true, Operands: "-", Rule: checkWorkflowTiering, Knobs: []string{"GATE_SDK_WORKFLOW_DIR"}, Needs: git},
	}
}

// ---- helpers shared by the hygiene family ----

// runPath answers p as a path the process can open: a relative p is taken
// against the gate's run directory, never against the process's cwd.
func runPath(c *gate.Context, p string) string {
	p = walk.CrossArg(p)
	if c.Dir == "" {
		return p
	}
	return walk.AbsAgainst(c.Dir, p)
}

// treePath answers p spelled as the tracked listing spells it: relative to
// the run directory, no "./" lead, no trailing '/'. A rooted p outside the
// run directory keeps its rooted spelling, which no listed path equals.
func treePath(c *gate.Context, p string) string {
	spelled, _ := walk.ListingSpelling(c.Dir, p)
	return spelled
}

// readOptional reads a configuration file that may legitimately be absent.
// present is false only for a path that does not exist; any other failure
// (a directory, a permission error) is an error, since a file that exists
// but cannot be read must never read as an absent one.
func readOptional(c *gate.Context, p string) (data []byte, present bool, err error) {
	if data, found, err := configCopy(c, p); found || err != nil {
		return data, true, err
	}
	data, err = walk.ReadConfigIn(c.Dir, runPath(c, p))
	if err == nil {
		return data, true, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return nil, true, fmt.Errorf("cannot read %s: %w", p, unwrapPath(err))
}

// readFile reads p resolved against the run directory.
func readFile(c *gate.Context, p string) ([]byte, error) {
	if data, found, err := configCopy(c, p); found || err != nil {
		return data, err
	}
	return walk.ReadConfigIn(c.Dir, runPath(c, p))
}

// configCopy answers the copy of p the run's caller chose in place of the
// disk's (the git hook: the index's), found false when it chose none.
func configCopy(c *gate.Context, p string) (data []byte, found bool, err error) {
	if c.ConfigCopy == nil {
		return nil, false, nil
	}
	data, found, err = c.ConfigCopy(runPath(c, p))
	if err != nil {
		return nil, false, fmt.Errorf("cannot read %s from the index: %w", p, err)
	}
	return data, found, nil
}

// readOperand reads a file named on the command line. It is required: a
// missing one is a refusal naming what it was meant to be.
func readOperand(c *gate.Context, p, what string) ([]byte, error) {
	if data, found, err := configCopy(c, p); found || err != nil {
		return data, err
	}
	data, err := walk.ReadConfigIn(c.Dir, runPath(c, p))
	if err == nil {
		return data, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s %s does not exist", what, p)
	}
	return nil, fmt.Errorf("cannot read %s %s: %w", what, p, unwrapPath(err))
}

// unwrapPath drops the *fs.PathError wrapping so a message names the path
// once, in the caller's spelling.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// splitLines answers data's lines without their '\n' terminators. A final
// line lacking a terminator is kept; an empty input has no lines.
func splitLines(data []byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	n := bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		n++
	}
	lines := make([][]byte, 0, n)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i])
		data = data[i+1:]
	}
	return lines
}

// pruneSet answers the shared prune set: GATE_SDK_PRUNE_DIRS (which
// replaces the kit default) followed by GATE_SDK_PRUNE_EXTRA_DIRS (which
// appends to it).
func pruneSet(c *gate.Context) (walk.PruneSet, error) {
	dirs, err := c.Knobs.Scalar("GATE_SDK_PRUNE_DIRS")
	if err != nil {
		return walk.PruneSet{}, err
	}
	extra, err := c.Knobs.Scalar("GATE_SDK_PRUNE_EXTRA_DIRS")
	if err != nil {
		return walk.PruneSet{}, err
	}
	return walk.NewPruneSet(dirs, extra), nil
}

// listTracked answers the tracked paths under the given pathspecs, spelled
// relative to the run directory, from one NUL-terminated git ls-files. The
// pathspecs reach git as written, so exclude magic works. A name that is
// not UTF-8 is refused rather than dropped.
func listTracked(c *gate.Context, pathspecs []string) ([]string, error) {
	return repo.Git{Env: c.ChildEnviron()}.Tracked(c.Dir, pathspecs...)
}

// readTracked reads a tracked file's content. A symbolic link is followed,
// as opening the path would: its target's bytes are read, not the link
// text the index stores.
func readTracked(c *gate.Context, p string) ([]byte, error) {
	if mode, _ := c.Tree.Mode(p); mode == 0o120000 {
		return walk.ReadConfigIn(c.Dir, runPath(c, p))
	}
	return c.Tree.Read(p)
}

// corpusFile is one member of a pathspec corpus, read once.
type corpusFile struct {
	path string
	data []byte
}

// pathspecCorpus lists the tracked files under pathspecs (as written,
// exclude magic included) and reads each one not in exempt. A gitlink is
// no file and is passed over; a member holding a NUL byte is binary,
// skipped and counted. A member that cannot be read is an error.
func pathspecCorpus(c *gate.Context, pathspecs []string, exempt map[string]bool) (files []corpusFile, binary int, err error) {
	paths, err := listTracked(c, pathspecs)
	if err != nil {
		return nil, 0, err
	}
	for _, p := range paths {
		if exempt[p] {
			continue
		}
		if mode, _ := c.Tree.Mode(p); mode == 0o160000 {
			continue
		}
		data, err := readTracked(c, p)
		if err != nil {
			return nil, 0, fmt.Errorf("cannot read corpus member %s: %w", p, unwrapPath(err))
		}
		if bytes.IndexByte(data, 0) >= 0 {
			binary++
			continue
		}
		files = append(files, corpusFile{path: p, data: data})
	}
	return files, binary, nil
}

// runGit runs git in the run directory and answers its stdout; a program
// that could not start or exited non-zero is an error carrying its report.
func runGit(c *gate.Context, args ...string) ([]byte, error) {
	done, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: c.Dir, ExtraEnv: c.SpawnEnv, Recorder: c.Spawns})
	if err != nil {
		return nil, err
	}
	if out, ok := done.Stdout(); ok {
		return out, nil
	}
	report, _ := done.FailureReport()
	return nil, fmt.Errorf("git %s failed: %s", strings.Join(args, " "), report)
}

// probeRepo refuses a run directory git places in no repository, and
// passes through a repository git refused.
func probeRepo(c *gate.Context) error {
	_, ok, err := walk.ToplevelOpt(c.Dir, c.ChildEnviron())
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s: not inside a git repository", c.Dir)
	}
	return nil
}

// valveReason answers the reason a valve marker carries on line: the text
// after marker, ended by a comment closer ("-->" or "*/") when one follows,
// with blanks trimmed. found is false when the line carries no marker.
func valveReason(line []byte, marker string) (reason string, found bool) {
	i := bytes.Index(line, []byte(marker))
	if i < 0 {
		return "", false
	}
	rest := line[i+len(marker):]
	for _, closer := range []string{"-->", "*/"} {
		if j := bytes.Index(rest, []byte(closer)); j >= 0 {
			rest = rest[:j]
		}
	}
	return strings.TrimSpace(string(rest)), true
}

// valved reports whether line i of lines, or the line just above it,
// carries marker with a non-empty reason. The window is one line up and no
// further; an empty reason does not open it.
func valved(lines [][]byte, i int, marker string) bool {
	for _, j := range []int{i, i - 1} {
		if j < 0 {
			continue
		}
		if r, ok := valveReason(lines[j], marker); ok && r != "" {
			return true
		}
	}
	return false
}

// listingRoot answers a scan-root operand spelled as the tracked listing
// spells it ("docs", "./docs/", "docs/." and "<dir>/docs" are one root), or
// an error when the operand names nothing a scan could cover: a path
// outside the run directory, a path that is neither tracked-under nor
// present, or a file. A root that is a present directory with no tracked
// file under it is honest ("0 files") and accepted.
func listingRoot(c *gate.Context, arg string, files []string) (string, error) {
	root, inside := walk.ListingSpelling(c.Dir, arg)
	if !inside {
		return "", fmt.Errorf("scan root %s lies outside the run directory %s (or reaches it through '..', which no tracked listing spells): name a directory inside the tree", arg, c.Dir)
	}
	if root == "." {
		return root, nil
	}
	for _, p := range files {
		if p == root {
			return "", fmt.Errorf("scan root %s is a tracked file, not a directory: name the directory that holds it", arg)
		}
	}
	for _, p := range files {
		if underRoot(root, p) {
			return root, nil
		}
	}
	fi, err := os.Stat(runPath(c, root))
	switch {
	case err != nil:
		return "", fmt.Errorf("scan root %s names nothing (no tracked path under it, and %v)", arg, unwrapPath(err))
	case !fi.IsDir():
		return "", fmt.Errorf("scan root %s is a file, not a directory", arg)
	}
	return root, nil
}
