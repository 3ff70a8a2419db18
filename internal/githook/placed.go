package githook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/digest"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// RecordName is the opt-in record beside the hooks directory under git's
// common dir: which hooks --install-hooks placed, with each file's digest
// and the stat fields that let a later check skip re-reading it. No
// commit carries it, and the agent's file tools may not edit it.
const RecordName = "gate-hooks.placed"

// recordHeader opens the record's text.
const recordHeader = "gates placed hooks v1"

// placedFile is one line of the record.
type placedFile struct {
	name string
	sum  string
	stat statKey
}

// statKey is what a file's stat says about whether its bytes changed: a
// replaced, rewritten or re-moded file changes at least one of these.
type statKey struct {
	size, mtime, ctime, ino int64
}

func (k statKey) String() string {
	return fmt.Sprintf("%d %d %d %d", k.size, k.mtime, k.ctime, k.ino)
}

func keyOf(fi os.FileInfo) statKey {
	k := statKey{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	k.ctime, k.ino = ctimeIno(fi)
	return k
}

// recordPath answers the record's path for the hooks directory dir.
func recordPath(dir string) string { return walk.Child(filepath.Dir(dir), RecordName) }

// writeRecord records the hooks placed in dir under names.
func writeRecord(dir string, names []string) error {
	// assertion M: each placed hook's digest and stat fields.
	var files []placedFile
	for _, n := range names {
		p := walk.Child(dir, n)
		sum, err := digest.File(p)
		if err != nil {
			return fmt.Errorf("cannot record the placed hook %s: %v", p, err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("cannot record the placed hook %s: %v", p, err)
		}
		files = append(files, placedFile{name: n, sum: sum, stat: keyOf(fi)})
	}
	return saveRecord(dir, files)
}

// saveRecord writes the record's lines whole.
func saveRecord(dir string, files []placedFile) error {
	var b strings.Builder
	b.WriteString(recordHeader + "\n")
	for _, f := range files {
		fmt.Fprintf(&b, "%s %s %s\n", f.name, f.sum, f.stat)
	}
	if err := walk.ReplaceFile(recordPath(dir), []byte(b.String())); err != nil {
		return fmt.Errorf("cannot write the opt-in record: %v", err)
	}
	return nil
}

// readRecord answers the record's lines; ok is false when there is none.
func readRecord(dir string) (files []placedFile, ok bool, err error) {
	data, err := walk.ReadConfig(recordPath(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 0 || lines[0] != recordHeader {
		return nil, true, fmt.Errorf("%s: not an opt-in record this binary writes", recordPath(dir))
	}
	for i, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 6 {
			return nil, true, fmt.Errorf("%s:%d: malformed line", recordPath(dir), i+2)
		}
		var n [4]int64
		for j := range n {
			if n[j], err = strconv.ParseInt(f[2+j], 10, 64); err != nil {
				return nil, true, fmt.Errorf("%s:%d: malformed line", recordPath(dir), i+2)
			}
		}
		files = append(files, placedFile{name: f[0], sum: f[1], stat: statKey{n[0], n[1], n[2], n[3]}})
	}
	return files, true, nil
}

// Placed is what git will run for a commit at one work tree, set against
// what --install-hooks placed.
type Placed struct {
	// OptedIn: the clone recorded an opt-in (or core.hooksPath names the
	// gates' directory).
	OptedIn bool
	// Resolved is the hooks directory git resolves; Ours the gates' one.
	Resolved, Ours string
	// Problems says, one line each, where what git runs is not what was
	// placed; empty when every placed hook serves.
	Problems []string
	// Repair is the binary's arguments that put the hooks back.
	Repair string
	// Other is set when git runs another hook manager's live directory
	// (one holding an active hook) in place of the gates' one: husky's
	// `.husky/_`, lefthook's hooks. It is Resolved then.
	Other string
}

// CheckPlaced compares the hooks git would run at top with the placed
// ones: present, executable and the very bytes recorded.
func CheckPlaced(top string) (Placed, error) {
	// assertion N: git resolves the hooks directory, every config scope
	// and include counted; each recorded hook there must be present,
	// executable and the bytes placed.
	ours, err := HooksDir(top)
	if err != nil {
		return Placed{}, err
	}
	st := Placed{Ours: ours, Repair: "--install-hooks"}
	files, recorded, err := readRecord(ours)
	if err != nil {
		return Placed{}, err
	}
	resolved, err := repo.Git{}.HooksPath(top)
	if err != nil {
		return Placed{}, err
	}
	st.Resolved = resolved
	st.OptedIn = recorded || OptedIn(top, ours)
	if !st.OptedIn {
		return st, nil
	}
	if !recorded {
		// An opt-in from before the record: presence and the mode only.
		for _, h := range []string{PreCommit, CommitMsg} {
			files = append(files, placedFile{name: h + ExeSuffix()})
		}
	}
	if !isDirPath(resolved) {
		st.Problems = append(st.Problems, fmt.Sprintf("git resolves the hooks directory to %s, which does not exist, so git runs no hook", resolved))
	} else {
		home := sameDir(resolved, ours)
		restat := false
		// moved counts the placed hooks another manager's install put
		// aside as <name>.old, the very bytes placed, writing its own in
		// their place (lefthook's way); kept is false once a problem is
		// not that.
		moved, kept := 0, true
		for i, f := range files {
			msg, key := checkOne(walk.Child(resolved, f.name), f, home)
			if msg != "" {
				st.Problems = append(st.Problems, msg)
				if home && f.sum != "" && movedAside(walk.Child(resolved, f.name), f.sum) {
					moved++
				} else {
					kept = false
				}
			} else if home && recorded && key != f.stat {
				// The same bytes under new stat fields (a copied clone):
				// recorded, so the next check reads no file.
				files[i].stat, restat = key, true
			}
		}
		if restat && len(st.Problems) == 0 {
			saveRecord(ours, files)
		}
		if moved > 0 && kept {
			// assertion T: another hook manager installed over the placed
			// hooks, keeping them beside its own.
			st.Other = resolved
		}
	}
	if len(st.Problems) > 0 && !sameDir(resolved, ours) && len(activeHooks(resolved)) > 0 {
		// assertion T: another hook manager's directory, live.
		st.Other = resolved
	}
	if len(st.Problems) > 0 && !sameDir(resolved, ours) {
		st.Problems = append(st.Problems, fmt.Sprintf("core.hooksPath resolves to %s, not the gates' %s", resolved, ours))
		if !HooksPathRepairable(top, ours) {
			st.Repair = "--install-hooks --take-over"
		}
	}
	return st, nil
}

// movedAside reports a hook at p that is an executable regular file of
// another's, with the placed bytes (sum) kept beside it as p.old.
func movedAside(p, sum string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || ExeSuffix() == "" && fi.Mode().Perm()&0o111 == 0 {
		return false
	}
	got, err := digest.File(p + ".old")
	return err == nil && got == sum
}

// checkOne answers what is wrong with the hook at p, "" when it is the
// placed file. home says p is the file the record's stat fields describe.
func checkOne(p string, f placedFile, home bool) (string, statKey) {
	fi, err := os.Lstat(p)
	if err != nil {
		return fmt.Sprintf("%s is missing", p), statKey{}
	}
	if !fi.Mode().IsRegular() {
		return fmt.Sprintf("%s is not a regular file", p), statKey{}
	}
	if ExeSuffix() == "" && fi.Mode().Perm()&0o111 == 0 {
		return fmt.Sprintf("%s is not executable, so git skips it", p), statKey{}
	}
	key := keyOf(fi)
	if f.sum == "" || home && key == f.stat {
		return "", key
	}
	sum, err := digest.File(p)
	if err != nil {
		return fmt.Sprintf("%s cannot be read (%v)", p, err), key
	}
	if sum != f.sum {
		return fmt.Sprintf("%s is not the hook --install-hooks placed (its bytes differ)", p), key
	}
	return "", key
}

func isDirPath(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// HooksPathValue answers the core.hooksPath value that names dir from
// top: relative to the work-tree top when the top's own .git directory is
// git's common dir (so a moved or copied clone keeps its hooks), else dir
// itself.
func HooksPathValue(top, dir string) string {
	// assertion E: relative where the clone's .git holds the hooks.
	dotgit := walk.Child(top, ".git")
	if isDirPath(dotgit) && sameDir(dotgit, filepath.Dir(dir)) {
		return ".git/" + filepath.Base(dir)
	}
	return dir
}

// HooksPathRepairable reports a core.hooksPath that --install-hooks may
// rewrite without a take-over: unset, naming the gates' directory, or
// naming a gates hooks directory that no longer exists (a clone moved
// from under an absolute value).
func HooksPathRepairable(top, ours string) bool {
	// assertion K: a gates directory a move left behind is ours to rewrite.
	v, set, err := repo.ConfigGet(top, "core.hooksPath")
	if err != nil {
		return false
	}
	if !set || v == "" {
		return true
	}
	p := walk.AbsAgainst(top, walk.CrossArg(v))
	return sameDir(p, ours) || filepath.Base(p) == HooksDirName && !isDirPath(p)
}

// dropRecord removes the opt-in record (an opt-out).
func dropRecord(dir string) error {
	err := os.Remove(recordPath(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// recordPlaced records every hook file now in dir (the placement
// siblings, dot-named, are not hooks).
func recordPlaced(dir string) error {
	ents, err := walk.ListDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return writeRecord(dir, names)
}

// WorktreeInclude is the config file, beside the hooks directory, that a
// linked worktree includes: a relative core.hooksPath would resolve
// against the linked worktree's top, where .git is a file, so each linked
// worktree reads the absolute directory from it instead.
const WorktreeInclude = "gate-hooks.worktree"

// worktreeIncludeKey is the conditional include that reads it: it matches
// only the git dirs of linked worktrees.
const worktreeIncludeKey = "includeIf.gitdir:**/.git/worktrees/**.path"

// pointLinkedWorktrees writes the include file naming dir and the
// conditional include that reads it, when value is relative.
func pointLinkedWorktrees(top, dir, value string) error {
	if value == dir {
		return nil
	}
	// assertion E: linked worktrees read the absolute directory.
	body := "[core]\n\thooksPath = " + quoteConfig(dir) + "\n"
	p := walk.Child(filepath.Dir(dir), WorktreeInclude)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %v", p, err)
	}
	return setConfig(top, worktreeIncludeKey, WorktreeInclude)
}

// DropWorktreeInclude removes what pointLinkedWorktrees made (an opt-out).
func DropWorktreeInclude(top, dir string) error {
	if dir != "" {
		err := os.Remove(walk.Child(filepath.Dir(dir), WorktreeInclude))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return unsetConfig(top, worktreeIncludeKey)
}

// quoteConfig spells v as a git config value.
func quoteConfig(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(v) + `"`
}

// activeHooks answers the hooks in dir git would run: executable regular
// files not named as git's samples.
func activeHooks(dir string) []string {
	ents, err := walk.ListDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".sample") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if fi, err := os.Stat(walk.Child(dir, e.Name())); err == nil && fi.Mode().IsRegular() && (ExeSuffix() != "" || fi.Mode().Perm()&0o111 != 0) {
			out = append(out, e.Name())
		}
	}
	return out
}

// Footing states.
const (
	FootingOff    = iota // the clone never opted in
	FootingOn            // git runs the placed hooks on the recorded binary
	FootingBroken        // opted in, and something between git and the binary is not as placed
)

// Footing answers, from stats and small reads (a digest only where a stat
// moved), whether a commit at top runs the placed hooks on the recorded
// binary: hooksDir is the directory git resolves, common git's common
// directory, env the environment the launcher would read its knob from.
// Broken comes with why. A placement with no record (from before records)
// is on when both hooks are there, executable: nothing more can be told.
func Footing(top, common, hooksDir string, env Lookup) (int, string) {
	ours := walk.Child(common, HooksDirName)
	files, recorded, rerr := readRecord(ours)
	if filepath.Base(hooksDir) != HooksDirName {
		if recorded {
			return FootingBroken, fmt.Sprintf("git runs the hooks in %s", hooksDir)
		}
		return FootingOff, ""
	}
	for _, h := range []string{PreCommit, CommitMsg} {
		fi, err := os.Stat(walk.Child(hooksDir, h+ExeSuffix()))
		if err != nil || !fi.Mode().IsRegular() || ExeSuffix() == "" && fi.Mode().Perm()&0o111 == 0 {
			if recorded {
				return FootingBroken, h + " is missing or not executable"
			}
			return FootingOff, ""
		}
	}
	if rerr != nil {
		return FootingBroken, rerr.Error()
	}
	if !recorded {
		return FootingOn, ""
	}
	home := sameDir(hooksDir, ours)
	want := ""
	for _, f := range files {
		if f.name != PreCommit+ExeSuffix() && f.name != CommitMsg+ExeSuffix() {
			continue
		}
		if msg, _ := checkOne(walk.Child(hooksDir, f.name), f, home); msg != "" {
			return FootingBroken, fmt.Sprintf("%s is not the placed hook", f.name)
		}
		if f.name == PreCommit+ExeSuffix() {
			want = f.sum
		}
	}
	bin, err := ReadNativeBin(top, env)
	if err != nil {
		return FootingBroken, err.Error()
	}
	path := walk.AbsAgainst(top, bin.Value)
	if main := mainWorktreeBinary(top, common, bin); main != "" {
		path = main
	}
	// The recorded bytes without the execute bit (or not a file) run
	// nothing: every hook refuses, so the footing is not on.
	if fi, err := os.Stat(path); err == nil && (!fi.Mode().IsRegular() || ExeSuffix() == "" && fi.Mode().Perm()&0o111 == 0) {
		return FootingBroken, fmt.Sprintf("%s is not an executable file", bin.Value)
	}
	if want == "" || SameBuild(walk.Child(hooksDir, PreCommit+ExeSuffix()), path) {
		return FootingOn, ""
	}
	got, err := digest.File(path)
	if err == nil && got == want {
		if was := src(ours); home && (was == path || bin.Origin == "default" && !isFilePath(was)) {
			// The recorded build under new stat fields, or at a new path
			// where the recorded one is gone (a copied or moved clone):
			// recorded, so the next look costs stats only.
			writeSource(ours, path)
		}
		return FootingOn, ""
	}
	if bin.Origin != "default" {
		return FootingBroken, fmt.Sprintf("%s=%s (from %s) is not the recorded binary", NativeBinKnob, bin.Value, bin.Origin)
	}
	if err != nil {
		return FootingBroken, fmt.Sprintf("%s is gone", bin.Value)
	}
	return FootingBroken, fmt.Sprintf("%s is not the recorded binary", bin.Value)
}

// mainWorktreeBinary answers, for a linked worktree that holds no binary
// at the default path (it is gitignored, so a new worktree has none), the
// main worktree's copy at the same path, when there is one; "" otherwise.
// The copy is verified against the record as the worktree's own would be.
func mainWorktreeBinary(top, common string, bin NativeBin) string {
	if bin.Origin != "default" || walk.PathRoot(bin.Value) || filepath.Base(common) != ".git" {
		return ""
	}
	if isFilePath(walk.AbsAgainst(top, bin.Value)) {
		return ""
	}
	main := filepath.Dir(common)
	if walk.NormalizeAbs(main) == walk.NormalizeAbs(top) {
		return ""
	}
	if p := walk.AbsAgainst(main, bin.Value); isFilePath(p) {
		return p
	}
	return ""
}

// isFilePath reports a regular file at p.
func isFilePath(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
