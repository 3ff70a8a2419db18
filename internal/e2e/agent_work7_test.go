package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 41's acceptance, a seventh round on the side of "none is
// blocked": git flows an agent runs on an ordinary day that no earlier
// table plays in these spellings (a pages branch built from an emptied
// tree, a bisect with terms of its own, a pick from the project's
// upstream by range, the revert of a colleague's red merge, --squash and
// --fixup=amend: autosquashed, rerere replaying a resolution, stacked
// branches moved with --update-refs, worktrees repaired and forced away,
// a submodule bumped with --remote and taken out again, a sparse
// checkout of patterns, housekeeping, a depth-1 clone worked in, a
// bundle, tags pushed with --tags, the agent's own series mailed to
// itself, and scripts that only read). Each must pass untouched: no
// block, no reason, a quiet Stop, nothing red on the status line.

// w7upstream gives the clone, besides origin, the project's upstream (a
// second bare copy) as the remote upstream, before the session.
func w7upstream(p *player) {
	p.t.Helper()
	withOrigin(p)
	proj := filepath.Join(filepath.Dir(p.dir), "project.git")
	p.git("clone", "-q", "--bare", p.dir, proj)
	p.git("remote", "add", "upstream", proj)
	p.git("fetch", "-q", "upstream")
}

// w7projectCommits makes, as a maintainer of the project upstream, one
// commit per page on its main, past any hook, and pushes them.
func w7projectCommits(pages ...string) func(p *player) {
	return func(p *player) {
		p.t.Helper()
		parent := filepath.Dir(p.dir)
		tmp := filepath.Join(parent, "maintainer")
		env := w5env(p)
		if _, err := os.Stat(tmp); err != nil {
			if r := run(p.t, parent, env, "git", "clone", "-q", filepath.Join(parent, "project.git"), tmp); r.code != 0 {
				p.t.Fatalf("maintainer clone: %s", r.stderr)
			}
		} else {
			run(p.t, tmp, env, "git", "pull", "-q", "--ff-only")
		}
		for _, pg := range pages {
			rel, body, _ := strings.Cut(pg, "=")
			full := filepath.Join(tmp, rel)
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
				p.t.Fatal(err)
			}
			run(p.t, tmp, env, "git", "add", rel)
			if r := run(p.t, tmp, env, "git", "commit", "-q", "-n", "-m", "docs: the project's "+filepath.Base(rel)); r.code != 0 {
				p.t.Fatalf("maintainer commit: %s%s", r.stdout, r.stderr)
			}
		}
		if r := run(p.t, tmp, env, "git", "push", "-q", "--no-verify", "origin", "main"); r.code != 0 {
			p.t.Fatalf("maintainer push: %s", r.stderr)
		}
	}
}

// w7redMerge has the colleague merge, with --no-ff, a branch whose one
// commit holds a leak into origin's main, past any hook.
func w7redMerge(p *player) {
	p.t.Helper()
	w5commit("topic", true, "docs/topic.md="+leakLine)(p)
	tmp := w5colleagueClone(p)
	env := w5env(p)
	if r := run(p.t, tmp, env, "git", "merge", "-q", "--no-ff", "--no-verify", "-m", "Merge branch 'topic'", "topic"); r.code != 0 {
		p.t.Fatalf("colleague merge: %s%s", r.stdout, r.stderr)
	}
	if r := run(p.t, tmp, env, "git", "push", "-q", "--no-verify", "origin", "main"); r.code != 0 {
		p.t.Fatalf("colleague push: %s", r.stderr)
	}
}

// w7libRepo makes, beside the clone, a small repository ../lib of one
// page whose default branch is main, before the session; w7libCommit
// adds a commit to it during the session, by the person's hands.
func w7libRepo(p *player) {
	p.t.Helper()
	lib := filepath.Join(filepath.Dir(p.dir), "lib")
	os.MkdirAll(lib, 0o755)
	run(p.t, lib, p.env, "git", "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(lib, "README.md"), []byte("# lib\n"), 0o644)
	run(p.t, lib, p.env, "git", "add", "-A")
	if r := run(p.t, lib, p.env, "git", "commit", "-q", "-m", "lib: start"); r.code != 0 {
		p.t.Fatalf("lib commit: %s%s", r.stdout, r.stderr)
	}
}

func w7libCommit(p *player) {
	p.t.Helper()
	lib := filepath.Join(filepath.Dir(p.dir), "lib")
	os.WriteFile(filepath.Join(lib, "CHANGES.md"), []byte("- a change\n"), 0o644)
	run(p.t, lib, p.env, "git", "add", "-A")
	if r := run(p.t, lib, p.env, "git", "commit", "-q", "-m", "lib: a change"); r.code != 0 {
		p.t.Fatalf("lib commit: %s%s", r.stdout, r.stderr)
	}
}

// w7gh is a gh-like script at ../bin/gh that only reads: it prints
// canned JSON for pr list, pr view and api, as the real tool would.
const w7gh = `mkdir -p ../bin && cat > ../bin/gh <<'EOF'
#!/bin/sh
case "$1 $2" in
"pr list") echo '[{"number":7,"title":"docs: a page","headRefName":"topic"}]' ;;
"pr view") echo '{"number":7,"state":"OPEN","mergeable":"MERGEABLE","body":"Fixes #41"}' ;;
"api "*) echo '[{"sha":"0123456","commit":{"message":"docs: a page"}}]' ;;
"run list") echo '[{"status":"completed","conclusion":"success"}]' ;;
*) echo "gh: $*" >&2; exit 1 ;;
esac
EOF
chmod +x ../bin/gh && `

// w7loaded has the session keep the hooks its settings registered when
// it started, as Claude Code does: a sparse checkout takes .claude/ off
// the disk for a while, and the hooks go on running.
func w7loaded(p *player) {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
	if err != nil {
		p.t.Fatal(err)
	}
	p.loaded = data
}

func w7sessions(t *testing.T) []plumbingRow {
	return []plumbingRow{
		{name: "bisect with terms of its own, run by a script kept outside the tree, log and reset", steps: []plumbingStep{
			bashStep(`for i in 1 2 3 4 5 6; do printf 'Step %s.\n' $i >> docs/steps.md; [ $i = 4 ] && printf 'slow\n' >> docs/steps.md; git add docs/steps.md && git commit -q -m "docs: step $i"; done`),
			bashStep(`printf '#!/bin/sh\n! grep -q slow docs/steps.md\n' > ../probe.sh && chmod +x ../probe.sh && git bisect start --term-old=fast --term-new=slow HEAD HEAD~6 >/dev/null && git bisect run ../probe.sh >/dev/null && git bisect log >/dev/null && git bisect reset >/dev/null 2>&1`),
			{stop: true},
		}},
		{name: "cherry-pick -x --signoff of a range of the project upstream's commits, pushed to the fork", setup: w7upstream, steps: []plumbingStep{
			{user: w7projectCommits("docs/u1.md=One.\n", "docs/u2.md=Two.\n", "docs/u3.md=Three.\n")},
			bashStep(`git fetch -q upstream && git log --oneline HEAD..upstream/main`),
			bashStep(`git cherry-pick -x --signoff upstream/main~2..upstream/main >/dev/null && git push -q origin main`),
			{stop: true},
		}},
		{name: "revert -m 1 of a colleague's red merge pulled from origin, pushed", setup: withOrigin, steps: []plumbingStep{
			{user: w7redMerge},
			bashStep(`git pull -q --ff-only && git log --oneline --merges -1`),
			bashStep(`git revert -m 1 --no-edit HEAD >/dev/null && git push -q origin main`),
			{stop: true},
		}},
		{name: "commit --squash= and --fixup=amend: autosquashed by rebase -i with true editors", steps: []plumbingStep{
			bashStep(w5green + `git commit -q -m "docs: more to read"`),
			bashStep(`printf 'Two.\n' > docs/two.md && git add docs/two.md && git commit -q -m "docs: a second page"`),
			bashStep(`printf 'Even more.\n' >> docs/more.md && git commit -q -a --squash=HEAD~1 -m "and more"`),
			bashStep(`printf 'Two, fixed.\n' > docs/two.md && GIT_EDITOR=true git commit -q -a --fixup=amend:HEAD~1`),
			bashStep(`GIT_SEQUENCE_EDITOR=true GIT_EDITOR=true git rebase -q -i --autosquash HEAD~4 && git log --oneline -3`),
			{stop: true},
		}},
		{name: "a merge conflict resolved with checkout --theirs and merge --continue", steps: []plumbingStep{
			bashStep(`git switch -q -c theirs && printf 'How to use it, theirs.\n' > docs/guide.md && git commit -q -am "docs: their guide" && git switch -q main && printf 'How to use it, ours.\n' > docs/guide.md && git commit -q -am "docs: our guide"`),
			{bash: `git merge -q theirs`, failsWith: "CONFLICT"},
			bashStep(`git checkout -q --theirs docs/guide.md && git add docs/guide.md && GIT_EDITOR=true git merge --continue >/dev/null && git branch -q -D theirs`),
			{stop: true},
		}},
		{name: "rerere records a resolution and replays it on the merge made again", steps: []plumbingStep{
			bashStep(`git config rerere.enabled true && git switch -q -c theirs && printf 'Theirs.\n' > docs/guide.md && git commit -q -am "docs: their guide" && git switch -q main && printf 'Ours.\n' > docs/guide.md && git commit -q -am "docs: our guide"`),
			{bash: `git merge -q theirs`, failsWith: "CONFLICT"},
			bashStep(`printf 'Ours and theirs.\n' > docs/guide.md && git add docs/guide.md && git commit -q --no-edit`),
			bashStep(`git reset -q --hard HEAD~1`),
			{bash: `git merge -q theirs`, failsWith: "Resolved"},
			bashStep(`grep -q 'Ours and theirs' docs/guide.md && git add docs/guide.md && git commit -q --no-edit && git branch -q -D theirs`),
			{stop: true},
		}},
		{name: "stacked branches moved onto a new main with rebase --update-refs, the top one moved alone with --onto", steps: []plumbingStep{
			bashStep(`git switch -q -c stack-a && printf 'A.\n' > docs/a.md && git add docs/a.md && git commit -q -m "docs: page a" && git switch -q -c stack-b && printf 'B.\n' > docs/b.md && git add docs/b.md && git commit -q -m "docs: page b"`),
			bashStep(`git switch -q main && printf 'Main.\n' > docs/main.md && git add docs/main.md && git commit -q -m "docs: a main page"`),
			bashStep(`git switch -q stack-b && git rebase -q --update-refs main && git log --oneline main..stack-a`),
			bashStep(`git rebase -q --onto main stack-a stack-b && git switch -q main && git merge -q --ff-only stack-b && git branch -q -D stack-a stack-b`),
			{stop: true},
		}},
		{name: "stash push -u of one path, stash show -p, apply --index, drop", steps: []plumbingStep{
			bashStep(`printf 'Scratch.\n' > docs/scratch.md && printf 'Staged.\n' >> docs/guide.md && git add docs/guide.md && printf 'Kept.\n' > docs/kept.md`),
			bashStep(`git stash push -q -u -m "the guide and scratch" -- docs/guide.md docs/scratch.md && git stash show -p --include-untracked >/dev/null && git status --short`),
			bashStep(`git stash apply -q --index && git stash drop -q && git commit -q -m "docs: a staged line" && git add docs/scratch.md docs/kept.md && git commit -q -m "docs: two pages"`),
			{stop: true},
		}},
		{name: "a detached worktree switched to a branch with -C, moved by mv, repaired, removed with --force", steps: []plumbingStep{
			bashStep(`git worktree add -q --detach ../wt HEAD && git -C ../wt switch -q -c fix && printf 'Fix.\n' > ../wt/docs/fix.md && git -C ../wt add docs/fix.md && git -C ../wt commit -q -m "docs: a fix page"`),
			bashStep(`mv ../wt ../wt-moved && git worktree repair ../wt-moved && git worktree list >/dev/null`),
			bashStep(`printf 'junk\n' > ../wt-moved/junk.txt && git worktree remove --force ../wt-moved && git merge -q --no-edit fix && git branch -q -d fix && git worktree prune`),
			{stop: true},
		}},
		{name: "submodule added with -b main, bumped with update --remote, committed, then deinit and removed", setup: w7libRepo, steps: []plumbingStep{
			bashStep(`git -c protocol.file.allow=always submodule add -q -b main ../lib vendor/lib && git commit -q -m "build: vendor lib as a submodule"`),
			{user: w7libCommit},
			bashStep(`git -c protocol.file.allow=always submodule update -q --remote vendor/lib && git add vendor/lib && git commit -q -m "build: bump lib"`),
			bashStep(`git submodule status >/dev/null && git submodule deinit -q -f vendor/lib && git rm -q -f vendor/lib && git commit -q -m "build: drop the lib submodule"`),
			{stop: true},
		}},
		{name: "housekeeping: maintenance run of two tasks, gc --aggressive, fsck --full, repack, then a commit", steps: []plumbingStep{
			bashStep(`git maintenance run --task=commit-graph --task=loose-objects && git gc -q --aggressive --prune=now`),
			bashStep(`git fsck --full --no-progress && git repack -q -a -d && git count-objects -v >/dev/null`),
			bashStep(w5green + `git commit -q -m "docs: more to read"`),
			{stop: true},
		}},
		{name: "clone --depth 1 of the project, a commit there pushed to origin as a branch, fetched back", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git clone -q --depth 1 "file://$(cd ../up.git && pwd)" ../shallow && git -C ../shallow log --oneline | wc -l`),
			bashStep(`cd ../shallow && printf 'Shallow.\n' > docs/shallow.md && git add docs/shallow.md && git commit -q -m "docs: a page from a shallow clone" && git push -q origin HEAD:shallow-work`),
			bashStep(`git fetch -q origin && git log --oneline -1 origin/shallow-work && rm -rf ../shallow`),
			{stop: true},
		}},
		{name: "pull --rebase under rebase.autoStash set in the clone's config, staged and unstaged edits kept", setup: withOrigin, steps: []plumbingStep{
			bashStep(w5green + `git commit -q -m "docs: more to read"`),
			{user: colleague(2, false)},
			bashStep(`git config rebase.autoStash true && printf 'Staged.\n' > docs/staged.md && git add docs/staged.md && printf 'Unstaged.\n' >> docs/guide.md`),
			bashStep(`git pull -q --rebase && git status --short && git push -q origin main`),
			{stop: true},
		}},
		{name: "annotated tags, one from a message file, pushed with push --tags", setup: withOrigin, steps: []plumbingStep{
			bashStep(w5green + `git commit -q -m "docs: more to read" && git push -q origin main`),
			bashStep(`printf 'Release 1.0.0\n\nThe first release.\n' > ../tagmsg && git tag -a v1.0.0 -F ../tagmsg HEAD~1 && git tag -a v1.0.1 -m "Release 1.0.1"`),
			bashStep(`git push -q --tags origin && git ls-remote --tags origin | wc -l`),
			{stop: true},
		}},
		{name: "format-patch of the agent's own green series on a branch, am -3 onto main", steps: []plumbingStep{
			bashStep(`git switch -q -c series && printf 'One.\n' > docs/s1.md && git add docs/s1.md && git commit -q -m "docs: series one" && printf 'Two.\n' > docs/s2.md && git add docs/s2.md && git commit -q -m "docs: series two"`),
			bashStep(`git format-patch -q -o ../out main && git switch -q main && git am -q -3 ../out/*.patch && git branch -q -D series && rm -rf ../out`),
			{stop: true},
		}},
		{name: "a session of gh-like scripts and git plumbing that only read", setup: withOrigin, steps: []plumbingStep{
			bashStep(w7gh + `PATH="$PWD/../bin:$PATH" gh pr list --json number,title | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'`),
			bashStep(`PATH="$PWD/../bin:$PATH"; gh pr view 7 --json state,body && gh api repos/o/r/commits --jq '.[0].sha' && gh run list --limit 1`),
			bashStep(`git ls-remote origin >/dev/null && git for-each-ref --format='%(refname:short) %(objectname:short)' && git cat-file -p HEAD && git rev-list --count HEAD && git show-ref --heads`),
			bashStep(`git log -L '/How/,+1:docs/guide.md' --oneline >/dev/null && git range-diff main~1..main main~1..main >/dev/null; git diff --stat HEAD~1 && git shortlog -sn HEAD`),
			{stop: true},
		}},
		{name: "a bundle of main verified and cloned from, a scratch commit there thrown away", steps: []plumbingStep{
			bashStep(`git bundle create -q ../main.bundle main && git bundle verify -q ../main.bundle`),
			bashStep(`git clone -q ../main.bundle ../from-bundle && cd ../from-bundle && printf 'x\n' > x.txt && git add x.txt && git commit -q -m "docs: scratch" && cd .. && rm -rf from-bundle main.bundle`),
			{stop: true},
		}},
		{name: "merge -X theirs of a colleague's branch that touches the same line, pushed", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("guide", true, "docs/guide.md=How to use it, the colleague's way.\n")},
			bashStep(`printf 'How to use it, my way.\n' > docs/guide.md && git commit -q -am "docs: my guide"`),
			bashStep(`git fetch -q && git merge -q -X theirs --no-edit origin/guide && git push -q origin main`),
			{stop: true},
		}},
		{name: "a branch renamed with branch -m, pushed with -u, the old name deleted on origin", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git switch -q -c draft && ` + w5green + `git commit -q -m "docs: more to read" && git push -q -u origin draft`),
			bashStep(`git branch -m draft docs-more && git push -q -u origin docs-more && git push -q origin --delete draft`),
			{stop: true},
		}},
		{name: "half a change staged by commit -p and half undone by restore -p", steps: []plumbingStep{
			bashStep(`printf 'One.\n\n\n\n\n\n\nTwo.\n' > docs/halves.md && git add docs/halves.md && git commit -q -m "docs: halves"`),
			bashStep(`printf 'One, more.\n\n\n\n\n\n\nTwo, more.\n' > docs/halves.md && printf 'y\nn\n' | git commit -q -p -m "docs: the first half" >/dev/null`),
			bashStep(`printf 'y\n' | git restore -p docs/halves.md >/dev/null && git status --short`),
			{stop: true},
		}},
		{name: "a throwaway clone made with --shared and --reference, a commit there, removed", steps: []plumbingStep{
			bashStep(`git clone -q --shared . ../shared && git clone -q --reference . "file://$PWD" ../ref && cd ../shared && printf 's\n' > s.txt && git add s.txt && git commit -q -m "docs: scratch" && cd .. && rm -rf shared ref`),
			{stop: true},
		}},
		{name: "merge --squash of a green feature branch, committed under its own subject", steps: []plumbingStep{
			bashStep(`git switch -q -c feature && printf 'F1.\n' > docs/f1.md && git add docs/f1.md && git commit -q -m "docs: f1" && printf 'F2.\n' > docs/f2.md && git add docs/f2.md && git commit -q -m "docs: f2"`),
			bashStep(`git switch -q main && git merge -q --squash feature && git commit -q -m "docs: the feature pages" && git branch -q -D feature`),
			{stop: true},
		}},
		{name: "revert --no-commit of the last two green commits, one commit", steps: []plumbingStep{
			bashStep(`printf 'A.\n' > docs/a.md && git add docs/a.md && git commit -q -m "docs: a" && printf 'B.\n' > docs/b.md && git add docs/b.md && git commit -q -m "docs: b"`),
			bashStep(`git revert --no-commit HEAD~1..HEAD && git commit -q -m "docs: take a and b back"`),
			{stop: true},
		}},
		{name: "cherry-pick --edit from the side branch, the message reworded by a sed editor", steps: []plumbingStep{
			bashStep(`GIT_EDITOR="sed -i '1s/.*/docs: the side note, picked/'" git cherry-pick --edit side >/dev/null && git log -1 --format=%s`),
			{stop: true},
		}},
		{name: "a change saved as a diff, reset, and applied back with apply --3way", steps: []plumbingStep{
			bashStep(`printf 'Saved.\n' >> docs/guide.md && git diff > ../saved.patch && git checkout -q -- docs/guide.md`),
			bashStep(`printf 'Meanwhile.\n' > docs/other.md && git add docs/other.md && git commit -q -m "docs: meanwhile"`),
			bashStep(`git apply --3way ../saved.patch && git commit -q -am "docs: the saved line"`),
			{stop: true},
		}},
		{name: "commit --amend --reset-author, and commit -C reusing an earlier message", steps: []plumbingStep{
			bashStep(w5green + `GIT_AUTHOR_NAME=Someone GIT_AUTHOR_EMAIL=someone@example.invalid git commit -q -m "docs: more to read" && git commit -q --amend --no-edit --reset-author`),
			bashStep(`printf 'Again.\n' >> docs/more.md && git commit -q -a -C HEAD`),
			{stop: true},
		}},
		{name: "a merge undone with reset --hard ORIG_HEAD, then made again", steps: []plumbingStep{
			bashStep(`git merge -q --no-ff --no-edit side && git reset -q --hard ORIG_HEAD`),
			bashStep(`git merge -q --no-ff -m "Merge the side note" side`),
			{stop: true},
		}},
		{name: "a deleted branch recovered from the reflog and merged", steps: []plumbingStep{
			bashStep(`git switch -q -c topic && ` + w5green + `git commit -q -m "docs: more to read" && git switch -q main && git branch -q -D topic`),
			bashStep(`git branch topic "$(git reflog --format=%H -n 1 --grep-reflog='commit: docs: more to read')" && git merge -q --ff-only topic && git branch -q -d topic`),
			{stop: true},
		}},
		{name: "pull --rebase=merges keeps a local merge over a colleague's push", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git merge -q --no-ff --no-edit side`),
			{user: colleague(1, false)},
			bashStep(`git pull -q --rebase=merges && git log --merges --oneline -1 && git push -q origin main`),
			{stop: true},
		}},
		{name: "git am of a colleague's patch that no longer applies, skipped, the next applied", setup: withOrigin, steps: []plumbingStep{
			{user: w5series("docs/guide.md=How to use it, mailed.\n", "docs/m2.md=Mailed two.\n")},
			bashStep(`printf 'How to use it, mine.\n' > docs/guide.md && git commit -q -am "docs: my guide"`),
			{bash: `git am -q ../series/*.patch`, failsWith: "patch does not apply"},
			bashStep(`git am -q --skip && git log --oneline -2`),
			{stop: true},
		}},
		{name: "a worktree made inside the clone under .worktrees, committed in, merged, removed", steps: []plumbingStep{
			bashStep(`printf '/.worktrees/\n' >> .gitignore && git commit -q -am "build: ignore the worktrees" && git worktree add -q -b inner .worktrees/inner`),
			bashStep(`cd .worktrees/inner && printf 'Inner.\n' > docs/inner.md && git add docs/inner.md && git commit -q -m "docs: written in an inner worktree"`),
			bashStep(w5green + `git commit -q -m "docs: more to read"`),
			bashStep(`git merge -q --no-edit inner && git worktree remove .worktrees/inner && git branch -q -d inner`),
			{stop: true},
		}},
		{name: "everything untracked and added again after a .gitignore change", steps: []plumbingStep{
			bashStep(`printf 'Log.\n' > docs/debug.log && git add docs/debug.log && git commit -q -m "docs: a debug log"`),
			bashStep(`printf '*.log\n' >> .gitignore && git rm -r -q --cached . && git add . && git commit -q -m "build: stop tracking logs"`),
			{stop: true},
		}},
		{name: "commit messages quoting a CI log with runner paths, wip and fixup! in prose, and unicode", steps: []plumbingStep{
			bashStep(w5green + `git commit -q -m "docs: explain the cache miss" -m "The runner logged:" -m "    /home/runner/work/app/app/docs/more.md: cache miss" -m "    /Users/runner/work/app/app: restored"`),
			bashStep(`printf 'Two.\n' >> docs/more.md && git commit -q -am "docs: the page is no longer a draft" -m "It was marked wip in review; the fixup! commits are squashed now."`),
			bashStep(`printf 'Tres.\n' >> docs/more.md && git commit -q -am "docs: añade la guía rápida 🚀" -m "Übersicht für Anfänger; 日本語の説明も。"`),
			{stop: true},
		}},
		{name: "a message from a file with comment lines, --cleanup=strip", steps: []plumbingStep{
			bashStep(w5green + `printf 'docs: more to read\n\n# the template says: describe why\nBecause the guide was thin.\n' > ../msg && git commit -q --cleanup=strip -F ../msg && git log -1 --format=%B`),
			{stop: true},
		}},
		{name: "pull --no-rebase of a colleague's named branch, the merge message naming the remote", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("topic", true, "docs/topic.md=A topic.\n")},
			bashStep(w5green + `git commit -q -m "docs: more to read"`),
			bashStep(`git pull -q --no-rebase --no-edit origin topic && git log -1 --format=%s && git push -q origin main`),
			{stop: true},
		}},
		{name: "git --git-dir and --work-tree spelled out by a script, a green commit", steps: []plumbingStep{
			bashStep(w5green + `git --git-dir="$PWD/.git" --work-tree="$PWD" commit -q -m "docs: more to read"`),
			bashStep(`GIT_DIR=.git GIT_WORK_TREE=. git log --oneline -1`),
			{stop: true},
		}},
		{name: "identity and aliases set in the clone's config, a commit through an alias", steps: []plumbingStep{
			bashStep(`git config user.name "Agent Smith" && git config user.email agent@example.invalid && git config alias.ci commit && git config alias.st "status --short"`),
			bashStep(w5green + `git ci -q -m "docs: more to read" && git st`),
			{stop: true},
		}},
		{name: "stash -p of one hunk, the rest committed, the hunk popped", steps: []plumbingStep{
			bashStep(`printf 'One.\n\n\n\n\n\n\n\n\n\n\nTwo.\n' > docs/halves.md && git add docs/halves.md && git commit -q -m "docs: halves"`),
			bashStep(`printf 'One, more.\n\n\n\n\n\n\n\n\n\n\nTwo, more.\n' > docs/halves.md && printf 'y\nn\n' | git stash push -q -p >/dev/null && git commit -q -am "docs: the second half"`),
			bashStep(`git stash pop -q && git commit -q -am "docs: the first half"`),
			{stop: true},
		}},
		// A sparse checkout kept across calls that leaves the gates dir
		// off the disk: the guard leaves the message to the commit-msg
		// hook, which reads the index (§commit-guard C). Decision (issue
		// 41, stop 55): the guard said the rule was not enforced.
		{name: "sparse-checkout set --no-cone of patterns, a commit inside, then disable", setup: w7loaded, steps: []plumbingStep{
			bashStep(`git sparse-checkout set --no-cone '/docs/' '/README.md' 2>/dev/null && ls`),
			bashStep(`printf 'Sparse.\n' > docs/sparse.md && git add docs/sparse.md && git commit -q -m "docs: written in a sparse checkout"`),
			bashStep(`git sparse-checkout disable && git status --short`),
			{stop: true},
		}},
	}
}

func TestAgentWork7Sessions(t *testing.T) {
	t.Parallel()
	rows := w7sessions(t)
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

// A stash or clean of ignored files would take the gates binary (ignored
// in every adopted clone) off the disk: the guard stops it before it
// runs, naming a spelling that keeps the binary; that spelling runs
// through the harness untouched, keeps the binary, and the work goes on
// (the stash pops, the build output is gone). Decision (issue 41
// acceptance, branch work55): `git stash push --all` ran, every hook
// after it refused the next call, the pop among them, and the restore it
// offered made the pop fail; `git clean -fdX` was told to add `-e
// /bin/gates`, which under -X is one more ignored file to remove.
func TestAgentWork7CleanAndStashKeepTheBinary(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, prefix, cmd, after string }{
		{"stash push --all of an ignored build output and an edit", `printf 'Edited.\n' >> docs/guide.md && `, `git stash push -q --all -m "all of it"`, `git stash pop -q && test -f out/site.html && git commit -q -am "docs: the guide edited"`},
		{"stash -a", "", `git stash -a`, `git stash pop -q && test -f out/site.html`},
		{"clean -fdX of ignored build outputs", "", `git clean -q -fdX`, `test ! -e out/site.html`},
		{"clean -fX of ignored build outputs", "", `git clean -q -fX`, `test ! -e out/site.html`},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "w7 keep "+c.name)
			p.env = append(p.env, "CLAUDECODE=1")
			p.bashQuiet(`printf '/out/\n' >> .gitignore && git commit -q -am "build: ignore out" && mkdir -p out && printf 'built\n' > out/site.html`)
			why, blocked, _ := p.bash(c.prefix + c.cmd)
			if !blocked {
				t.Fatalf("%s ran: the binary is there: %v", c.cmd, fileExists(filepath.Join(p.dir, "bin/gates")))
			}
			spelling := ""
			for _, m := range backticked.FindAllStringSubmatch(why, -1) {
				if strings.HasPrefix(m[1], "git ") {
					spelling = m[1]
				}
			}
			t.Logf("KEEP | %s | blocked, a spelling that keeps the binary | %s", c.name, spelling)
			if spelling == "" || strings.Contains(why, "--no-verify") {
				t.Fatalf("no spelling to run in:\n%s", why)
			}
			// The agent runs the block's example in place of its own.
			again := c.prefix + spelling
			p.bashQuiet(again)
			if !fileExists(filepath.Join(p.dir, "bin/gates")) {
				t.Fatalf("%q took the binary", again)
			}
			p.bashQuiet(c.after)
			if w := p.stop(false); strings.TrimSpace(w) != "" {
				t.Errorf("the Stop said: %s", w)
			}
			if sl := p.statusWith(); strings.Contains(sl, "red commit") || strings.Contains(sl, "broken") || strings.Contains(sl, "not judged") {
				t.Errorf("the status line: %s", sl)
			}
		})
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// w7playLimit plays a limit row's steps through the harness, failing
// nothing: it answers "passes untouched", or what failed and what the
// hooks said.
func w7playLimit(t *testing.T, r plumbingRow) (string, string) {
	p := outcomeClone(t, "w7 limit "+r.name)
	p.env = append(p.env, "CLAUDECODE=1")
	if r.setup != nil {
		r.setup(p)
	}
	p.bashQuiet("git status --short")
	var log strings.Builder
	got := "passes untouched"
	miss := func(what string) {
		log.WriteString(what + "\n")
		if got == "passes untouched" {
			got = what
		}
	}
	for _, st := range r.steps {
		if st.stop {
			reason, refusal, other := words2(p.fire("Stop", "", map[string]any{"stop_hook_active": false}))
			if w := strings.TrimSpace(reason + refusal + other); w != "" {
				miss("the Stop said: " + w)
			}
			continue
		}
		in := map[string]any{"tool_input": map[string]any{"command": st.bash, "description": "x"}}
		reason, refusal, other := words2(p.fire("PreToolUse", "Bash", in))
		if refusal != "" {
			miss("refused before it ran: " + refusal)
			continue
		}
		cmd := exec.Command("bash", "-c", st.bash)
		cmd.Dir, cmd.Env = p.dir, p.env
		out, err := cmd.CombinedOutput()
		in["tool_response"] = map[string]any{"stdout": string(out)}
		r2, f2, o2 := words2(p.fire("PostToolUse", "Bash", in))
		if w := strings.TrimSpace(reason + other + r2 + f2 + o2); err != nil {
			miss("failed (" + strings.TrimSpace(string(out)) + "), the hooks said: " + w)
		} else if w != "" {
			miss("ran, and the hooks said: " + w)
		}
	}
	if sl := p.statusWith(); strings.Contains(sl, "red commit") || strings.Contains(sl, "not judged") || strings.Contains(sl, "broken") {
		miss("status line: " + strings.TrimSpace(sl))
	}
	return got, log.String()
}
