package cli

// --files: what a hook manager (pre-commit, lefthook) runs with the paths
// it hands over. See gate-sdk/SPEC.md §The command line, "Hook managers".

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gate-sdk/gates/internal/walk"
)

// filesArm is the arm-table row of --files.
func filesArm() Arm {
	return Arm{Flag: "--files", Synopsis: "[<path>...]",
		Summary: "what a hook manager runs with the paths it passes: inside a commit, the pre-commit hook over the staged content; outside, the battery when the paths name every tracked file, else the gates the paths trigger, over the work tree",
		Knobs:   []string{"GATE_SDK_GATES_DIR", "GATE_SDK_KIT_DIRS", "GATE_SDK_JOBS"},
		Family:  Run, Main: runFiles, Paths: true}
}

// filesMode is how --files reads its operands.
type filesMode int

const (
	filesStaged  filesMode = iota // judge the commit being made: --git-hook pre-commit
	filesBattery                  // every tracked file named: the whole battery
	filesFor                      // a subset: --run --for the paths
)

// runFiles picks the mode and runs the arm it names.
func runFiles(s *Session, args []string) int {
	// assertion C: every operand is a path, a tracked file named --help or
	// -h included (a manager passes the names it lists, unquoted and
	// unseparated); a leading -- is dropped, as a manager's template may
	// place one. Help is `gates help --files`.
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	mode, paths, err := s.filesMode(args)
	if err != nil {
		return s.fail(err)
	}
	switch mode {
	case filesStaged:
		return runGitHook(s, []string{"pre-commit"})
	case filesBattery:
		return runBattery(s, nil)
	}
	// The paths are spelled from the top now; rooted at it, no dash-led
	// name reads as an option to --for, whatever directory --for resolves
	// from.
	top, err := s.Top()
	if err != nil {
		return s.fail(err)
	}
	forArgs := []string{"--for"}
	for _, p := range paths {
		forArgs = append(forArgs, walk.Child(walk.NormalizeAbs(top), p))
	}
	return runBattery(s, forArgs)
}

// filesMode answers the mode and the operands cleaned of "./" spellings.
func (s *Session) filesMode(args []string) (filesMode, []string, error) {
	// assertion A: git names the index a commit is built from in
	// GIT_INDEX_FILE for its commit hooks (pre-commit and lefthook relay
	// them with the environment intact), so a set GIT_INDEX_FILE is a
	// commit: the staged content is judged, whatever paths came with it
	// (a manager leaves deletions out of its list; the index does not).
	// No path at all is pre-commit's staged run with nothing to pass.
	if _, inCommit := s.Env("GIT_INDEX_FILE"); inCommit || len(args) == 0 {
		return filesStaged, nil, nil
	}
	// assertion D: an operand resolves from the caller's directory, as the
	// shell that spelled it does, and one that leaves the tree is refused.
	paths, err := s.treeOperands("--files", args)
	if err != nil {
		return 0, nil, err
	}
	snap, err := s.Snapshot()
	if err != nil {
		return 0, nil, refusal{msg: s.prog + ": --files: " + err.Error()}
	}
	cwd, err := s.Cwd()
	if err != nil {
		return 0, nil, err
	}
	// assertion B: the paths name every tracked regular file the work tree
	// holds (what pre-commit's --all-files and lefthook's {all_files}
	// pass, both dropping files absent from the work tree) → the battery;
	// anything less → the gates those paths trigger.
	named := make(map[string]bool, len(paths))
	for _, p := range paths {
		named[p] = true
	}
	for _, f := range snap.Files() {
		if named[f] {
			continue
		}
		if mode, ok := snap.Mode(f); !ok || mode&0o170000 != 0o100000 {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(cwd, filepath.FromSlash(f))); err != nil || fi.Mode()&fs.ModeType != 0 {
			continue
		}
		return filesFor, paths, nil
	}
	return filesBattery, paths, nil
}
