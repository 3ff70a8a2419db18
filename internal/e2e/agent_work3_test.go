package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Issue 41's acceptance, a third round on the side of "none is blocked":
// ordinary work an agent or a developer does in an adopted clone (fork and
// review flows, other clone shapes, other hook managers, everyday
// commands) played through the harness by someone who did not write the
// hook. Each row must pass untouched: no block, no reason, no advice, and
// a status line with nothing red. Where a commit IS the agent's and red,
// the words name it and the remedy they offer runs.

// w3green stages a clean page.
const w3green = `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `

// w3fetchedLeak is the first line of docs/upstream-leak.md, which a
// colleague's red commits add (upstreamCommits).
var w3fetchedLeak = strings.TrimSuffix(leakLine, "\n")

// colleagueBranch pushes, as a colleague, n red commits to a branch of
// origin other than main.
func colleagueBranch(name string, n int) func(p *player) {
	return func(p *player) {
		up := filepath.Join(filepath.Dir(p.dir), "up.git")
		colleague(n, true)(p)
		run(p.t, up, p.env, "git", "branch", "-f", name, "main")
		// main goes back where it was: the red commits are on the branch only.
		run(p.t, up, p.env, "git", "update-ref", "refs/heads/main", "main~"+strconv.Itoa(n))
	}
}

// reclone makes the clone again as `git clone <args>` of a bare copy
// beside it (origin, over file://, so --depth and --filter work), with
// the binary put back and the hooks placed as the adopting developer
// would after a fresh clone.
func reclone(args ...string) func(p *player) {
	return func(p *player) {
		parent := filepath.Dir(p.dir)
		up := filepath.Join(parent, "up.git")
		p.git("clone", "-q", "--bare", p.dir, up)
		for _, kv := range [][2]string{{"uploadpack.allowFilter", "true"}, {"uploadpack.allowAnySHA1InWant", "true"}} {
			run(p.t, up, p.env, "git", "config", kv[0], kv[1])
		}
		if err := os.RemoveAll(p.dir); err != nil {
			p.t.Fatal(err)
		}
		if r := run(p.t, parent, p.env, "git", append(append([]string{"clone", "-q"}, args...), "file://"+up, p.dir)...); r.code != 0 {
			p.t.Fatalf("clone %v: %s", args, r.stderr)
		}
		placeBinary(p)
	}
}

// placeBinary copies the test's build to bin/gates and places the hooks.
func placeBinary(p *player) {
	data, err := os.ReadFile(binPath)
	if err != nil {
		p.t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(p.dir, "bin"), 0o755)
	if err := os.WriteFile(filepath.Join(p.dir, "bin/gates"), data, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if r := run(p.t, p.dir, p.env, filepath.Join(p.dir, "bin/gates"), "--install-hooks"); r.code != 0 {
		p.t.Fatalf("--install-hooks: %s%s", r.stdout, r.stderr)
	}
}

// colleagueGreenFile pushes, as a colleague, a commit adding a clean
// page of its own to origin's main.
func colleagueGreenFile(p *player) {
	tmp := filepath.Join(filepath.Dir(p.dir), "colleague")
	up := filepath.Join(filepath.Dir(p.dir), "up.git")
	run(p.t, filepath.Dir(p.dir), p.env, "git", "clone", "-q", up, tmp)
	os.WriteFile(filepath.Join(tmp, "docs/colleague.md"), []byte("A clean page.\n"), 0o644)
	run(p.t, tmp, p.env, "git", "add", "docs/colleague.md")
	if r := run(p.t, tmp, p.env, "git", "commit", "-q", "-n", "-m", "docs: a clean page"); r.code != 0 {
		p.t.Fatalf("colleague commit: %s", r.stderr)
	}
	run(p.t, tmp, p.env, "git", "push", "-q", "--no-verify", "origin", "main")
}

// withUpstream makes a second bare copy, the project a fork was made
// from, beside the clone; it is not a remote yet.
func withUpstream(p *player) {
	withOrigin(p)
	p.git("clone", "-q", "--bare", p.dir, filepath.Join(filepath.Dir(p.dir), "project.git"))
}

// projectColleague pushes n red commits to the project the fork was made
// from.
func projectColleague(n int) func(p *player) {
	return func(p *player) {
		upstreamCommits(p.t, filepath.Join(filepath.Dir(p.dir), "project.git"), p.env, n)
	}
}

func TestAgentWork3ForkAndReview(t *testing.T) {
	t.Parallel()
	rows := []plumbingRow{
		{name: "fork: upstream present at the start, fetch and ff-merge the project's red commits", setup: func(p *player) {
			withUpstream(p)
			p.git("remote", "add", "upstream", "../project.git")
		}, steps: []plumbingStep{{user: projectColleague(3)}, bashStep(`git fetch -q upstream && git merge -q --ff-only upstream/main`)}},
		{name: "fork: upstream present at the start, green work rebased onto its red commits", setup: func(p *player) {
			withUpstream(p)
			p.git("remote", "add", "upstream", "../project.git")
		}, steps: []plumbingStep{bashStep(`git switch -q -c feat && ` + w3green + `git commit -q -m "docs: more to read"`), {user: projectColleague(3)}, bashStep(`git fetch -q upstream && git rebase -q upstream/main`)}},
		{name: "fork: upstream present at the start, its red main pushed on to the fork", setup: func(p *player) {
			withUpstream(p)
			p.git("remote", "add", "upstream", "../project.git")
		}, steps: []plumbingStep{{user: projectColleague(2)}, bashStep(`git fetch -q upstream && git merge -q --ff-only upstream/main && git push -q origin main`)}},
		{name: "review: fetch pull/1/head into a branch and check it out", setup: withOrigin, steps: []plumbingStep{{user: func(p *player) {
			colleagueBranch("pr", 2)(p)
			run(p.t, filepath.Join(filepath.Dir(p.dir), "up.git"), p.env, "git", "update-ref", "refs/pull/1/head", "pr")
		}}, bashStep(`git fetch -q origin pull/1/head:pr-1 && git checkout -q pr-1 && git log --oneline -3 >/dev/null && git checkout -q main`)}},
		{name: "review: checkout -b of a colleague's red branch", setup: withOrigin, steps: []plumbingStep{{user: colleagueBranch("feat", 2)}, bashStep(`git fetch -q origin && git checkout -q -b feat origin/feat`)}},
		{name: "review: switch --track of a colleague's red branch", setup: withOrigin, steps: []plumbingStep{{user: colleagueBranch("feat", 2)}, bashStep(`git fetch -q && git switch -q --track origin/feat`)}},
		{name: "review: a worktree detached at a colleague's red branch", setup: withOrigin, steps: []plumbingStep{{user: colleagueBranch("feat", 2)}, bashStep(`git fetch -q && git worktree add -q --detach ../review origin/feat && git -C ../review log -1 --oneline >/dev/null`)}},
		{name: "review: a worktree on a new branch at a colleague's red branch, removed", setup: withOrigin, steps: []plumbingStep{{user: colleagueBranch("feat", 2)}, bashStep(`git fetch -q && git worktree add -q -b rv ../review origin/feat && git worktree remove ../review && git branch -q -D rv`)}},
		{name: "pull --rebase of two green commits onto red upstream", setup: withOrigin, steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more"`), {user: colleague(4, true)}, bashStep(`git pull -q --rebase`)}},
		{name: "cherry-pick -x of a green commit out of red upstream history", setup: withOrigin, steps: []plumbingStep{{user: colleague(3, true)}, {user: colleagueGreenFile}, bashStep(`git fetch -q && git cherry-pick -x origin/main >/dev/null`)}},
		{name: "revert of a colleague's red commit after a pull", setup: withOrigin, steps: []plumbingStep{{user: colleague(1, true)}, bashStep(`git pull -q --ff-only && git revert --no-edit HEAD >/dev/null && test ! -e docs/upstream-leak.md`)}},
		{name: "a green commit on red upstream that fixes the leak", setup: withOrigin, steps: []plumbingStep{{user: colleague(2, true)}, bashStep(`git pull -q --ff-only && git rm -q docs/upstream-leak.md && git commit -q -m "docs: drop the stray path"`)}},
		{name: "fetch --all, remote update and fetch --prune with two start remotes", setup: func(p *player) {
			withUpstream(p)
			p.git("remote", "add", "upstream", "../project.git")
		}, steps: []plumbingStep{{user: colleague(2, true)}, {user: projectColleague(2)}, bashStep(`git fetch -q --all && git remote update >/dev/null && git fetch -q --prune upstream && git merge -q --ff-only origin/main`)}},
		{name: "fetch --tags of a red tagged commit, then checkout of the tag", setup: withOrigin, steps: []plumbingStep{{user: func(p *player) {
			colleagueBranch("feat", 1)(p)
			run(p.t, filepath.Join(filepath.Dir(p.dir), "up.git"), p.env, "git", "tag", "v2", "feat")
			run(p.t, filepath.Join(filepath.Dir(p.dir), "up.git"), p.env, "git", "branch", "-D", "feat")
		}}, bashStep(`git fetch -q --tags && git checkout -q v2 && git checkout -q main`)}},
		{name: "fetch origin feat then merge FETCH_HEAD --ff-only", setup: withOrigin, steps: []plumbingStep{{user: func(p *player) {
			colleague(2, true)(p)
		}}, bashStep(`git fetch -q origin main && git merge -q --ff-only FETCH_HEAD`)}},
		{name: "fetch in one command, reset --keep in the next", setup: withOrigin, steps: []plumbingStep{{user: colleague(2, true)}, bashStep(`git fetch -q`), bashStep(`git reset -q --keep origin/main`)}},
		{name: "colleague's branch deleted upstream, fetch --prune", setup: withOrigin, steps: []plumbingStep{{user: colleagueBranch("feat", 1)}, bashStep(`git fetch -q`), {user: func(p *player) {
			run(p.t, filepath.Join(filepath.Dir(p.dir), "up.git"), p.env, "git", "branch", "-D", "feat")
		}}, bashStep(`git fetch -q --prune && git branch -r >/dev/null`)}},
		{name: "read-only looks at red upstream: log -S, show, grep", setup: withOrigin, steps: []plumbingStep{{user: colleague(2, true)}, bashStep(`git fetch -q && git log -S marta --oneline origin/main >/dev/null && git show origin/main:docs/upstream-leak.md >/dev/null && git grep -q -e marta origin/main`)}},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

func TestAgentWork3CloneShapes(t *testing.T) {
	t.Parallel()
	rows := []plumbingRow{
		{name: "shallow clone: a green commit, then fetch --unshallow", setup: reclone("--depth", "1"), steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read"`), bashStep(`git fetch -q --unshallow`)}},
		{name: "shallow clone: pull of upstream, a green commit on it", setup: reclone("--depth", "1"), steps: []plumbingStep{{user: colleague(2, false)}, bashStep(`git pull -q --ff-only`), bashStep(w3green + `git commit -q -m "docs: more to read"`)}},
		{name: "partial clone: pull of red upstream, blobs fetched lazily", setup: reclone("--filter=blob:none"), steps: []plumbingStep{{user: colleague(2, true)}, bashStep(`git fetch -q && git merge -q --ff-only origin/main`)}},
		{name: "partial clone: a green commit on pulled upstream", setup: reclone("--filter=blob:none"), steps: []plumbingStep{{user: colleague(2, false)}, bashStep(`git pull -q --ff-only`), bashStep(w3green + `git commit -q -m "docs: more to read"`)}},
		{name: "partial clone: log -p and blame of fetched red history, blobs fetched on demand", setup: reclone("--filter=blob:none"), steps: []plumbingStep{{user: colleague(3, true)}, bashStep(`git fetch -q && git log -p origin/main >/dev/null && git blame origin/main -- docs/upstream-leak.md >/dev/null`)}},
		{name: "single-branch clone: a green commit pushed", setup: reclone("--single-branch", "--branch", "main"), steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && git push -q origin main`)}},
		{name: "sparse-checkout in cone mode, a green commit inside the cone", steps: []plumbingStep{bashStep(`git sparse-checkout init --cone && git sparse-checkout set docs && ` + w3green + `git commit -q -m "docs: more to read" && git sparse-checkout disable`)}},
		{name: "submodule added during the session, committed through the hooks", setup: func(p *player) {
			lib := filepath.Join(filepath.Dir(p.dir), "lib")
			run(p.t, filepath.Dir(p.dir), p.env, "git", "init", "-q", "-b", "main", lib)
			run(p.t, lib, p.env, "git", "commit", "-q", "--allow-empty", "-m", "wip")
		}, steps: []plumbingStep{bashStep(`git -c protocol.file.allow=always submodule add -q ../lib lib && git commit -q -m "build: add lib"`)}},
		{name: "submodule update --init after a pull, a red subject inside the submodule", setup: func(p *player) {
			lib := filepath.Join(filepath.Dir(p.dir), "lib")
			run(p.t, filepath.Dir(p.dir), p.env, "git", "init", "-q", "-b", "main", lib)
			run(p.t, lib, p.env, "git", "commit", "-q", "--allow-empty", "-m", "init")
			if r := run(p.t, p.dir, p.env, "git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", "../lib", "lib"); r.code != 0 {
				p.t.Fatalf("submodule add: %s", r.stderr)
			}
			p.git("commit", "-q", "-m", "build: add lib")
			p.git("submodule", "deinit", "-q", "-f", "lib")
		}, steps: []plumbingStep{bashStep(`git -c protocol.file.allow=always submodule update -q --init`), bashStep(`cd lib && printf 'x\n' > x && git add x && git commit -q -m "` + redSubject + `"`), bashStep(`git -C lib commit -q --allow-empty -m "` + redSubject + `"`)}, other: true},
		{name: "a nested repository: init in one command, commits with cd in the next", steps: []plumbingStep{bashStep(`git init -q tools/x`), bashStep(`cd tools/x && printf 'Keep notes in /ho''me/marta/notes.\n' > a && git add a && git commit -q -m "` + redSubject + `"`), bashStep(`rm -rf tools`)}, other: true},
		{name: "a nested repository: commits with -C in a later command", steps: []plumbingStep{bashStep(`git init -q tools/y && printf 'x\n' > tools/y/a`), bashStep(`git -C tools/y add a && git -C tools/y commit -q -n -m "` + redSubject + `"`), bashStep(`rm -rf tools`)}, other: true},
		{name: "a bare mirror elsewhere, fetched and pushed to", steps: []plumbingStep{bashStep(`git clone -q --mirror . ../mirror.git && ` + w3green + `git commit -q -m "docs: more to read" && git push -q ../mirror.git main && git -C ../mirror.git log -1 --oneline >/dev/null`)}},
		{name: "a clone whose default branch is trunk", setup: func(p *player) {
			p.git("branch", "-m", "main", "trunk")
		}, steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && git switch -q -c feat && git switch -q trunk`)}},
		{name: "the session starts on a detached HEAD", setup: func(p *player) {
			p.git("checkout", "-q", "--detach")
		}, steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && git switch -q -c feat`)}},
		{name: "the session starts on a detached HEAD, work left detached", setup: func(p *player) {
			p.git("merge", "-q", "--ff-only", "side")
			p.git("checkout", "-q", "--detach", "HEAD~1")
		}, steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read"`), bashStep(`git switch -q main`)}},
		{name: "a linked worktree made in the session, used for a green commit and a rebase", steps: []plumbingStep{bashStep(`git worktree add -q ../wt2 -b feat && cd ../wt2 && ` + w3green + `git commit -q -m "docs: more to read" && git rebase -q main`)}},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

func TestAgentWork3Everyday(t *testing.T) {
	t.Parallel()
	gc := realGoCache(t)
	rows := []plumbingRow{
		{name: "rebase of a 60-commit feature branch onto a moved main", setup: func(p *player) {
			p.git("checkout", "-q", "-b", "feat")
			for i := 0; i < 60; i++ {
				n := strconv.Itoa(i)
				if r := run(p.t, p.dir, p.env, "bash", "-c", "printf 'n "+n+"\\n' > docs/n.md && git add docs/n.md && git commit -q -n -m 'docs: note "+n+"'"); r.code != 0 {
					p.t.Fatalf("commit %s: %s", n, r.stderr)
				}
			}
			p.git("checkout", "-q", "main")
			p.git("merge", "-q", "--ff-only", "side")
			p.git("checkout", "-q", "feat")
		}, steps: []plumbingStep{bashStep(`git rebase -q main`)}},
		{name: "an unfinished green edit on pulled red upstream", setup: withOrigin, steps: []plumbingStep{{user: colleague(2, true)}, bashStep(`git pull -q --ff-only && printf 'More on use.\n' >> docs/guide.md`)}},
		{name: "pull --rebase --autostash with an unfinished edit", setup: withOrigin, steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && printf 'draft\n' >> docs/guide.md`), {user: colleague(2, false)}, bashStep(`git pull -q --rebase --autostash && git checkout -q docs/guide.md`)}},
		{name: "amend a green commit's author", steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && git commit -q --amend --no-edit --author="Pat <pat@example.invalid>"`)}},
		{name: "renormalize after a .gitattributes rule", steps: []plumbingStep{bashStep(`printf '*.md text eol=lf\n' > .gitattributes && git add .gitattributes && git add --renormalize . && git commit -q -m "build: normalize line ends"`)}},
		{name: "a conflicted merge undone with reset --merge", steps: []plumbingStep{bashStep(`printf 'mine\n' > docs/side.md && git add docs/side.md && git commit -q -m "docs: mine"`), {bash: `git merge -q --no-edit side`, failsWith: "CONFLICT"}, bashStep(`git reset -q --merge`)}},
		{name: "a branch made from a tag, a green commit on it", steps: []plumbingStep{bashStep(`git tag -a v0.9 -m "release 0.9" && git switch -q -c hotfix v0.9 && ` + w3green + `git commit -q -m "fix: a hotfix note" && git switch -q main`)}},
		{name: "log, diff and blame over a range that includes the base", steps: []plumbingStep{bashStep(`git log --format='%h %s' main~1..main >/dev/null && git diff --name-only HEAD~1 >/dev/null && git range-diff main~1 main side~1..side >/dev/null 2>&1; git shortlog -sn >/dev/null`)}},
		{name: "commit --amend --no-edit of a green commit", steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && printf 'Even more.\n' >> docs/more.md && git add docs/more.md && git commit -q --amend --no-edit`)}},
		{name: "rebase -i rewording a green commit without an editor", steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more" && printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more" && GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/reword/" GIT_EDITOR="sed -i 1s/.*/docs:\\ more\\ to\\ read/" git rebase -q -i HEAD~2`)}},
		{name: "bisect run", steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && git bisect start HEAD HEAD~2 >/dev/null && git bisect run sh -c 'test ! -e docs/more.md' >/dev/null && git bisect reset >/dev/null 2>&1`)}},
		{name: "tag -a and push --follow-tags", setup: withOrigin, steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && git tag -a v1.2 -m "release 1.2" && git push -q --follow-tags origin main`)}},
		{name: "maintenance run and gc --auto", steps: []plumbingStep{bashStep(`git maintenance run --task=gc -q 2>/dev/null; git maintenance run --task=commit-graph && git gc --auto -q && git commit-graph write --reachable`)}},
		{name: "worktree prune after the directory was removed", steps: []plumbingStep{bashStep(`git worktree add -q -b gone ../wtp && rm -rf ../wtp`), bashStep(`git worktree prune && git branch -q -D gone`)}},
		{name: "notes appended and pushed", setup: withOrigin, steps: []plumbingStep{bashStep(`git notes add -m "reviewed" HEAD && git notes append -m "wip: more" HEAD && git push -q origin 'refs/notes/*'`)}},
		{name: "switch - back and forth", steps: []plumbingStep{bashStep(`git switch -q side && git switch -q - && git switch -q - && git switch -q main`)}},
		{name: "reset --soft HEAD~1 and recommit green", steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more" && git reset -q --soft HEAD~1 && git commit -q -m "docs: more to read"`)}},
		{name: "a test suite that makes throwaway repositories in /tmp and in testdata", setup: func(p *player) {
			os.MkdirAll(filepath.Join(p.dir, "tests"), 0o755)
			script := "#!/bin/sh\nset -e\nfor d in \"$(mktemp -d)\" testdata/x; do\n  mkdir -p \"$d\" && git -C \"$d\" init -q\n  printf 'Keep notes in /ho''me/marta/notes.\\n' > \"$d/a\"\n  git -C \"$d\" add a && git -C \"$d\" commit -q -n -m 'wip stuff'\ndone\nrm -rf testdata\necho ok\n"
			os.WriteFile(filepath.Join(p.dir, "tests/run.sh"), []byte(script), 0o755)
			p.git("add", "tests/run.sh")
			p.git("commit", "-q", "-m", "test: a suite that makes repositories")
		}, steps: []plumbingStep{bashStep(`sh tests/run.sh >/dev/null`)}},
		{name: "go generate that writes the commit id", setup: func(p *player) {
			os.MkdirAll(filepath.Join(p.dir, "ver"), 0o755)
			os.WriteFile(filepath.Join(p.dir, "ver/go.mod"), []byte("module example.invalid/ver\n\ngo 1.21\n"), 0o644)
			os.WriteFile(filepath.Join(p.dir, "ver/ver.go"), []byte("// Package ver knows its commit.\npackage ver\n\n//go:generate sh -c \"git rev-parse --short HEAD > commit.txt\"\n"), 0o644)
			p.git("add", "ver")
			p.git("commit", "-q", "-m", "build: a version package")
		}, steps: []plumbingStep{bashStep(`cd ver && GOCACHE=` + gc + ` go generate ./... && git add commit.txt && git commit -q -m "build: record the commit"`)}},
		{name: "the user commits green by hand between sessions", steps: []plumbingStep{bashStep(`git log --oneline -1`), {stop: true}, {user: func(p *player) {
			os.WriteFile(filepath.Join(p.dir, "docs/hand.md"), []byte("By hand.\n"), 0o644)
			p.git("add", "docs/hand.md")
			p.git("commit", "-q", "-m", "docs: written by hand")
		}}, {session: "s-w3-next-after-a-hand-commit"}, bashStep(`git log --oneline -2 >/dev/null`)}},
		{name: "a colleague's red commits pulled by hand between sessions", setup: withOrigin, steps: []plumbingStep{bashStep(`git status --short`), {stop: true}, {user: func(p *player) {
			colleague(3, true)(p)
			p.git("pull", "-q", "--ff-only")
		}}, {session: "s-w3-next-after-a-hand-pull"}, bashStep(`git log --oneline -2 >/dev/null`)}},
		{name: "an orphan branch with a green root commit of one page", steps: []plumbingStep{bashStep(`git checkout -q --orphan pages && git rm -q -r --cached . && printf 'Pages.\n' > index.md && git add index.md && git commit -q -m "docs: start the pages" && git checkout -q -f main`)}},
		{name: "an orphan branch with a green root commit of the whole tree", steps: []plumbingStep{bashStep(`git checkout -q --orphan pages && printf 'Pages.\n' > docs/index.md && git add docs/index.md && git commit -q -m "docs: start the pages" && git checkout -q -f main`)}},
		{name: "revert of the user's red commit made before the session", setup: func(p *player) {
			redSide(p)
			p.git("merge", "-q", "--ff-only", "red")
		}, steps: []plumbingStep{bashStep(`git revert --no-edit HEAD >/dev/null`)}},
		{name: "stash branch of green work", steps: []plumbingStep{bashStep(`printf 'draft\n' >> docs/guide.md && git stash -q && git stash branch drafts >/dev/null && git commit -q -am "docs: a draft"`)}},
		{name: "git mv and a mode change committed", steps: []plumbingStep{bashStep(`git mv docs/guide.md docs/using.md && chmod +x README.md && git commit -q -am "docs: rename the guide"`)}},
		{name: "an old file restored from history and committed", steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && git rm -q docs/more.md && git commit -q -m "docs: drop more" && git restore --source=HEAD~1 docs/more.md && git add docs/more.md && git commit -q -m "docs: bring more back"`)}},
		{name: "a diff applied as a patch", steps: []plumbingStep{bashStep(`printf 'More.\n' >> docs/guide.md && git diff > ../p.patch && git checkout -q docs/guide.md && git apply ../p.patch && git commit -q -am "docs: more on use"`)}},
		{name: "rebase --onto of a green branch", steps: []plumbingStep{bashStep(`git switch -q -c a && ` + w3green + `git commit -q -m "docs: more to read" && git switch -q -c b && printf 'B.\n' > docs/b.md && git add docs/b.md && git commit -q -m "docs: b" && git rebase -q --onto main a b && git switch -q main`)}},
		{name: "cherry-pick that conflicts, aborted", steps: []plumbingStep{bashStep(`printf 'mine\n' > docs/side.md && git add docs/side.md && git commit -q -m "docs: mine"`), {bash: `git cherry-pick side`, failsWith: "CONFLICT"}, bashStep(`git cherry-pick --abort`)}},
		{name: "a commit under another author and an old date", steps: []plumbingStep{bashStep(w3green + `git commit -q --author="Pat <pat@example.invalid>" --date=2001-01-01T00:00:00Z -m "docs: more to read"`)}},
		{name: "an empty commit to start a build", steps: []plumbingStep{bashStep(`git commit -q --allow-empty -m "ci: start a build"`)}},
		{name: "tag moved and deleted", steps: []plumbingStep{bashStep(`git tag v1 && git tag -f v1 HEAD~1 && git tag -d v1 >/dev/null`)}},
		{name: "set upstream and status -sb", setup: withOrigin, steps: []plumbingStep{bashStep(`git switch -q -c feat && git push -q -u origin feat && git status -sb >/dev/null && git branch -vv >/dev/null`)}},
		{name: "an ignored file untracked with rm --cached", steps: []plumbingStep{bashStep(`printf 'x\n' > build.log && git add -f build.log && git commit -q -m "build: keep the log" && printf 'build.log\n' >> .gitignore && git rm -q --cached build.log && git commit -q -am "build: ignore the log"`)}},
		{name: "commit --fixup and rebase --autosquash without -i", steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read" && printf 'x\n' >> docs/more.md && git commit -q -a --fixup=HEAD && GIT_SEQUENCE_EDITOR=true git rebase -q --autosquash -i HEAD~2`)}},
		{name: "a Write of a new file, then its commit in the next call", steps: []plumbingStep{{write: "docs/write.md", body: "Written.\n"}, bashStep(`git add docs/write.md && git commit -q -m "docs: a written page"`)}},
		{name: "a file with the leak word in a name only", steps: []plumbingStep{bashStep(`printf 'About Marta.\n' > docs/marta.md && git add docs/marta.md && git commit -q -m "docs: about marta"`)}},
		{name: "git commit -a -v with an editor that keeps the message", steps: []plumbingStep{bashStep(`printf 'More.\n' >> docs/guide.md && GIT_EDITOR="sed -i 1s/^/docs:\\ more\\ on\\ use/" git commit -q -a -v`)}},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

// Where the agent's commit IS red, the words name that commit and no
// colleague's, and the remedy they offer runs.
func TestAgentWork3Messages(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	fix := bashStep(`git rm -q -f --cached docs/leak.md 2>/dev/null; rm -f docs/leak.md`)
	rows := []plumbingRow{
		{name: "the agent's red commit on pulled red upstream: remedy at HEAD", setup: withOrigin, steps: []plumbingStep{{user: colleague(3, true)}, bashStep(`git pull -q --ff-only`), bashStep(leakCmd + sh2("docs: add notes")), {remedy: true}, fix}, expect: stAfter, gate: tt, from: 2},
		{name: "the agent's refused subject on pulled red upstream: amend offered", setup: withOrigin, steps: []plumbingStep{{user: colleague(3, true)}, bashStep(`git pull -q --ff-only`), bashStep(w3green + `echo 'git commit -q -n -m "` + redSubject + `"' | sh`), {remedy: true}}, expect: stAfter, gate: subj, from: 2},
		{name: "a refused subject on a root commit of an orphan branch", steps: []plumbingStep{bashStep(`git checkout -q --orphan pages && printf 'Pages.\n' > docs/index.md && git add docs/index.md && echo 'git commit -q -n -m "` + redSubject + `"' | sh`), {remedy: true}, bashStep(`git checkout -q -f main && rm -f docs/index.md`)}, expect: stAfter, gate: subj},
		{name: "a red orphan page that records no registry is judged by the clone's", steps: []plumbingStep{bashStep(`git checkout -q --orphan pages && git rm -q -r --cached . && printf 'Keep notes in /ho''me/marta/notes.\n' > index.md && git add index.md && ` + sh2("docs: start the pages") + ` && git checkout -q -f main`), {remedy: true}}, expect: stAfter, gate: tt},
		{name: "a merge whose own resolution adds a leak", setup: withOrigin, steps: []plumbingStep{bashStep(w3green + `git commit -q -m "docs: more to read"`), {user: colleague(2, false)}, bashStep(`git fetch -q && git merge -q --no-commit --no-ff origin/main && ` + leakCmd + `echo 'git commit -q -n -m "docs: merge upstream"' | sh`), {remedy: true}, fix}, expect: stAfter, gate: tt},
		{name: "a refused subject two below HEAD on pulled upstream: reword step offered", setup: withOrigin, steps: []plumbingStep{{user: colleague(2, false)}, bashStep(`git pull -q --ff-only`), bashStep(w3green + `echo 'git commit -q -n -m "` + redSubject + `"' | sh && printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more" && printf 'Still.\n' >> docs/more.md && git commit -q -am "docs: still more"`), {remedy: true}}, expect: stAfter, gate: subj, from: 2},
	}
	runPlumbingRows(t, rows)
}

// A remote added during the session. The SPEC counts as others' only the
// remotes present when the session began (a remote the agent adds may be a
// scratch clone of its own), whatever its URL looks like: a fork's
// upstream added by path, or under a network URL that a url.insteadOf
// rule sends to a path, is the agent's, so the project's red commits it
// brings are named; its green ones pass untouched.
func TestAgentWork3RemoteAddedMidSession(t *testing.T) {
	t.Parallel()
	rows := []plumbingRow{
		{name: "upstream added by path mid-session, its red commits merged", setup: withUpstream, steps: []plumbingStep{{user: projectColleague(2)}, bashStep(`git remote add upstream ../project.git && git fetch -q upstream && git merge -q --ff-only upstream/main`)}, expect: stAfter, gate: "check-tree-terms"},
		{name: "upstream added mid-session under a network URL that insteadOf sends to a path, its red commits merged", setup: func(p *player) {
			withUpstream(p)
			p.git("config", "url."+filepath.Join(filepath.Dir(p.dir), "project.git")+".insteadOf", "https://example.invalid/team/project.git")
		}, steps: []plumbingStep{{user: projectColleague(2)}, bashStep(`git remote add upstream https://example.invalid/team/project.git && git fetch -q upstream && git merge -q --ff-only upstream/main`)}, expect: stAfter, gate: "check-tree-terms"},
	}
	runPlumbingRows(t, rows)
	ordinary := []plumbingRow{
		{name: "upstream added by path mid-session, 120 green project commits merged", setup: withUpstream, steps: []plumbingStep{{user: func(p *player) {
			upstreamCleanCommits(p.t, filepath.Join(filepath.Dir(p.dir), "project.git"), p.env, 120)
		}}, bashStep(`git remote add upstream ../project.git && git fetch -q upstream && git merge -q --ff-only upstream/main`)}},
		{name: "upstream added by path mid-session, the project's green commits merged", setup: withUpstream, steps: []plumbingStep{{user: func(p *player) {
			upstreamCleanCommits(p.t, filepath.Join(filepath.Dir(p.dir), "project.git"), p.env, 3)
		}}, bashStep(`git remote add upstream ../project.git && git fetch -q upstream && git merge -q --ff-only upstream/main`)}},
	}
	for i := range ordinary {
		ordinary[i].expect = stUntouched
	}
	runPlumbingRows(t, ordinary)
}

// A fresh repository with no commit adopted in place: the first commits
// pass untouched.
func TestAgentWork3FreshRepository(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w3 fresh")
	if err := os.RemoveAll(p.dir); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(p.dir, 0o755)
	p.git("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(p.dir, "README.md"), []byte("# a new project\n"), 0o644)
	if r := run(t, p.dir, p.env, binPath, "init", "--hooks", "--harness", "claude"); r.code != 0 {
		t.Fatalf("init: %s%s", r.stdout, r.stderr)
	}
	os.WriteFile(filepath.Join(p.dir, "scripts/gates.list"), []byte("check-tree-terms\ncheck-commit-subject\ncheck-commit-msg\n"), 0o644)
	os.WriteFile(filepath.Join(p.dir, "scripts/root-allowlist.list"), []byte("*\n.*\n"), 0o644)
	p.env = append(p.env, "CLAUDECODE=1")
	p.bashQuiet("git status --short")
	p.bashQuiet(`git add -A && git commit -q -m "chore: start the project with the gates"`)
	p.bashQuiet(`printf 'How to use it.\n' > guide.md && git add guide.md && git commit -q -m "docs: a guide"`)
	if r := p.stop(false); r != "" {
		t.Fatalf("the Stop in a fresh repository said: %s", r)
	}
	if sl := p.statusWith(); strings.Contains(sl, "red") || strings.Contains(sl, "broken") || strings.Contains(sl, "not judged") {
		t.Fatalf("status line: %q", sl)
	}
	t.Logf("PLUMBING | fresh repository, first commits | passes untouched | passes untouched")
}

// A session started in a linked worktree: CLAUDE_PROJECT_DIR is the
// worktree, which holds no bin/gates of its own.
func TestAgentWork3SessionInALinkedWorktree(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w3 worktree session")
	wt := filepath.Join(filepath.Dir(p.dir), "wt2")
	p.git("worktree", "add", "-q", wt, "-b", "feat")
	p.dir = wt
	p.env = append(p.env, "CLAUDE_PROJECT_DIR="+wt, "CLAUDECODE=1")
	in := map[string]any{"tool_input": map[string]any{"command": "git status --short", "description": "x"}}
	reason, refusal, other := words2(p.fire("PreToolUse", "Bash", in))
	if refusal != "" || reason != "" || other != "" {
		t.Fatalf("PLUMBING | session in a linked worktree | passes untouched | said: %s%s%s", refusal, reason, other)
	}
	p.bashQuiet(w3green + `git commit -q -m "docs: more to read"`)
	if r := p.stop(false); r != "" {
		t.Fatalf("Stop: %s", r)
	}
	if sl := p.statusWith(); !strings.Contains(sl, "hooks on") || strings.Contains(sl, "broken") {
		t.Fatalf("status line in a linked worktree: %q", sl)
	}
	t.Logf("PLUMBING | session in a linked worktree | passes untouched | passes untouched")
}

// Other hook managers: each is told once at most, never a block.
func TestAgentWork3OtherHookManagers(t *testing.T) {
	t.Parallel()
	t.Run("pre-commit install refuses by itself under the placed hooks path", func(t *testing.T) {
		t.Parallel()
		if _, err := exec.LookPath("pre-commit"); err != nil {
			t.Fatal("pre-commit is not installed")
		}
		runPlumbingRows(t, []plumbingRow{{name: "pre-commit install", expect: stUntouched, setup: func(p *player) {
			os.WriteFile(filepath.Join(p.dir, ".pre-commit-config.yaml"), []byte("repos:\n- repo: local\n  hooks:\n  - id: ok\n    name: ok\n    entry: 'true'\n    language: system\n"), 0o644)
			p.git("add", ".pre-commit-config.yaml")
			p.git("commit", "-q", "-m", "build: a pre-commit config")
		}, steps: []plumbingStep{{bash: `pre-commit install`, failsWith: "hooksPath"}, bashStep(w3green + `git commit -q -m "docs: more to read"`)}}})
	})
	t.Run("a hand-written pre-push hook under .git/hooks", func(t *testing.T) {
		t.Parallel()
		runPlumbingRows(t, []plumbingRow{{name: "hand-written pre-push", expect: stUntouched, setup: withOrigin, steps: []plumbingStep{
			bashStep(`printf '#!/bin/sh\necho local pre-push\n' > .git/hooks/pre-push && chmod +x .git/hooks/pre-push`),
			bashStep(w3green + `git commit -q -m "docs: more to read" && git push -q origin main`)}}})
	})
}

// The project's red commits a remote added mid-session brought are named
// once, each with no rewrite offered (a remote-tracking ref holds them),
// and the Stop after names nothing new.
func TestAgentWork3MidSessionRemoteIsOfferedNoRewrite(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w3 mid-session remote words")
	withUpstream(p)
	p.env = append(p.env, "CLAUDECODE=1")
	p.bashQuiet("git status --short")
	projectColleague(2)(p)
	_, b, post := p.bash(`git remote add upstream ../project.git && git fetch -q upstream && git merge -q --ff-only upstream/main`)
	if b || !strings.Contains(post, "Commit ") {
		t.Fatalf("blocked %v; reason:\n%s", b, post)
	}
	if strings.Contains(post, "reset --soft") || strings.Contains(post, "rebase -i") || strings.Contains(post, "--amend") || !strings.Contains(post, "do not rewrite it") {
		t.Fatalf("a commit a remote-tracking ref holds was offered a rewrite:\n%s", post)
	}
	t.Logf("PLUMBING | mid-session remote's red commits: no rewrite offered | no rewrite | no rewrite")
}

// A husky project's install run by the agent (`npm run prepare` sets
// core.hooksPath through a program the guard cannot read): no command is
// blocked for it, the other manager is told once at most, the repair it
// offers keeps husky's hooks, and a green commit through husky's hooks
// passes untouched.
func TestAgentWork3HuskyInstalledByTheAgent(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w3 husky by the agent")
	for name, body := range map[string]string{
		".husky/_/h":          "#!/bin/sh\n[ -f \".husky/$(basename \"$0\")\" ] && sh \".husky/$(basename \"$0\")\" \"$@\"\nexit 0\n",
		".husky/_/pre-commit": "#!/bin/sh\n. \"$(dirname \"$0\")/h\"\n",
		".husky/_/commit-msg": "#!/bin/sh\n. \"$(dirname \"$0\")/h\"\n",
		".husky/pre-commit":   "echo husky ran\n",
		"package.json":        `{"name":"x","version":"1.0.0","private":true,"scripts":{"prepare":"git config core.hooksPath .husky/_"}}` + "\n",
	} {
		full := filepath.Join(p.dir, name)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p.git("add", "-A")
	p.git("commit", "-q", "-m", "build: husky")
	p.env = append(p.env, "CLAUDECODE=1")
	p.bashQuiet("git status --short")
	told := 0
	var said strings.Builder
	for _, cmd := range []string{`npm run prepare --silent`, `ls`, `git log -1 --oneline`, w3green + `git commit -q -m "docs: more to read" 2>&1 | grep -q "husky ran"`, `git status --short`} {
		in := map[string]any{"tool_input": map[string]any{"command": cmd, "description": "x"}}
		reason, refusal, other := words2(p.fire("PreToolUse", "Bash", in))
		if refusal != "" {
			t.Fatalf("PLUMBING | husky installed by the agent | passes, told once | %q refused: %s", cmd, refusal)
		}
		c := exec.Command("bash", "-c", cmd)
		c.Dir, c.Env = p.dir, p.env
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", cmd, err, out)
		}
		in["tool_response"] = map[string]any{"stdout": string(out)}
		r2, f2, o2 := words2(p.fire("PostToolUse", "Bash", in))
		for _, w := range []string{reason + other, r2 + f2 + o2} {
			if strings.TrimSpace(w) != "" {
				told++
				said.WriteString(w)
			}
		}
	}
	if got := p.git("config", "core.hooksPath"); got != ".husky/_" {
		t.Fatalf("npm run prepare left core.hooksPath at %q", got)
	}
	in := map[string]any{"tool_input": map[string]any{"command": "ls"}}
	for _, a := range p.fire("PreToolUse", "Bash", in) {
		if a.code != 0 {
			t.Fatalf("a later command blocked: %s", a.errs)
		}
		if strings.TrimSpace(a.stdout) != "" {
			told++
			said.WriteString(a.stdout)
		}
	}
	if r := p.stop(false); r != "" {
		t.Fatalf("the Stop said: %s", r)
	}
	if told > 1 {
		t.Fatalf("told %d times:\n%s", told, said.String())
	}
	if told == 1 && !strings.Contains(said.String(), "--git-hook pre-commit") {
		t.Fatalf("the advice offers no repair that keeps husky's hooks:\n%s", said.String())
	}
	t.Logf("PLUMBING | husky installed by the agent | no block, told once at most | told %d", told)
}

// Two sessions in one clone whose hooks run at the same moment: each
// commits green work, their PostToolUse and Stop calls overlap, and
// neither says a word.
func TestAgentWork3ConcurrentSessions(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w3 concurrent")
	p.env = append(p.env, "CLAUDECODE=1")
	q := *p
	q.session = "s-w3-concurrent-other"
	p.bashQuiet("git status --short")
	q.bashQuiet("git status --short")
	cmd := w3green + `git commit -q -m "docs: more to read"`
	in := map[string]any{"tool_input": map[string]any{"command": cmd, "description": "x"}}
	quiet(t, "PreToolUse", p.fire("PreToolUse", "Bash", in))
	c := exec.Command("bash", "-c", cmd)
	c.Dir, c.Env = p.dir, p.env
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	in["tool_response"] = map[string]any{"stdout": ""}
	done := make(chan []answer, 4)
	for _, who := range []*player{p, &q} {
		who := who
		go func() { done <- who.fire("PostToolUse", "Bash", in) }()
		go func() { done <- who.fire("Stop", "", map[string]any{"stop_hook_active": false}) }()
	}
	for i := 0; i < 4; i++ {
		quiet(t, "an overlapping call", <-done)
	}
	if r := q.stop(false); r != "" {
		t.Fatalf("the other session's Stop: %s", r)
	}
	if r := p.stop(false); r != "" {
		t.Fatalf("the committing session's Stop: %s", r)
	}
	t.Logf("PLUMBING | two sessions' hooks at once | passes untouched | passes untouched")
}

// lefthookBin answers a lefthook build, installed through the module
// proxy into the repository's .tmp once and kept there.
func lefthookBin(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".tmp", "lefthook") // consumer-value-exempt: the repository's own scratch directory
	bin := filepath.Join(dir, "bin", "lefthook")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	os.MkdirAll(dir, 0o755)
	c := exec.Command("go", "install", "github.com/evilmartians/lefthook@v1.11.13")
	c.Dir = dir
	c.Env = append(os.Environ(), "GOBIN="+filepath.Join(dir, "bin"), "CGO_ENABLED=0")
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("go install lefthook: %v\n%s", err, out)
	}
	return bin
}

// lefthook's install writes its own hooks into the hooks path git runs
// (the placed hooks' directory), keeping each one it replaces as
// <name>.old: the agent is told, not blocked on every command.
func TestAgentWork3LefthookInstall(t *testing.T) {
	t.Parallel()
	lh := lefthookBin(t)
	p := outcomeClone(t, "w3 lefthook")
	os.WriteFile(filepath.Join(p.dir, "lefthook.yml"), []byte("pre-commit:\n  commands:\n    hi:\n      run: echo lefthook ran\n"), 0o644)
	p.git("add", "lefthook.yml")
	p.git("commit", "-q", "-m", "build: lefthook")
	p.env = append(p.env, "CLAUDECODE=1")
	p.bashQuiet("git status --short")
	var said strings.Builder
	blocked := 0
	for _, cmd := range []string{lh + ` install`, `ls`, `git log -1 --oneline`, `git status --short`} {
		in := map[string]any{"tool_input": map[string]any{"command": cmd, "description": "x"}}
		reason, refusal, other := words2(p.fire("PreToolUse", "Bash", in))
		if refusal != "" {
			blocked++
			said.WriteString("PreToolUse of " + cmd + " refused: " + refusal + "\n")
			continue
		}
		said.WriteString(reason + other)
		c := exec.Command("bash", "-c", cmd)
		c.Dir, c.Env = p.dir, p.env
		out, _ := c.CombinedOutput()
		in["tool_response"] = map[string]any{"stdout": string(out)}
		r2, f2, o2 := words2(p.fire("PostToolUse", "Bash", in))
		said.WriteString(r2 + f2 + o2)
	}
	if blocked > 0 || strings.Count(said.String(), "commit-guard") != 1 || !strings.Contains(said.String(), "--git-hook pre-commit") || !strings.Contains(said.String(), "pre-commit.old") {
		t.Fatalf("PLUMBING | lefthook install | told once, a repair that keeps its hooks, no block | %d blocked, said:\n%s", blocked, said.String())
	}
	// lefthook runs no gate: a red commit through its hooks lands, and is
	// named right after.
	_, b, post := p.bash(`PATH=` + filepath.Dir(lh) + `:$PATH && ` + leakCmd + `git commit -q -m "docs: add notes"`)
	id := p.git("rev-parse", "--short", "HEAD")
	if b || !strings.Contains(post, "Commit "+id) {
		t.Fatalf("a red commit through lefthook's hooks: blocked %v, reason %q", b, post)
	}
	t.Logf("PLUMBING | lefthook install | told once, no block | told once, no block")
}

// On pulled red upstream, an unfinished edit that adds a finding of its
// own still holds the Stop, naming that line and not the colleague's
// alone.
func TestAgentWork3UnfinishedLeakOnRedUpstreamHoldsTheStop(t *testing.T) {
	t.Parallel()
	p, up := upstreamClone(t, "w3 unfinished leak on red upstream")
	p.env = append(p.env, "CLAUDECODE=1")
	upstreamCommits(t, up, p.env, 2)
	p.bashQuiet(`git pull -q --ff-only && printf 'Also /ho''me/marta/more.\n' >> docs/guide.md`)
	r := p.stop(false)
	if !strings.Contains(r, "docs/guide.md") {
		t.Fatalf("the Stop did not name the change's own finding:\n%s", r)
	}
	t.Logf("PLUMBING | an unfinished leak on pulled red upstream, a control | held at Stop | held at Stop")
}
