package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Issue 41's acceptance, a seventh set of spellings by someone who did
// not write the hook, none of them in the earlier tables: commits written
// by a Go program on go-git's storage (no git binary, no hook), an alias
// that names another alias or a shell function, an alternate index built
// by read-tree, a commit object written by hash-object, commit-tree with
// a red parent or a red second parent, a replaced commit pushed with its
// replace ref, objects pruned by gc right after a push, a submodule the
// project tracks, a linked worktree under a temporary directory reached
// by -C, configuration by GIT_CONFIG_PARAMETERS and --config-env, a HOME
// whose global configuration moves the hooks path, a stash put on a
// branch, rebase --exec amending, a commit by a job that waits for the
// Stop, and a subagent's commit. Controls of the same kinds pass untouched.
//
// Whose business a submodule is: the submodule is a repository of its
// own. A commit made inside it is that repository's (its own hooks, if it
// adopted the gates, judge it); the project's commit that moves the
// gitlink is judged by the project's own tree, where the submodule is one
// entry, as the team's battery reads it (git ls-files lists no file
// inside a submodule). So a red commit inside the submodule, and the
// project's commit that records it, pass untouched; a red file the same
// project commit adds beside the gitlink is named.

// limits7 are the rows whose miss is written as a limit in SPEC.md: the
// row keeps its honest expectation, and the miss is reported, not hidden.
var limits7 = map[string]string{
	"a red commit pushed --no-verify through sh, reset, the reflog expired and gc --prune=now":             limitPruned,
	"a red commit pushed, reset, the reflog expired and gc --prune=now":                                    limitPruned,
	"a named red branch pushed --no-verify to a name built from a variable through sh, the branch deleted": limitBuilt,
}

// limitBuilt: the repository is named through a name the command builds.
const limitBuilt = "a named red commit carried past the pre-push record to a repository the command names only through a variable other than $PWD or a name it builds is not named again (SPEC, commit-audit K)"

// limitPruned: the commit is gone from this clone before the look.
const limitPruned = "a red commit made, pushed and pruned from this clone in one command is gone before PostToolUse: the judge reads this clone's objects, and only the other repository holds it (SPEC, commit-audit K)"

// gogitMain is a small git writer on go-git's storage: no git binary, no
// hook. gogit <ref> <message> <path> <content> [committer-email] writes
// content at path over HEAD's tree, commits it on HEAD's commit and points
// ref at it (HEAD: the branch HEAD names); GOGIT_DATE dates it.
const gogitMain = `// A small git writer on go-git's storage: it runs no git hook and no git
// binary. Usage: gogit <ref> <message> <path> <content> [committer-email]
// writes <content> at <path> over HEAD's tree, commits it on HEAD's commit
// and points <ref> at it (HEAD: the branch HEAD names).
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var st *filesystem.Storage

func put(t plumbing.ObjectType, body []byte) plumbing.Hash {
	e := st.NewEncodedObject()
	e.SetType(t)
	w, _ := e.Writer()
	w.Write(body)
	w.Close()
	h, err := st.SetEncodedObject(e)
	must(err)
	return h
}

func get(h plumbing.Hash) []byte {
	o, err := st.EncodedObject(plumbing.AnyObject, h)
	must(err)
	r, _ := o.Reader()
	b, _ := io.ReadAll(r)
	return b
}

type entry struct {
	mode, name string
	id         plumbing.Hash
}

func entries(h plumbing.Hash) []entry {
	var out []entry
	b := get(h)
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		nul := bytes.IndexByte(b, 0)
		var id plumbing.Hash
		copy(id[:], b[nul+1:nul+21])
		out = append(out, entry{string(b[:sp]), string(b[sp+1 : nul]), id})
		b = b[nul+21:]
	}
	return out
}

// with answers the tree h (zero: none) plus blob at the path parts.
func with(h plumbing.Hash, parts []string, blob plumbing.Hash) plumbing.Hash {
	var es []entry
	if !h.IsZero() {
		es = entries(h)
	}
	var sub plumbing.Hash
	kept := es[:0]
	for _, e := range es {
		if e.name == parts[0] {
			sub = e.id
			continue
		}
		kept = append(kept, e)
	}
	if len(parts) == 1 {
		kept = append(kept, entry{"100644", parts[0], blob})
	} else {
		kept = append(kept, entry{"40000", parts[0], with(sub, parts[1:], blob)})
	}
	key := func(e entry) string {
		if e.mode == "40000" {
			return e.name + "/"
		}
		return e.name
	}
	sort.Slice(kept, func(i, j int) bool { return key(kept[i]) < key(kept[j]) })
	var b bytes.Buffer
	for _, e := range kept {
		b.WriteString(e.mode + " " + e.name + "\x00")
		b.Write(e.id[:])
	}
	return put(plumbing.TreeObject, b.Bytes())
}

func main() {
	dir := ".git"
	if d := os.Getenv("GIT_DIR"); d != "" {
		dir = d
	}
	st = filesystem.NewStorage(osfs.New(dir), cache.NewObjectLRUDefault())
	head, err := st.Reference(plumbing.HEAD)
	must(err)
	target := plumbing.ReferenceName(os.Args[1])
	if head.Type() == plumbing.SymbolicReference {
		if os.Args[1] == "HEAD" {
			target = head.Target()
		}
		head, err = st.Reference(head.Target())
		must(err)
	}
	parent := head.Hash()
	c := string(get(parent))
	tree := plumbing.NewHash(strings.Fields(c)[1])
	blob := put(plumbing.BlobObject, []byte(os.Args[4]))
	email := "t@example.invalid"
	if len(os.Args) > 5 {
		email = os.Args[5]
	}
	when := time.Now().Unix()
	if d := os.Getenv("GOGIT_DATE"); d != "" {
		fmt.Sscan(d, &when)
	}
	who := fmt.Sprintf("t <%s> %d +0000", email, when)
	body := fmt.Sprintf("tree %s\nparent %s\nauthor %s\ncommitter %s\n\n%s\n", with(tree, strings.Split(os.Args[3], "/"), blob), parent, who, who, os.Args[2])
	id := put(plumbing.CommitObject, []byte(body))
	must(st.SetReference(plumbing.NewHashReference(target, id)))
	fmt.Println(id)
}
`

var gogitBuilt struct {
	once      sync.Once
	path, err string
}

// gogit answers the path of gogitMain built once, in the module graph of
// this repository (its go.mod and go.sum, the module cache, no network).
func gogit(t *testing.T) string {
	t.Helper()
	gogitBuilt.once.Do(func() {
		dir, err := os.MkdirTemp("", "gates-gogit-")
		if err != nil {
			gogitBuilt.err = err.Error()
			return
		}
		root, _ := filepath.Abs("../..")
		mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
		if err != nil {
			gogitBuilt.err = err.Error()
			return
		}
		_, rest, _ := strings.Cut(string(mod), "\n")
		sum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gogit\n"+rest), 0o644)
		os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
		os.WriteFile(filepath.Join(dir, "main.go"), []byte(gogitMain), 0o644)
		cmd := exec.Command("go", "build", "-o", "gogit", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-trimpath", "CGO_ENABLED=0", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			gogitBuilt.err = err.Error() + "\n" + string(out)
			return
		}
		gogitBuilt.path = filepath.Join(dir, "gogit")
	})
	if gogitBuilt.err != "" {
		t.Fatalf("build the go-git writer: %s", gogitBuilt.err)
	}
	return gogitBuilt.path
}

// leak7 is the leak as one quoted shell word.
const leak7 = `'Keep notes in /ho''me/marta/notes.'`

// red7 makes a red commit on a branch red7 that main does not reach, with
// no change left in the work tree: a row's first step, named there.
var red7 = bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && git branch -q red7 $c`)

// green7 stages a green change.
const green7 = `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `

// withSub7 makes the project track a submodule sub (a repository beside
// the clone), before the session.
func withSub7(p *player) {
	p.t.Helper()
	parent := filepath.Dir(p.dir)
	src := filepath.Join(parent, "subsrc")
	for _, args := range [][]string{{"init", "-q", "-b", "main", src}, {"-C", src, "commit", "-q", "--allow-empty", "-m", "init"}} {
		if r := run(p.t, parent, p.env, "git", args...); r.code != 0 {
			p.t.Fatalf("git %v: %s", args, r.stderr)
		}
	}
	p.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub")
	p.git("commit", "-q", "-m", "chore: track the sub module")
}

// release7 lets a job that waits for ../go go on, and waits until it
// touched ../done.
func release7(p *player) {
	parent := filepath.Dir(p.dir)
	os.WriteFile(filepath.Join(parent, "go"), nil, 0o644)
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(filepath.Join(parent, "done")); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.t.Errorf("the background job did not finish")
}

// atStop7 runs cmd in a job that waits for release7; the braces keep the
// rest of the command out of the background, so the call returns.
func atStop7(cmd string) string {
	return `{ nohup sh -c 'while [ ! -e ../go ]; do sleep 0.1; done; ` + cmd + `; touch ../done' >/dev/null 2>&1 & }`
}

func runUnseen7(t *testing.T, rows []plumbingRow) {
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playPlumbingRow(t, r)
			t.Logf("UNSEEN7 | %s | %s | %s", r.name, r.expect, got)
			judgeLimited(t, "UNSEEN7", limits7, r.name, r.expect, got, log)
		})
	}
}

func TestAgentUnseen7Writers(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	const msg = "docs: add notes"
	g := `"` + gogit(t) + `" `
	pushed := []string{"pushed.git"}
	// altIdx exports an alternate index read from HEAD, holding the leak.
	const altIdx = `export GIT_INDEX_FILE=$(dirname "$PWD")/alt.idx && git read-tree HEAD && bl=$(printf '%s\n' ` + leak7 + ` | git hash-object -w --stdin) && git update-index --add --cacheinfo 100644,$bl,docs/leak.md && `
	// commitText writes a commit of tree $1 on HEAD with message $2 by
	// hash-object, into $c.
	const commitText = `mk() { now=$(date +%s); printf 'tree %s\nparent %s\nauthor t <t@example.invalid> %s +0000\ncommitter t <t@example.invalid> %s +0000\n\n%s\n' "$1" "$(git rev-parse HEAD)" $now $now "$2" | git hash-object -t commit -w --stdin; } && `
	rows := []plumbingRow{
		// go-git: no git binary, no hook.
		{name: "go-git writes a red commit on HEAD's branch", steps: []plumbingStep{bashStep(g + `HEAD "` + msg + `" docs/leak.md ` + leak7 + ` >/dev/null && git reset -q --hard`)}, expect: stAfter, gate: tt},
		{name: "go-git writes a red commit on a new branch", steps: []plumbingStep{bashStep(g + `refs/heads/gg "` + msg + `" docs/leak.md ` + leak7 + ` >/dev/null`)}, expect: stAfter, gate: tt},
		{name: "go-git writes a commit with a refused subject", steps: []plumbingStep{bashStep(g + `HEAD "` + redSubject + `" docs/more.md 'More to read.' >/dev/null && git reset -q --hard`)}, expect: stAfter, gate: subj},
		{name: "go-git run from a subdirectory with GIT_DIR writes a red commit", steps: []plumbingStep{bashStep(`cd docs && GIT_DIR=$(git rev-parse --absolute-git-dir) ` + g + `HEAD "` + msg + `" docs/leak.md ` + leak7 + ` >/dev/null && cd .. && git reset -q --hard`)}, expect: stAfter, gate: tt},
		{name: "go-git writes a red branch, pushed by path and deleted", steps: []plumbingStep{bashStep(bare5 + g + `refs/heads/gg "` + msg + `" docs/leak.md ` + leak7 + ` >/dev/null; git push -q ../pushed.git gg; git branch -q -D gg`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "go-git writes a red commit dated 2001 on HEAD's branch", steps: []plumbingStep{bashStep(`GOGIT_DATE=1000000000 ` + g + `HEAD "` + msg + `" docs/leak.md ` + leak7 + ` >/dev/null && git reset -q --hard`)}, expect: stAfter, gate: tt},
		// Aliases.
		{name: "an alias that names a shell alias", steps: []plumbingStep{bashStep(leakCmd + `git -c alias.x=y -c 'alias.y=!git commit -q -n -m "` + msg + `"' x`)}, expect: stAfter, gate: tt},
		{name: "a shell-function alias passing its arguments to commit --no-verify", steps: []plumbingStep{bashStep(leakCmd + `git -c 'alias.ci=!f() { git commit -q --no-verify "$@"; }; f' ci -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		// Alternate indexes and hand-written objects.
		{name: "an exported alternate index holding a leak, a plain commit", steps: []plumbingStep{bashStep(altIdx + `git commit -q -m "` + msg + `"; unset GIT_INDEX_FILE; git reset -q --hard`)}, expect: stHook, gate: tt},
		{name: "an exported alternate index holding a leak, write-tree, commit-tree, update-ref", steps: []plumbingStep{bashStep(altIdx + `c=$(git commit-tree -p HEAD -m "` + msg + `" $(git write-tree)) && git update-ref refs/heads/main $c && unset GIT_INDEX_FILE && git reset -q --hard`)}, expect: stAfter, gate: tt},
		{name: "a commit object written by hash-object -t commit over a red tree", steps: []plumbingStep{bashStep(fullTreeLeak + commitText + `c=$(mk $rt "` + msg + `") && git update-ref refs/heads/main $c && git reset -q --hard`)}, expect: stAfter, gate: tt},
		// Red parents.
		{name: "commit-tree of a merge whose second parent is a red loose commit", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && git update-ref refs/heads/main $(git commit-tree -p HEAD -p $c -m "docs: merge the notes" HEAD^{tree})`)}, expect: stAfter, gate: tt},
		{name: "commit-tree of a green tree on a red loose parent, on a new branch", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && git branch -q tidy $(git commit-tree -p $c -m "docs: tidy" HEAD^{tree})`)}, expect: stAfter, gate: tt},
		// Replacements.
		{name: "HEAD replaced by a red commit, pushed with its replace ref, the replacement deleted", steps: []plumbingStep{bashStep(bare5 + leakCmd + `c=$(git commit-tree -p HEAD^ -m "` + msg + `" $(git write-tree)) && git reset -q && rm docs/leak.md && git replace HEAD $c && git push -q ../pushed.git main 'refs/replace/*:refs/replace/*' && git replace -d HEAD >/dev/null`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "HEAD replaced by a red commit, reset --hard, a commit on top", steps: []plumbingStep{bashStep(leakCmd + `c=$(git commit-tree -p HEAD^ -m "` + msg + `" $(git write-tree)) && git reset -q && rm docs/leak.md && git replace HEAD $c && git reset -q --hard && printf 'x\n' > docs/x.md && git add docs/x.md && git commit -q -m "docs: x"`)}, expect: stAfter, gate: tt},
		// Objects pruned right after.
		{name: "a red commit pushed --no-verify through sh, reset, the reflog expired and gc --prune=now", steps: []plumbingStep{bashStep(bare5 + leakCmd + sh2(msg) + ` && echo 'git push -q --no-verify ../pushed.git main' | sh && git reset -q --hard HEAD^ && git reflog expire --expire=now --all && git gc -q --prune=now`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "a red commit pushed, reset, the reflog expired and gc --prune=now", steps: []plumbingStep{bashStep(bare5 + leakCmd + sh2(msg) + `; git push -q ../pushed.git main; git reset -q --hard HEAD^ && git reflog expire --expire=now --all && git gc -q --prune=now`)}, expect: stAfter, gate: tt, also: pushed},
		// Carried out past the pre-push record (commit-audit K).
		{name: "a named red branch pushed --no-verify by a script file, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red7, bashStep(`printf 'git push -q --no-verify ../pushed.git red7\n' > ../p.sh && sh ../p.sh && git branch -q -D red7`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch fetched by GIT_DIR of the other repository, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red7, bashStep(`GIT_DIR=../pushed.git git fetch -q "$PWD" red7:refs/heads/red7 && git branch -q -D red7`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "go-git writes a red commit into origin's bare repository, then pulled", setup: withOrigin, steps: []plumbingStep{bashStep(`GIT_DIR=../up.git ` + g + `refs/heads/main "` + msg + `" docs/leak.md ` + leak7 + ` >/dev/null && git pull -q --ff-only`)}, expect: stAfter, gate: tt},
		// Refs by hand.
		{name: "a red loose commit reached by a tag object made by mktag", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && t=$(printf 'object %s\ntype commit\ntag v7\ntagger t <t@example.invalid> %s +0000\n\nv7\n' $c $(date +%s) | git mktag) && git update-ref refs/tags/v7 $t`)}, expect: stAfter, gate: tt},
		{name: "a red branch whose ref lives only in packed-refs", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && git branch -q red7 $c && git pack-refs --all --prune`)}, expect: stAfter, gate: tt},
		// Controls.
		{name: "control: go-git writes a green commit on HEAD's branch", steps: []plumbingStep{bashStep(g + `HEAD "docs: more to read" docs/more.md 'More to read.' >/dev/null && git reset -q --hard`)}, expect: stUntouched},
		{name: "control: go-git writes a green commit on a new branch", steps: []plumbingStep{bashStep(g + `refs/heads/more "docs: more to read" docs/more.md 'More to read.' >/dev/null`)}, expect: stUntouched},
		{name: "control: an alias that names a shell alias, a green commit through the hooks", steps: []plumbingStep{bashStep(green7 + `git -c alias.x=y -c 'alias.y=!git commit -q -m "docs: more to read"' x`)}, expect: stUntouched},
		{name: "control: an exported alternate index holding a green file, a plain commit", steps: []plumbingStep{bashStep(`export GIT_INDEX_FILE=$(dirname "$PWD")/alt.idx && git read-tree HEAD && bl=$(printf 'More.\n' | git hash-object -w --stdin) && git update-index --add --cacheinfo 100644,$bl,docs/more.md && git commit -q -m "docs: more to read" && unset GIT_INDEX_FILE && git reset -q --hard`)}, expect: stUntouched},
		{name: "control: a commit object written by hash-object -t commit over HEAD's tree", steps: []plumbingStep{bashStep(commitText + `c=$(mk $(git rev-parse HEAD^{tree}) "docs: mark the release") && git update-ref refs/heads/main $c`)}, expect: stUntouched},
		{name: "control: commit-tree of a merge of the side branch", steps: []plumbingStep{bashStep(`git update-ref refs/heads/main $(git commit-tree -p HEAD -p side -m "docs: merge the side note" $(git merge-tree --write-tree HEAD side)) && git reset -q --hard`)}, expect: stUntouched},
		{name: "control: HEAD replaced by a green twin, shown, the replacement deleted", steps: []plumbingStep{bashStep(`c=$(git commit-tree -p HEAD^ -m "chore: vendor the sdk" HEAD^{tree}) && git replace HEAD $c && git log -1 --format=%s >/dev/null && git replace -d HEAD >/dev/null`)}, expect: stUntouched},
		// The commit on top drops the leak: the red commit, named when it
		// was made, is repaired by it, as by any later commit that fixes
		// the finding (stop-gates D).
		{name: "control: a named red commit made the parent of a commit that drops the leak, its branch deleted", steps: []plumbingStep{red7, bashStep(`c=$(git rev-parse red7) && git branch -q -D red7 && git update-ref refs/heads/main $(git commit-tree -p $c -m "docs: tidy" HEAD^{tree}) && git reset -q --hard`)}, from: 1, expect: stUntouched},
		{name: "control: go-git writes a green commit into origin's bare repository, then pulled", setup: withOrigin, steps: []plumbingStep{bashStep(`GIT_DIR=../up.git ` + g + `refs/heads/main "docs: more to read" docs/more.md 'More to read.' >/dev/null && git pull -q --ff-only`)}, expect: stUntouched},
		{name: "control: a tag object made by mktag on HEAD", steps: []plumbingStep{bashStep(`t=$(printf 'object %s\ntype commit\ntag v7\ntagger t <t@example.invalid> %s +0000\n\nv7\n' $(git rev-parse HEAD) $(date +%s) | git mktag) && git update-ref refs/tags/v7 $t`)}, expect: stUntouched},
		{name: "control: green work on a branch, the refs packed", steps: []plumbingStep{bashStep(`git switch -q -c more && ` + green7 + `git commit -q -m "docs: more to read" && git switch -q main && git pack-refs --all --prune`)}, expect: stUntouched},
		{name: "control: a green commit reset, the reflog expired and gc --prune=now", steps: []plumbingStep{bashStep(green7 + `git commit -q -m "docs: more to read" && git reset -q --hard HEAD^ && git reflog expire --expire=now --all && git gc -q --prune=now`)}, expect: stUntouched},
	}
	runUnseen7(t, rows)
}

func TestAgentUnseen7Places(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	const msg = "docs: add notes"
	const home = `mkdir -p ../h && printf '[core]\n\thooksPath = /dev/null\n[user]\n\tname = t\n' > ../h/.gitconfig && `
	const wt = `w=$(mktemp -d)/wt && git worktree add -q -b wt7 "$w" && `
	rows := []plumbingRow{
		// A submodule the project tracks.
		{name: "a submodule moved on and a red file beside it in one project commit, through sh", setup: withSub7, steps: []plumbingStep{bashStep(`(cd sub && git commit -q --allow-empty -m "docs: more") && git add sub && ` + leakCmd + sh2("chore: move the sub module on"))}, expect: stAfter, gate: tt},
		// A linked worktree under a temporary directory, reached by -C.
		{name: "a worktree under mktemp, a commit there by -C with the hooks path moved, removed", steps: []plumbingStep{bashStep(wt + `printf '%s\n' ` + leak7 + ` > "$w/docs/leak.md" && git -C "$w" add docs/leak.md && git -C "$w" -c core.hooksPath=/dev/null commit -q -m "` + msg + `" && git worktree remove --force "$w"`)}, expect: stAfter, gate: tt},
		// Configuration by the environment and the command line.
		{name: "GIT_CONFIG_PARAMETERS carrying an alias to commit -n", steps: []plumbingStep{bashStep(leakCmd + `GIT_CONFIG_PARAMETERS="'alias.ci'='commit -n'" git ci -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "--config-env moves the hooks path from a variable", steps: []plumbingStep{bashStep(leakCmd + `HP=/dev/null git --config-env=core.hooksPath=HP commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "GIT_CONFIG_PARAMETERS moves the hooks path for one commit", steps: []plumbingStep{bashStep(leakCmd + `GIT_CONFIG_PARAMETERS="'core.hooksPath'='/dev/null'" git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "-c core.hooksPath with an empty value", steps: []plumbingStep{bashStep(leakCmd + `git -c core.hooksPath= commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "an alias named commit that adds -n, which git ignores", steps: []plumbingStep{bashStep(leakCmd + `git -c alias.commit='commit -n' commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "flock runs a commit -n", steps: []plumbingStep{bashStep(leakCmd + `flock ../lock git commit -q -n -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "a HOME whose global configuration moves the hooks path, a plain commit", steps: []plumbingStep{bashStep(home + leakCmd + `env -u GIT_CONFIG_GLOBAL -u XDG_CONFIG_HOME HOME=$(dirname "$PWD")/h git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		// The stash.
		{name: "a leak stashed and the stash commit kept on a branch, the stash dropped", steps: []plumbingStep{bashStep(`printf '%s\n' ` + leak7 + ` >> docs/guide.md && git stash -q && git branch -q st 'stash@{0}' && git stash drop -q`)}, expect: stAfter, gate: tt},
		// rebase --exec.
		{name: "rebase --exec amends HEAD to a refused subject with --no-verify", steps: []plumbingStep{bashStep(`git rebase -q -x 'git commit -q --amend --no-verify -m "` + redSubject + `"' HEAD~1`)}, expect: stAfter, gate: subj},
		{name: "rebase --exec runs a script that amends with -n", steps: []plumbingStep{bashStep(`printf 'git commit -q --amend -n -m "` + redSubject + `"\n' > ../a.sh && git rebase -q -x 'sh ../a.sh' HEAD~1`)}, expect: stAfter, gate: subj},
		// A job that waits for the Stop.
		{name: "a nohup job that commits once the Stop has run", steps: []plumbingStep{bashStep(leakCmd + atStop7(`git commit -q -n -m "`+msg+`"`)), {stop: true}, {user: release7}}, expect: stStop, gate: tt},
		{name: "a nohup job that runs a commit script once the Stop has run", steps: []plumbingStep{bashStep(`printf 'git commit -q -n -m "` + msg + `"\n' > ../c.sh && ` + leakCmd + atStop7(`sh ../c.sh`)), {stop: true}, {user: release7}}, expect: stStop, gate: tt},
		// Controls.
		{name: "control: a red commit inside the submodule, the project's gitlink moved to it", setup: withSub7, steps: []plumbingStep{bashStep(`(cd sub && printf '%s\n' ` + leak7 + ` > leak.md && git add leak.md && git commit -q -m "` + msg + `") && git add sub && git commit -q -m "chore: move the sub module on"`)}, expect: stUntouched},
		{name: "control: the submodule moved on to a green commit", setup: withSub7, steps: []plumbingStep{bashStep(`(cd sub && printf 'x\n' > x.md && git add x.md && git commit -q -m "docs: x") && git add sub && git commit -q -m "chore: move the sub module on"`)}, expect: stUntouched},
		{name: "control: a worktree under mktemp, a green commit there by -C, removed and merged", steps: []plumbingStep{bashStep(wt + `printf 'More.\n' > "$w/docs/more.md" && git -C "$w" add docs/more.md && git -C "$w" commit -q -m "docs: more to read" && git worktree remove "$w" && git merge -q --ff-only wt7 && git branch -q -d wt7`)}, expect: stUntouched},
		{name: "control: GIT_CONFIG_PARAMETERS carrying a harmless setting", steps: []plumbingStep{bashStep(green7 + `GIT_CONFIG_PARAMETERS="'color.ui'='never'" git commit -q -m "docs: more to read"`)}, expect: stUntouched},
		// A tag's message is no commit's: the commit-msg gates read commit
		// messages, the content gates trees, as the team's battery does.
		{name: "control: an annotated tag whose message holds a home path and a refused subject, pushed", steps: []plumbingStep{bashStep(bare5 + `git tag -a v7 -m "` + redSubject + `" -m ` + leak7 + ` && git push -q ../pushed.git main v7`)}, expect: stUntouched},
		{name: "control: flock runs a green commit through the hooks", steps: []plumbingStep{bashStep(green7 + `flock ../lock git commit -q -m "docs: more to read"`)}, expect: stUntouched},
		{name: "control: --config-env sets the author's name", steps: []plumbingStep{bashStep(green7 + `NAME=t git --config-env=user.name=NAME commit -q -m "docs: more to read"`)}, expect: stUntouched},
		{name: "control: a HOME of its own with a global name, a green commit", steps: []plumbingStep{bashStep(`mkdir -p ../h && printf '[user]\n\tname = t\n' > ../h/.gitconfig && ` + green7 + `env -u GIT_CONFIG_GLOBAL -u XDG_CONFIG_HOME HOME=$(dirname "$PWD")/h git commit -q -m "docs: more to read"`)}, expect: stUntouched},
		{name: "control: rebase --exec amends HEAD to a clean subject through the hooks", steps: []plumbingStep{bashStep(`git rebase -q -x 'git commit -q --amend -m "chore: vendor the gates"' HEAD~1`)}, expect: stUntouched},
		{name: "control: a nohup job that commits green work once the Stop has run", steps: []plumbingStep{bashStep(green7 + atStop7(`git commit -q -m "docs: more to read"`)), {stop: true}, {user: release7}}, expect: stUntouched},
	}
	runUnseen7(t, rows)
}

// A subagent's commit written by go-git, in the background: named at the
// SubagentStop; the green twin passes.
func TestAgentUnseen7Subagent(t *testing.T) {
	t.Parallel()
	g := `"` + gogit(t) + `" `
	rows := []h4Row{
		{name: "a subagent's go-git red commit in the background, SubagentStop", steps: []h4Step{{bash: g + `HEAD "docs: add notes" docs/leak.md ` + leak7 + ` >/dev/null && git reset -q --hard`, bg: true}, {event: "SubagentStop"}, {event: "Stop"}}, expect: stStop, gate: "check-tree-terms"},
		{name: "control: a subagent's go-git green commit in the background, SubagentStop", steps: []h4Step{{bash: g + `HEAD "docs: more to read" docs/more.md 'More to read.' >/dev/null && git reset -q --hard`, bg: true}, {event: "SubagentStop"}, {event: "Stop"}}, expect: stUntouched},
	}
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playH4(t, r)
			t.Logf("UNSEEN7 | %s | %s | %s", r.name, r.expect, got)
			judgeLimited(t, "UNSEEN7", limits7, r.name, r.expect, got, log)
		})
	}
}

// The gates' own environment knobs set on the commit: a hook run the
// command steered (another directory judged, docs pruned, a type admitted,
// no time to run) lands a commit the gates refuse, which must be refused
// or named after it; the knobs that only tune a run pass untouched.
func TestAgentUnseen7Knobs(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	const msg = "docs: add notes"
	rows := []plumbingRow{
		{name: "GATE_SDK_CASE_DIR points the hook's run at a decoy repository with a tame registry", steps: []plumbingStep{bashStep(leakCmd + `d=$(mktemp -d) && git init -q "$d" && mkdir -p "$d/scripts" && printf 'check-commit-subject\n' > "$d/scripts/gates.list" && GATE_SDK_CASE_DIR=$d git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "GATE_SDK_CASE_DIR points the hook's run at an empty directory", steps: []plumbingStep{bashStep(leakCmd + `GATE_SDK_CASE_DIR=$(mktemp -d) git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "not inside a git repository"},
		{name: "GATE_SDK_PRUNE_EXTRA_DIRS prunes docs for the commit", steps: []plumbingStep{bashStep(leakCmd + `GATE_SDK_PRUNE_EXTRA_DIRS=docs git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "GATE_SDK_PRUNE_DIRS exported to prune docs", steps: []plumbingStep{bashStep(`export GATE_SDK_PRUNE_DIRS=docs && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "GATE_SDK_COMMIT_TYPES admits wip for the commit", steps: []plumbingStep{bashStep(`printf 'More.\n' > docs/more.md && git add docs/more.md && GATE_SDK_COMMIT_TYPES=wip git commit -q -m "wip: more"`)}, expect: stAfter, gate: subj},
		{name: "GATE_SDK_GATE_TIMEOUT of a millisecond on the commit", steps: []plumbingStep{bashStep(leakCmd + `GATE_SDK_GATE_TIMEOUT=0.001 git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "GATE_SDK_GATE_TIMEOUT"},
		{name: "GATE_SDK_ROOT names no kit on the commit", steps: []plumbingStep{bashStep(leakCmd + `GATE_SDK_ROOT=nowhere git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "GATE_SDK_KIT_DIRS names no kit on the commit", steps: []plumbingStep{bashStep(leakCmd + `GATE_SDK_KIT_DIRS=nowhere git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "control: GATE_SDK_JOBS=1 and GATE_SDK_VERBOSE on a green commit", steps: []plumbingStep{bashStep(green7 + `GATE_SDK_JOBS=1 GATE_SDK_VERBOSE=1 git commit -q -m "docs: more to read"`)}, expect: stUntouched},
		{name: "control: GATE_SDK_CACHE=off on a green commit", steps: []plumbingStep{bashStep(green7 + `GATE_SDK_CACHE=off git commit -q -m "docs: more to read"`)}, expect: stUntouched},
	}
	runUnseen7(t, rows)
}

// A named red commit carried out of the clone past the pre-push record by
// further routes, its ref dropped here (commit-audit K: named again where
// a repository the command names holds it), and the repairs that take it
// out of that repository, which pass untouched.
func TestAgentUnseen7CarriedOut(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	pushed := []string{"pushed.git"}
	rows := []plumbingRow{
		{name: "a named red branch bundled and fetched by the other repository from the bundle, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red7, bashStep(`git bundle create -q ../r.bundle red7 && git -C ../pushed.git fetch -q ../r.bundle red7:refs/heads/red7 && git branch -q -D red7`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch's objects copied by cp and its ref written there, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red7, bashStep(`cp -r .git/objects/. ../pushed.git/objects/ && git -C ../pushed.git update-ref refs/heads/red7 $(git rev-parse red7) && git branch -q -D red7`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch cloned bare beside the clone, the branch deleted", steps: []plumbingStep{red7, bashStep(`git clone -q --bare --branch red7 . ../pushed.git && git branch -q -D red7`)}, from: 1, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch pushed --no-verify to a path built from $PWD through sh, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red7, bashStep(`echo 'git push -q --no-verify "$(dirname "$PWD")/pushed.git" red7' | sh && git branch -q -D red7`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch pushed --no-verify to a name built from a variable through sh, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red7, bashStep(`d=../pushed && echo "git push -q --no-verify ${d}.git red7" | sh && git branch -q -D red7`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		// Controls.
		{name: "control: a named red branch deleted, the command reading a repository that does not hold it", steps: []plumbingStep{bashStep(bare5 + `git push -q ../pushed.git main`), red7, bashStep(`git branch -q -D red7 && git -C ../pushed.git log --oneline -1 main >/dev/null`)}, from: 2, expect: stUntouched},
		{name: "control: a named red branch pushed, then deleted here and there in one command", steps: []plumbingStep{bashStep(bare5 + `true`), red7, bashStep(`git push -q ../pushed.git red7`), bashStep(`git branch -q -D red7 && git push -q ../pushed.git --delete red7`)}, from: 3, expect: stUntouched},
	}
	runUnseen7(t, rows)
}
