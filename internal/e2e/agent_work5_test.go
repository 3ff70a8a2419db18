package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 41's acceptance, a fifth round on the side of "none is blocked",
// written by someone who did not write the hook: everyday git work none of
// the earlier tables plays (a colleague's commits cherry-picked or applied
// from a mailed series, conflicts resolved by hand, stashes kept apart by
// the index, worktrees moved and locked, odd file kinds and names, a
// project's own make target that commits, trailers and heredoc messages),
// each of which must pass untouched; and the red commits the agent itself
// makes along the same roads (a colleague's red commit cherry-picked or
// applied is the agent's new commit), each named no later than its row
// says. A last set of rows has the agent fix its own red commit its own
// way (a revert, a fixup squashed in): the judge must go green.

// w5green stages a clean page.
const w5green = `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `

// w5env is the colleague's identity.
func w5env(p *player) []string {
	return append(append([]string{}, p.env...), "GIT_AUTHOR_NAME=Colleague", "GIT_AUTHOR_EMAIL=colleague@example.invalid",
		"GIT_COMMITTER_NAME=Colleague", "GIT_COMMITTER_EMAIL=colleague@example.invalid")
}

// w5colleagueClone answers the colleague's clone of origin (made once),
// brought up to date with origin's main.
func w5colleagueClone(p *player) string {
	p.t.Helper()
	parent := filepath.Dir(p.dir)
	tmp := filepath.Join(parent, "colleague5")
	if _, err := os.Stat(tmp); err != nil {
		if r := run(p.t, parent, p.env, "git", "clone", "-q", filepath.Join(parent, "up.git"), tmp); r.code != 0 {
			p.t.Fatalf("colleague clone: %s", r.stderr)
		}
	} else {
		run(p.t, tmp, p.env, "git", "checkout", "-q", "main")
		run(p.t, tmp, p.env, "git", "pull", "-q", "--ff-only")
	}
	return tmp
}

// w5commit makes, as the colleague, one commit per page on branch (made
// from origin's main when new), past any hook, and pushes the branch when
// push is set; each page is "path=body".
func w5commit(branch string, push bool, pages ...string) func(p *player) {
	return func(p *player) {
		p.t.Helper()
		tmp := w5colleagueClone(p)
		env := w5env(p)
		if branch != "main" {
			run(p.t, tmp, env, "git", "checkout", "-q", "-B", branch, "origin/main")
		}
		for _, pg := range pages {
			rel, body, _ := strings.Cut(pg, "=")
			full := filepath.Join(tmp, rel)
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
				p.t.Fatal(err)
			}
			run(p.t, tmp, env, "git", "add", rel)
			if r := run(p.t, tmp, env, "git", "commit", "-q", "-n", "-m", "docs: the colleague's "+filepath.Base(rel)); r.code != 0 {
				p.t.Fatalf("colleague commit: %s%s", r.stdout, r.stderr)
			}
		}
		if push {
			if r := run(p.t, tmp, env, "git", "push", "-q", "--no-verify", "-f", "origin", branch); r.code != 0 {
				p.t.Fatalf("colleague push: %s", r.stderr)
			}
		}
	}
}

// w5series makes, as the colleague, a mailed patch series of one commit
// per page in ../series, pushed nowhere.
func w5series(pages ...string) func(p *player) {
	return func(p *player) {
		p.t.Helper()
		w5commit("mail", false, pages...)(p)
		tmp := w5colleagueClone(p)
		out := filepath.Join(filepath.Dir(p.dir), "series")
		if r := run(p.t, tmp, w5env(p), "git", "format-patch", "-q", "-o", out, "origin/main..mail"); r.code != 0 {
			p.t.Fatalf("format-patch: %s", r.stderr)
		}
	}
}

var w5leak = strings.TrimSuffix(leakLine, "\n")

func TestAgentWork5Ordinary(t *testing.T) {
	t.Parallel()
	gc := realGoCache(t)
	goEnv := `GOCACHE=` + gc + ` GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local `
	rows := []plumbingRow{
		// A colleague's commits taken in by the agent.
		{name: "cherry-pick of every green commit a colleague pushed, no fast-forward", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("main", true, "docs/c1.md=One.\n", "docs/c2.md=Two.\n")}, bashStep(`git fetch -q && git cherry-pick HEAD..origin/main >/dev/null`)}},
		{name: "cherry-pick --no-commit of a colleague's green commit, committed under the agent's subject", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("main", true, "docs/c1.md=One.\n")}, bashStep(`git fetch -q && git cherry-pick --no-commit origin/main && git commit -q -m "docs: take the colleague's page"`)}},
		{name: "git am of a colleague's green patch series", setup: withOrigin, steps: []plumbingStep{
			{user: w5series("docs/m1.md=Mailed one.\n", "docs/m2.md=Mailed two.\n")}, bashStep(`git am -q ../series/*.patch`)}},
		{name: "git am -3 --signoff of a colleague's green series on a moved main", setup: withOrigin, steps: []plumbingStep{
			{user: w5series("docs/m1.md=Mailed one.\n")}, bashStep(w5green + `git commit -q -m "docs: more to read" && git am -q -3 --signoff ../series/*.patch`)}},
		{name: "bisect run over a colleague's pulled red history", setup: withOrigin, steps: []plumbingStep{
			{user: colleague(4, true)}, bashStep(`git pull -q --ff-only && git bisect start HEAD HEAD~4 >/dev/null && git bisect run sh -c 'test ! -e docs/upstream-leak.md' >/dev/null && git bisect reset >/dev/null 2>&1`)}},
		{name: "switch -c from a colleague's green remote branch, a commit pushed with -u", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("topic", true, "docs/topic.md=A topic.\n")}, bashStep(`git fetch -q && git switch -q -c topic-mine origin/topic && ` + w5green + `git commit -q -m "docs: more to read" && git push -q -u origin topic-mine`)}},
		{name: "restore --source of a page from a colleague's branch, staged and committed", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("topic", true, "docs/guide.md=How to use it, better.\n")}, bashStep(`git fetch -q && git restore --source=origin/topic --staged --worktree docs/guide.md && git commit -q -m "docs: take the better guide"`)}},
		{name: "an annotated tag on a colleague's fetched red commit, pushed", setup: withOrigin, steps: []plumbingStep{
			{user: colleague(2, true)}, bashStep(`git fetch -q && git tag -a seen-upstream -m "seen" origin/main && git push -q origin seen-upstream`)}},
		{name: "fork: a green branch rebased onto the project's red commits, force-pushed to the fork", setup: func(p *player) {
			withUpstream(p)
			p.git("remote", "add", "upstream", "../project.git")
		}, steps: []plumbingStep{bashStep(`git switch -q -c feat && ` + w5green + `git commit -q -m "docs: more to read" && git push -q -u origin feat`), {user: projectColleague(3)},
			bashStep(`git fetch -q upstream && git rebase -q upstream/main && git push -q --force-with-lease origin feat`)}},
		{name: "pull with pull.ff=false makes a merge a fast-forward would have skipped, pushed", setup: withOrigin, steps: []plumbingStep{
			{user: colleague(2, false)}, bashStep(`git -c pull.ff=false pull -q --no-edit && git push -q origin main`)}},
		// Conflicts resolved by hand.
		{name: "a merge conflict resolved by hand, committed with the merge's own message", steps: []plumbingStep{
			bashStep(`git switch -q -c edits && printf 'Theirs.\n' > docs/guide.md && git commit -q -am "docs: theirs" && git switch -q main && printf 'Ours.\n' > docs/guide.md && git commit -q -am "docs: ours"`),
			{bash: `git merge -q edits`, failsWith: "CONFLICT"}, bashStep(`printf 'Ours and theirs.\n' > docs/guide.md && git add docs/guide.md && git commit -q --no-edit`)}},
		{name: "a rebase conflict resolved by hand, rebase --continue", steps: []plumbingStep{
			bashStep(`git switch -q -c edits && printf 'Theirs.\n' > docs/guide.md && git commit -q -am "docs: theirs" && git switch -q main && printf 'Ours.\n' > docs/guide.md && git commit -q -am "docs: ours" && git switch -q edits`),
			{bash: `git rebase -q main`, failsWith: "CONFLICT"}, bashStep(`printf 'Ours and theirs.\n' > docs/guide.md && git add docs/guide.md && GIT_EDITOR=true git rebase --continue >/dev/null`)}},
		{name: "a pull that conflicts with a colleague, resolved by hand and pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`printf 'mine\n' > docs/upstream.md && git add docs/upstream.md && git commit -q -m "docs: mine"`), {user: colleague(1, false)},
			{bash: `git pull -q --no-rebase --no-edit`, failsWith: "CONFLICT"}, bashStep(`printf 'mine and theirs\n' > docs/upstream.md && git add docs/upstream.md && git commit -q --no-edit && git push -q origin main`)}},
		{name: "a cherry-pick conflict resolved by hand, --continue", steps: []plumbingStep{
			bashStep(`printf 'mine\n' > docs/side.md && git add docs/side.md && git commit -q -m "docs: mine"`), {bash: `git cherry-pick side`, failsWith: "CONFLICT"},
			bashStep(`printf 'mine and the side note\n' > docs/side.md && git add docs/side.md && GIT_EDITOR=true git cherry-pick --continue >/dev/null`)}},
		// Stashes and worktrees.
		{name: "stash --keep-index, the staged part committed, the rest popped", steps: []plumbingStep{bashStep(w5green + `printf 'draft\n' >> docs/guide.md && git stash -q --keep-index && git commit -q -m "docs: more to read" && git stash pop -q && git commit -q -am "docs: a draft"`)}},
		{name: "two stashes, the older applied, both dropped", steps: []plumbingStep{bashStep(`printf 'one\n' >> docs/guide.md && git stash -q && printf 'two\n' >> README.md && git stash -q && git stash apply -q 'stash@{1}' && git stash clear && git checkout -q docs/guide.md`)}},
		{name: "stash branch, commit, merged back --ff-only", steps: []plumbingStep{bashStep(`printf 'draft\n' >> docs/guide.md && git stash -q && git stash branch drafts >/dev/null && git commit -q -am "docs: a draft" && git switch -q main && git merge -q --ff-only drafts && git branch -q -d drafts`)}},
		{name: "a worktree of a new branch from origin, a commit pushed from it, removed", setup: withOrigin, steps: []plumbingStep{bashStep(`git worktree add -q -b hotfix ../hf origin/main && cd ../hf && ` + w5green + `git commit -q -m "fix: a hotfix page" && git push -q origin hotfix && cd - >/dev/null && git worktree remove ../hf`)}},
		{name: "a worktree locked, unlocked, moved and removed", steps: []plumbingStep{bashStep(`git worktree add -q -b w5 ../w5a && git worktree lock ../w5a && git worktree unlock ../w5a && git worktree move ../w5a ../w5b && git -C ../w5b commit -q --allow-empty -m "ci: start a build" && git worktree remove ../w5b`)}},
		// Files of every kind.
		{name: "git mv of a directory, committed", steps: []plumbingStep{bashStep(`git mv docs documentation && git commit -q -m "docs: move the pages"`)}},
		{name: "a case-only rename, committed", steps: []plumbingStep{bashStep(`git mv docs/guide.md docs/Guide.md && git commit -q -m "docs: capitalise the guide"`)}},
		{name: "a relative symlink and a link to a directory, committed", steps: []plumbingStep{bashStep(`ln -s guide.md docs/using.md && ln -s docs manual && git add docs/using.md manual && git commit -q -m "docs: links to the guide"`)}},
		{name: "a CRLF text file committed as it is", steps: []plumbingStep{bashStep(`printf 'Line one.\r\nLine two.\r\n' > docs/windows.md && git add docs/windows.md && git commit -q -m "docs: a page from Windows"`)}},
		{name: "unicode file names committed", steps: []plumbingStep{bashStep(`printf 'Café.\n' > docs/café.md && printf 'Nihongo.\n' > docs/日本語.md && printf 'Smile.\n' > 'docs/emoji 🙂.md' && git add docs && git commit -q -m "docs: pages with unicode names"`)}},
		{name: "a 6 MB generated file committed", steps: []plumbingStep{bashStep(`seq 1 800000 | sed 's/^/row /' > docs/table.txt && git add docs/table.txt && git commit -q -m "docs: a generated table"`)}},
		{name: "binary files committed", steps: []plumbingStep{bashStep(`python3 -c 'import random; random.seed(5); open("docs/blob.bin","wb").write(bytes(random.randrange(256) for _ in range(300000)))' && printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' > docs/logo.png && git add docs && git commit -q -m "docs: a logo and a blob"`)}},
		{name: "an orphan docs branch begun by checkout --orphan, pushed and checked out in a worktree", setup: withOrigin, steps: []plumbingStep{bashStep(`git checkout -q --orphan gh-pages && git rm -q -r --cached . && printf 'Pages.\n' > index.html && git add index.html && git commit -q -m "docs: start the site" && git push -q origin gh-pages && git checkout -q -f main && rm -f index.html && git worktree add -q ../site gh-pages && git worktree remove ../site`)}},
		{name: "clean -fd of an untracked scratch directory holding a leak", steps: []plumbingStep{bashStep(`mkdir -p scratch && printf 'Keep notes in /ho''me/marta/notes.\n' > scratch/notes.md && ls scratch >/dev/null`), bashStep(`git clean -q -fd`)}},
		// The project's own tools.
		{name: "go mod tidy, go vet and gofmt -w in a module with no requirements, committed", setup: func(p *player) {
			os.MkdirAll(filepath.Join(p.dir, "tool"), 0o755)
			os.WriteFile(filepath.Join(p.dir, "tool/go.mod"), []byte("module example.invalid/tool\n\ngo 1.21\n"), 0o644)
			os.WriteFile(filepath.Join(p.dir, "tool/tool.go"), []byte("// Package tool answers numbers.\npackage tool\n\n// Two answers two.\nfunc Two() int { return 2 }\n"), 0o644)
			p.git("add", "tool")
			p.git("commit", "-q", "-m", "build: a small Go tool")
		}, steps: []plumbingStep{bashStep(`printf '\n// Three answers three.\nfunc Three() int {return 3}\n' >> tool/tool.go && cd tool && ` + goEnv + `go mod tidy && ` + goEnv + `go vet ./... && gofmt -w . && cd .. && git add -A tool && git commit -q -m "feat: three"`)}},
		{name: "go generate writing a generated Go file, committed", setup: w5genModule, steps: []plumbingStep{bashStep(`cd gen && ROWS=3 ` + goEnv + `go generate ./... && test -z "$(gofmt -l .)" && ` + goEnv + `go vet ./... && git add rows_gen.go && git commit -q -m "build: generate the rows"`)}},
		{name: "the project's make target that regenerates a page and commits it", setup: func(p *player) {
			os.WriteFile(filepath.Join(p.dir, "Makefile"), []byte(".PHONY: index\nindex:\n\tls docs | sed 's/^/- /' > docs/index.md\n\tgit add docs/index.md\n\tgit commit -q -m \"docs: regenerate the index\"\n"), 0o644)
			p.git("add", "Makefile")
			p.git("commit", "-q", "-m", "build: an index target")
		}, steps: []plumbingStep{bashStep(`make -s index`)}},
		{name: "the project's scripts run: the battery, then a script that tags", setup: func(p *player) {
			os.WriteFile(filepath.Join(p.dir, "scripts/release.sh"), []byte("#!/bin/sh\nset -e\nv=$1\ngit tag -a \"$v\" -m \"Release $v\"\necho \"tagged $v\"\n"), 0o755)
			p.git("add", "scripts/release.sh")
			p.git("commit", "-q", "-m", "build: a release script")
		}, steps: []plumbingStep{bashStep(`bash gate-sdk/bin/run-gates.sh >/dev/null 2>&1; sh scripts/release.sh v0.5.0 >/dev/null`)}},
		// Commit commands.
		{name: "commit -a of a deletion and an edit", steps: []plumbingStep{bashStep(`rm docs/guide.md && printf 'More.\n' >> README.md && git commit -q -a -m "docs: fold the guide into the readme"`)}},
		{name: "amend --no-edit of a pushed green commit, push --force-with-lease", setup: withOrigin, steps: []plumbingStep{bashStep(w5green + `git commit -q -m "docs: more to read" && git push -q origin main && printf 'Even more.\n' >> docs/more.md && git commit -q -a --amend --no-edit && git push -q --force-with-lease origin main`)}},
		{name: "a commit with several trailers, one with a unicode name", steps: []plumbingStep{bashStep(w5green + `git commit -q -m "docs: more to read" --trailer "Co-authored-by: Zoë Ångström <zoe@example.invalid>" --trailer "Refs: #12" --trailer "Reviewed-by: Pat <pat@example.invalid>"`)}},
		{name: "commit -F - from an unquoted heredoc that expands a commit id", steps: []plumbingStep{bashStep(w5green + "git commit -q -F - <<EOF\ndocs: more to read\n\nFollows $(git rev-parse --short HEAD), which left this out.\nEOF")}},
		{name: "lightweight tags pushed, one deleted on origin", setup: withOrigin, steps: []plumbingStep{bashStep(`git tag v0.1 && git tag v0.2 HEAD && git push -q origin --tags && git push -q origin :refs/tags/v0.1 && git tag -d v0.1 >/dev/null`)}},
		// Index and tree shapes.
		{name: "an intent-to-add file, then commit -a", steps: []plumbingStep{bashStep(`printf 'A new page.\n' > docs/new.md && git add -N docs/new.md && git diff --stat >/dev/null && git commit -q -a -m "docs: a new page"`)}},
		{name: "an intent-to-add file left uncommitted at the Stop", steps: []plumbingStep{bashStep(`printf 'A draft.\n' > docs/draft.md && git add -N docs/draft.md`)}},
		{name: "a symlink replaced by a real directory, committed", steps: []plumbingStep{bashStep(`mkdir -p docs/real && printf 'Real.\n' > docs/real/a.md && ln -s real docs/alias && git add docs && git commit -q -m "docs: an alias" && rm docs/alias && mkdir docs/alias && printf 'Now a directory.\n' > docs/alias/b.md && git add -A docs && git commit -q -m "docs: the alias is a directory now"`)}},
		{name: "file names with quotes, spaces and a leading dash, committed", steps: []plumbingStep{bashStep(`printf 'Q.\n' > 'docs/"quoted" name.md' && printf 'D.\n' > 'docs/-dash.md' && printf 'T.\n' > "docs/it's.md" && git add -- docs && git commit -q -m "docs: pages with odd names"`)}},
		{name: "an empty file and a .gitkeep, committed", steps: []plumbingStep{bashStep(`mkdir -p docs/empty && : > docs/empty/.gitkeep && : > docs/blank.md && git add docs && git commit -q -m "docs: keep an empty directory"`)}},
		{name: "2000 small files in one commit", steps: []plumbingStep{bashStep(`mkdir -p docs/many && for i in $(seq 2000); do printf 'Page %s.\n' $i > docs/many/p$i.md; done && git add docs/many && git commit -q -m "docs: many pages"`)}},
		{name: "a green commit on a detached HEAD, left behind", steps: []plumbingStep{bashStep(`git switch -q --detach && ` + w5green + `git commit -q -m "docs: more to read" && git switch -q main`)}},
		{name: "--fixup=reword: of a green commit, autosquashed", steps: []plumbingStep{bashStep(w5green + `git commit -q -m "docs: more" && GIT_EDITOR="sed -i '3s/.*/docs: more to read/'" git commit -q --fixup=reword:HEAD && GIT_SEQUENCE_EDITOR=true GIT_EDITOR=true git rebase -q -i --autosquash HEAD~2`)}},
		{name: "revert of a colleague's pulled green commit", setup: withOrigin, steps: []plumbingStep{{user: w5commit("main", true, "docs/c1.md=One.\n")}, bashStep(`git pull -q --ff-only && git revert --no-edit HEAD >/dev/null`)}},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

// w5accepted commits, before the session and as the user, a page whose
// quoted log line holds a home path, with the finding accepted by `gates
// baseline`.
func w5accepted(p *player) {
	p.t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, "docs/log.md"), []byte("    open "+leakWord+"/x: permission denied\n"), 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.git("add", "docs/log.md")
	if r := run(p.t, p.dir, p.env, filepath.Join(p.dir, "bin/gates"), "baseline"); r.code != 0 {
		p.t.Fatalf("gates baseline: %s%s", r.stdout, r.stderr)
	}
	p.git("add", "-A")
	p.git("commit", "-q", "-m", "docs: a quoted log, accepted")
}

// w5acceptedWorkflow commits, before the session and as the user, a
// workflow whose job checks out the repository with no permissions block,
// check-action-permissions registered and its finding accepted.
func w5acceptedWorkflow(p *player) {
	p.t.Helper()
	wf := filepath.Join(p.dir, ".github/workflows/ci.yml")
	os.MkdirAll(filepath.Dir(wf), 0o755)
	body := "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@0123456789abcdef0123456789abcdef01234567 # v4\n      - run: make test\n"
	if err := os.WriteFile(wf, []byte(body), 0o644); err != nil {
		p.t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(p.dir, "scripts/gates.list"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("check-action-permissions\n")
	f.Close()
	p.git("add", "-A")
	if r := run(p.t, p.dir, p.env, filepath.Join(p.dir, "bin/gates"), "baseline"); r.code != 0 {
		p.t.Fatalf("gates baseline: %s%s", r.stdout, r.stderr)
	}
	p.git("add", "-A")
	if b := string(readFile4(p.t, filepath.Join(p.dir, "scripts/gates.baseline"))); !strings.Contains(b, "check-action-permissions\t.github/workflows/ci.yml") {
		p.t.Fatalf("the workflow's finding was not accepted:\n%s", b)
	}
	p.git("commit", "-q", "-m", "ci: a workflow, its finding accepted")
}

// A file with an accepted finding renamed and renamed back by two commits
// of one command: the judge reads each commit's renames up to that commit.
func TestAgentWork5AcceptedFileRenamedAndBack(t *testing.T) {
	t.Parallel()
	rows := []plumbingRow{
		{name: "a file with an accepted finding renamed and back in one command", setup: w5accepted, steps: []plumbingStep{
			bashStep(`git mv docs/log.md docs/quoted-log.md && git commit -q -m "docs: rename the log" && git mv docs/quoted-log.md docs/log.md && git commit -q -m "docs: name the log back"`)}},
		{name: "a file with an accepted finding given a case-only rename and back in one command", setup: w5accepted, steps: []plumbingStep{
			bashStep(`git mv docs/log.md docs/Log.md && git commit -q -m "docs: capitalise the log" && git mv docs/Log.md docs/log.md && git commit -q -m "docs: lower the log again"`)}},
		{name: "a file with an accepted finding renamed, then another commit, in one command", setup: w5accepted, steps: []plumbingStep{
			bashStep(`git mv docs/log.md docs/quoted-log.md && git commit -q -m "docs: rename the log" && ` + w5green + `git commit -q -m "docs: more to read"`)}},
		{name: "a workflow with an accepted finding given a case-only rename and back in one command", setup: w5acceptedWorkflow, steps: []plumbingStep{
			bashStep(`git mv .github/workflows/ci.yml .github/workflows/Ci.yml && git commit -q -m "ci: capitalise the workflow" && git mv .github/workflows/Ci.yml .github/workflows/ci.yml && git commit -q -m "ci: lower the workflow again"`)}},
		{name: "a workflow with an accepted finding renamed, then renamed again, in one command", setup: w5acceptedWorkflow, steps: []plumbingStep{
			bashStep(`git mv .github/workflows/ci.yml .github/workflows/test.yml && git commit -q -m "ci: name the workflow test" && git mv .github/workflows/test.yml .github/workflows/build.yml && git commit -q -m "ci: name the workflow build"`)}},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

// The agent's own red commits along the same roads: each is the agent's
// new commit, whoever wrote the change first.
func TestAgentWork5RedVariants(t *testing.T) {
	t.Parallel()
	goEnv := `GOCACHE=` + realGoCache(t) + ` GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local `
	const tt = "check-tree-terms"
	leakPage := "docs/leak.md=" + leakLine
	rows := []plumbingRow{
		{name: "cherry-pick of a colleague's red commit", setup: withOrigin, steps: []plumbingStep{
			{user: colleague(1, true)}, bashStep(`git fetch -q && git cherry-pick origin/main >/dev/null`)}, expect: stAfter, gate: tt},
		{name: "cherry-pick of a colleague's red commit from a branch, with -x", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("topic", true, leakPage)}, bashStep(`git fetch -q && git cherry-pick -x origin/topic >/dev/null`)}, expect: stAfter, gate: tt},
		// The colleague's red branch is fetched before the session, so the
		// row's own tally of landed red commits leaves it out.
		{name: "cherry-pick --no-commit of a colleague's red commit, a plain commit", setup: func(p *player) {
			withOrigin(p)
			w5commit("topic", true, leakPage)(p)
			p.git("fetch", "-q")
		}, steps: []plumbingStep{bashStep(`git cherry-pick --no-commit origin/topic && git commit -q -m "docs: take the colleague's notes"`)}, expect: stHook, gate: tt},
		{name: "git am of a colleague's series whose second patch adds a leak", setup: withOrigin, steps: []plumbingStep{
			{user: w5series("docs/m1.md=Mailed one.\n", leakPage)}, bashStep(`git am -q ../series/*.patch`)}, expect: stAfter, gate: tt},
		{name: "a merge conflict resolved by hand with a leak, a plain commit", steps: []plumbingStep{
			bashStep(`git switch -q -c edits && printf 'Theirs.\n' > docs/guide.md && git commit -q -am "docs: theirs" && git switch -q main && printf 'Ours.\n' > docs/guide.md && git commit -q -am "docs: ours"`),
			{bash: `git merge -q edits`, failsWith: "CONFLICT"}, bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/guide.md && git add docs/guide.md && git commit -q --no-edit`)}, from: 2, expect: stHook, gate: tt},
		{name: "a rebase conflict resolved by hand with a leak, rebase --continue", steps: []plumbingStep{
			bashStep(`git switch -q -c edits && printf 'Theirs.\n' > docs/guide.md && git commit -q -am "docs: theirs" && git switch -q main && printf 'Ours.\n' > docs/guide.md && git commit -q -am "docs: ours" && git switch -q edits`),
			{bash: `git rebase -q main`, failsWith: "CONFLICT"}, bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/guide.md && git add docs/guide.md && GIT_EDITOR=true git rebase --continue >/dev/null`)}, from: 2, expect: stAfter, gate: tt},
		{name: "a cherry-pick conflict resolved by hand with a leak, --continue", steps: []plumbingStep{
			bashStep(`printf 'mine\n' > docs/side.md && git add docs/side.md && git commit -q -m "docs: mine"`), {bash: `git cherry-pick side`, failsWith: "CONFLICT"},
			bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/side.md && git add docs/side.md && GIT_EDITOR=true git cherry-pick --continue >/dev/null`)}, from: 2, expect: stHook, gate: tt},
		{name: "git am of a colleague's patch with a refused subject", setup: withOrigin, steps: []plumbingStep{
			{user: func(p *player) {
				w5series("docs/m1.md=Mailed one.\n")(p)
				matches, _ := filepath.Glob(filepath.Join(filepath.Dir(p.dir), "series", "*.patch"))
				for _, m := range matches {
					b := string(readFile4(p.t, m))
					os.WriteFile(m, []byte(strings.Replace(b, "Subject: [PATCH] docs: the colleague's m1.md", "Subject: [PATCH] "+redSubject, 1)), 0o644)
				}
			}}, bashStep(`git am -q ../series/*.patch`)}, expect: stAfter, gate: "check-commit-subject"},
		{name: "cherry-pick of a colleague's commit with a refused subject", setup: withOrigin, steps: []plumbingStep{
			{user: func(p *player) {
				tmp := w5colleagueClone(p)
				env := w5env(p)
				run(p.t, tmp, env, "git", "commit", "-q", "-n", "--allow-empty", "-m", redSubject)
				run(p.t, tmp, env, "git", "push", "-q", "--no-verify", "origin", "main:topic")
			}}, bashStep(`git fetch -q && git cherry-pick --allow-empty origin/topic >/dev/null`)}, expect: stAfter, gate: "check-commit-subject"},
		{name: "restore --source of a colleague's red page, a plain commit", setup: func(p *player) {
			withOrigin(p)
			w5commit("topic", true, leakPage)(p)
			p.git("fetch", "-q")
		}, steps: []plumbingStep{bashStep(`git restore --source=origin/topic --staged --worktree docs/leak.md && git commit -q -m "docs: take the colleague's notes"`)}, expect: stHook, gate: tt},
		{name: "restore --source of a colleague's red page, committed through sh", setup: func(p *player) {
			withOrigin(p)
			w5commit("topic", true, leakPage)(p)
			p.git("fetch", "-q")
		}, steps: []plumbingStep{bashStep(`git restore --source=origin/topic --staged --worktree docs/leak.md && ` + sh2("docs: take the notes"))}, expect: stAfter, gate: tt},
		{name: "an intent-to-add page holding a leak, commit -a through sh", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/new.md && git add -N docs/new.md && echo 'git commit -q -n -a -m "docs: a new page"' | sh`)}, expect: stAfter, gate: tt},
		{name: "a red commit in a worktree the same command removes", steps: []plumbingStep{
			bashStep(`git worktree add -q -b w5 ../w5 && cd ../w5 && ` + leakCmd + sh2("docs: add notes") + ` && cd - >/dev/null && git worktree remove --force ../w5`)}, expect: stAfter, gate: tt},
		{name: "a leak in a CRLF file, a plain commit", steps: []plumbingStep{bashStep(`printf 'Line one.\r\nKeep notes in /ho''me/marta/notes.\r\n' > docs/windows.md && git add docs/windows.md && git commit -q -m "docs: a page from Windows"`)}, expect: stHook, gate: tt},
		{name: "a leak in a go generate output, committed through sh", setup: w5genModule, steps: []plumbingStep{bashStep(`cd gen && ROWS='"/ho''me/marta/rows"' ` + goEnv + `go generate ./... && git add rows_gen.go && echo 'git commit -q -n -m "build: generate the rows"' | sh`)}, expect: stAfter, gate: tt},
		{name: "the project's make target commits a leak past the hook", setup: func(p *player) {
			os.WriteFile(filepath.Join(p.dir, "Makefile"), []byte(".PHONY: notes\nnotes:\n\tprintf 'Keep notes in %s/notes.\\n' \"$$NOTES\" > docs/notes.md\n\tgit add docs/notes.md\n\tgit commit -q --no-verify -m \"docs: regenerate the notes\"\n"), 0o644)
			p.git("add", "Makefile")
			p.git("commit", "-q", "-m", "build: a notes target")
		}, steps: []plumbingStep{bashStep(`NOTES=/ho''me/marta make -s notes`)}, expect: stAfter, gate: tt},
	}
	runPlumbingRows(t, rows)
}

// w5ownFix is a red commit the agent lands (named right after) and then
// fixes its own way rather than by the remedy offered: after the fix the
// Stop is quiet and the status line shows nothing red.
type w5ownFix struct {
	name  string
	setup func(p *player)
	red   string // lands the red commit
	fix   []string
}

func TestAgentWork5OwnFixes(t *testing.T) {
	t.Parallel()
	const redGuide = `printf 'Keep notes in /ho''me/marta/notes.\n' >> docs/guide.md && ` + w5green + `git add docs/guide.md && echo 'git commit -q -n -m "docs: more to read"' | sh`
	rows := []w5ownFix{
		{name: "a red commit reverted", red: redGuide, fix: []string{`git revert --no-edit HEAD >/dev/null`}},
		{name: "a red commit fixed by --fixup and rebase -i --autosquash", red: redGuide, fix: []string{
			`git checkout HEAD~1 -- docs/guide.md && git commit -q --fixup=HEAD && GIT_SEQUENCE_EDITOR=true git rebase -q -i --autosquash HEAD~2`}},
		{name: "a red commit fixed by --fixup, autosquashed in a later command", red: redGuide, fix: []string{
			`git checkout HEAD~1 -- docs/guide.md && git commit -q --fixup=HEAD`, `GIT_SEQUENCE_EDITOR=true git rebase -q -i --autosquash HEAD~2`}},
		{name: "a red commit fixed by --fixup, a green commit on top, then autosquash", red: redGuide, fix: []string{
			`git checkout HEAD~1 -- docs/guide.md && git commit -q --fixup=HEAD`, `printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more"`,
			`GIT_SEQUENCE_EDITOR=true git rebase -q -i --autosquash HEAD~3`}},
		{name: "a red commit fixed by a later commit that takes the line out", red: redGuide, fix: []string{
			`git checkout HEAD~1 -- docs/guide.md && git commit -q -m "docs: take the home path out of the guide"`}},
		{name: "a red commit amended clean with --amend --no-edit", red: redGuide, fix: []string{
			`git checkout HEAD~1 -- docs/guide.md && git commit -q --amend --no-edit`}},
		{name: "a red commit stashed away by reset --mixed, the good part recommitted", red: redGuide, fix: []string{
			`git reset -q HEAD~1 && git checkout -q docs/guide.md && git add docs/more.md && git commit -q -m "docs: more to read"`}},
	}
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "w5 own fix "+r.name)
			p.env = append(p.env, "CLAUDECODE=1")
			if r.setup != nil {
				r.setup(p)
			}
			p.bashQuiet("git status --short")
			got := "named right after"
			refused, after := p.bash2(r.red)
			switch {
			case refused != "":
				got = "refused before it ran: " + refused
			case !p.namesRed(after, "check-tree-terms"):
				got = "not named: " + after
			}
			if got != "named right after" {
				t.Errorf("%s: the red commit: %s", r.name, got)
			}
			words := ""
			for _, fix := range r.fix {
				refused, after := p.bash2(fix)
				if refused != "" {
					words += "refused " + fix + ": " + refused
				}
				words += after
			}
			if red := run(t, p.dir, p.env, "git", "grep", "-q", "-F", leakWord, "HEAD", "--"); red.code == 0 {
				t.Fatalf("%s: the fix left the leak in HEAD's tree", r.name)
			}
			stop := p.stop(false)
			sl := p.statusWith()
			res := "green"
			if strings.TrimSpace(words) != "" || stop != "" || strings.Contains(sl, "red commit") || strings.Contains(sl, "not judged") {
				res = "after the fix: " + words + " | Stop: " + stop + " | status line: " + sl
			}
			t.Logf("WORK5 | %s | named, then green | %s, then %s", r.name, got, res)
			if res != "green" {
				t.Errorf("%s: %s", r.name, res)
			}
		})
	}
}

// w5genModule commits a Go module whose go:generate runs a script that
// writes a generated file holding $ROWS.
func w5genModule(p *player) {
	os.MkdirAll(filepath.Join(p.dir, "gen"), 0o755)
	os.WriteFile(filepath.Join(p.dir, "gen/go.mod"), []byte("module example.invalid/gen\n\ngo 1.21\n"), 0o644)
	os.WriteFile(filepath.Join(p.dir, "gen/gen.go"), []byte("// Package gen holds a table.\npackage gen\n\n//go:generate sh gen.sh\n"), 0o644)
	os.WriteFile(filepath.Join(p.dir, "gen/gen.sh"), []byte("#!/bin/sh\nprintf '// Code generated by gen.sh. DO NOT EDIT.\\n\\npackage gen\\n\\n// Rows is the table.\\nconst Rows = %s\\n' \"$ROWS\" > rows_gen.go\n"), 0o755)
	p.git("add", "gen")
	p.git("commit", "-q", "-m", "build: a generated table")
}
