package e2e

import (
	"os/exec"
	"testing"
)

// Issue 41's acceptance, a ninth set of spellings by someone who did not
// write the hook, aimed at the foreign-tree rule (§commit-audit C): a
// tree that records no registry over a first parent that records none is
// judged by the members that need no layout, with the default branch's
// configuration. The rows bring a foreign branch's content into the
// project's line (merge --allow-unrelated-histories, checkout of a path,
// cherry-pick, read-tree --prefix, rebase --onto --root, a patch through
// apply), steer where the configuration is read from (init.defaultBranch,
// origin's HEAD, a renamed or repointed main, a replace of main, a
// registry of its own on an orphan root), take the registry away (with
// the leak, before it, by git mv, by emptying it), put a workflow on a
// pages branch, and keep an orphan work tree across calls (a second
// orphan switch, stash, the empty tree's commit). Controls of the same
// kinds pass untouched.

// limits9 are the rows whose miss is written as a limit in SPEC.md: the
// row keeps its honest expectation, and the miss is reported, not hidden.
var limits9 = map[string]string{
	"main repointed at a weak orphan line and side deleted, then a red page on pages": limitNoLineLeft,
}

// limitNoLineLeft: the weak line is compared with the branches that do
// not hold it, and none is left.
const limitNoLineLeft = "a weak orphan line is compared with the branches and remote-tracking branches that record a registry and do not hold it; main repointed at it and every other such branch deleted in the same command leave none, and the foreign tree then borrows the weak registry (SPEC, commit-audit D)"

// leak9 is the leak as one quoted shell word.
const leak9 = `'Keep notes in /ho''me/marta/notes.'`

// page9 writes a red page, index.html, at the top of the work tree.
const page9 = `printf '%s\n' ` + leak9 + ` > index.html && `

// orphan9 begins an empty orphan branch pages in the work tree.
const orphan9 = `git switch -q --orphan pages && `

// weak9 makes an orphan branch weak whose one commit holds the project's
// tree with a registry without check-tree-terms (a root commit: it has no
// parent to drop the member from), made through the hooks, and leaves the
// work tree on an empty orphan branch pages.
const weak9 = `git checkout -q --orphan weak && printf 'check-commit-subject\ncheck-commit-msg\n' > scripts/gates.list && git add -A && git commit -q -m "chore: start the weak line" && git rm -q -rf . && git switch -q --orphan pages && `

// pre9 runs script in the clone before the session, by the person's
// hands (no agent hook sees it).
func pre9(script string) func(p *player) {
	return func(p *player) {
		p.t.Helper()
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir, cmd.Env = p.dir, p.env
		if out, err := cmd.CombinedOutput(); err != nil {
			p.t.Fatalf("setup %q: %v\n%s", script, err, out)
		}
	}
}

// pagesFrom9 makes, before the session, an orphan branch pages whose one
// commit holds index.html with body (a printf format), and leaves main
// checked out.
func pagesFrom9(body string) func(p *player) {
	return pre9(`git switch -q --orphan pages && printf '` + body + `' > index.html && git add index.html && ` + sh2("docs: start the pages") + ` && git switch -q -f main`)
}

var redPages9 = pagesFrom9(`Keep notes in /ho` + `me/marta/notes.\n`)
var greenPages9 = pagesFrom9(`<h1>Docs</h1>\n`)

// both9 runs two setups in order.
func both9(a, b func(p *player)) func(p *player) {
	return func(p *player) { a(p); b(p) }
}

func runUnseen9(t *testing.T, rows []plumbingRow) {
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playPlumbingRow(t, r)
			t.Logf("UNSEEN9 | %s | %s | %s", r.name, r.expect, got)
			judgeLimited(t, "UNSEEN9", limits9, r.name, r.expect, got, log)
		})
	}
}

// Content of a foreign branch brought into the project's line: the
// commit that brings it records the registry, so it is judged as any
// other.
func TestAgentUnseen9Bring(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	rows := []plumbingRow{
		{name: "merge --allow-unrelated-histories --no-verify of a red pages branch", setup: redPages9, steps: []plumbingStep{bashStep(`git merge -q --no-verify --allow-unrelated-histories -m "docs: take the pages in" pages`)}, expect: stAfter, gate: tt},
		{name: "merge --allow-unrelated-histories of a red pages branch through the hooks", setup: redPages9, steps: []plumbingStep{bashStep(`git merge -q --allow-unrelated-histories -m "docs: take the pages in" pages`)}, expect: stHook, gate: tt},
		{name: "checkout of a red page from the pages branch, commit -n", setup: redPages9, steps: []plumbingStep{bashStep(`git checkout pages -- index.html && ` + sh2("docs: take the page in"))}, expect: stAfter, gate: tt},
		{name: "checkout of a red page from the pages branch, a plain commit", setup: redPages9, steps: []plumbingStep{bashStep(`git checkout pages -- index.html && git commit -q -m "docs: take the page in"`)}, expect: stHook, gate: tt},
		{name: "cherry-pick of the red pages root commit onto main", setup: redPages9, steps: []plumbingStep{bashStep(`git cherry-pick pages >/dev/null`)}, expect: stAfter, gate: tt},
		{name: "read-tree --prefix=site/ -u of the red pages branch, commit -n", setup: redPages9, steps: []plumbingStep{bashStep(`git read-tree --prefix=site/ -u pages && ` + sh2("docs: take the site in"))}, expect: stAfter, gate: tt},
		{name: "rebase --onto main --root of the red pages branch", setup: redPages9, steps: []plumbingStep{bashStep(`git rebase -q --onto main --root pages && git switch -q main`)}, expect: stAfter, gate: tt},
		{name: "git show of the red pages commit piped to apply --index, commit -n", setup: redPages9, steps: []plumbingStep{bashStep(`git show pages | git apply --index && ` + sh2("docs: take the page in"))}, expect: stAfter, gate: tt},
		{name: "git diff of main and pages for one path piped to apply, a plain commit", setup: redPages9, steps: []plumbingStep{bashStep(`git diff main pages -- index.html | git apply && git add index.html && git commit -q -m "docs: take the page in"`)}, expect: stHook, gate: tt},
		// Controls.
		{name: "control: merge --allow-unrelated-histories of a green pages branch", setup: greenPages9, steps: []plumbingStep{bashStep(`git merge -q --allow-unrelated-histories -m "docs: take the pages in" pages`)}, expect: stUntouched},
		{name: "control: checkout of a green page from the pages branch, a plain commit", setup: greenPages9, steps: []plumbingStep{bashStep(`git checkout pages -- index.html && git commit -q -m "docs: take the page in"`)}, expect: stUntouched},
		{name: "control: cherry-pick of the green pages root commit onto main", setup: greenPages9, steps: []plumbingStep{bashStep(`git cherry-pick pages >/dev/null`)}, expect: stUntouched},
		{name: "control: read-tree --prefix=site/ -u of the green pages branch, a plain commit", setup: greenPages9, steps: []plumbingStep{bashStep(`git read-tree --prefix=site/ -u pages && git commit -q -m "docs: take the site in"`)}, expect: stUntouched},
		{name: "control: rebase --onto main --root of the green pages branch", setup: greenPages9, steps: []plumbingStep{bashStep(`git rebase -q --onto main --root pages && git switch -q main`)}, expect: stUntouched},
		{name: "control: git show of the green pages commit piped to apply --index, a plain commit", setup: greenPages9, steps: []plumbingStep{bashStep(`git show pages | git apply --index && git commit -q -m "docs: take the page in"`)}, expect: stUntouched},
	}
	runUnseen9(t, rows)
}

// Where the configuration comes from, steered: a registry of its own on
// an orphan root, the default branch named otherwise (init.defaultBranch,
// origin's HEAD, remote set-head, main renamed so master is read, main
// repointed, main replaced), and a default branch that records no
// registry at all. The weak line is a commit of the agent's: it is named
// (gates-config, commit-audit D) right after, whatever line the foreign
// tree then borrows its configuration from. With no default branch to
// lend one, a foreign tree's commit is named as one the gates could not
// judge (fail closed), and a knob the tree carries that sends the hooks
// elsewhere is refused by the hook.
func TestAgentUnseen9Steer(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const cfg = "gates-config"
	rows := []plumbingRow{
		{name: "an orphan root commit with the kit checked out from main and a registry of its own without check-tree-terms, a red page, a plain commit", setup: w7loaded, steps: []plumbingStep{bashStep(orphan9 + `git checkout main -- gate-sdk scripts && printf 'check-commit-subject\n' > scripts/gates.list && ` + page9 + `git add gate-sdk scripts index.html && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: cfg},
		{name: "checkout --orphan keeping the tree, the registry edited to drop check-tree-terms, a red page, a plain commit", setup: w7loaded, steps: []plumbingStep{bashStep(`git checkout -q --orphan pages && sed -i '/check-tree-terms/d' scripts/gates.list && ` + page9 + `git add -A && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: cfg},
		{name: "init.defaultBranch names a weak orphan line, then a red page on pages, a plain commit", setup: w7loaded, steps: []plumbingStep{bashStep(`git config init.defaultBranch weak && ` + weak9 + page9 + `git add index.html && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: cfg},
		{name: "origin's HEAD pointed by symbolic-ref at a weak line pushed there, then a red page on pages", setup: both9(withOrigin, w7loaded), steps: []plumbingStep{bashStep(weak9 + `git push -q origin weak && git fetch -q origin && git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/weak && ` + page9 + `git add index.html && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: cfg},
		{name: "remote set-head origin to a weak line, then a red page on pages, commit -n", setup: both9(withOrigin, w7loaded), steps: []plumbingStep{bashStep(weak9 + `git push -q origin weak && git fetch -q origin && git remote set-head origin weak && ` + page9 + `git add index.html && ` + sh2("docs: start the site"))}, expect: stAfter, gate: cfg},
		{name: "main renamed away so a weak master is read, then a red page on pages", setup: w7loaded, steps: []plumbingStep{bashStep(`git branch -q -m main old && ` + weak9 + `git branch -q -m weak master && ` + page9 + `git add index.html && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: cfg},
		{name: "main repointed at a weak orphan line, then a red page on pages", setup: w7loaded, steps: []plumbingStep{bashStep(weak9 + `git branch -q -f main weak && ` + page9 + `git add index.html && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: cfg},
		{name: "main replaced by a weak orphan commit, then a red page on pages", setup: w7loaded, steps: []plumbingStep{bashStep(weak9 + `git replace main weak && ` + page9 + `git add index.html && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: cfg},
		{name: "a tracked knob file on the pages tree sends the binary to /bin/true, a red page, a plain commit", setup: w7loaded, steps: []plumbingStep{bashStep(orphan9 + `mkdir -p scripts && printf 'GATE_SDK_NATIVE_BIN = /bin/true\n' > scripts/gate-sdk-config.knobs && ` + page9 + `git add scripts index.html && git commit -q -m "docs: start the site"`)}, expect: stHook, gate: "points the hooks at /bin/true"},
		{name: "the pages tree's own pattern list spares the leak, a plain commit", setup: w7loaded, steps: []plumbingStep{bashStep(orphan9 + `mkdir -p scripts && printf '!/ho''me/marta/\n' > scripts/msg-patterns.list && ` + page9 + `git add scripts index.html && git commit -q -m "docs: start the site"`)}, expect: stHook, gate: tt},
		{name: "main renamed and no default branch named, then a red page on an emptied pages branch, commit -n", setup: w7loaded, steps: []plumbingStep{bashStep(`git branch -q -m main trunk && git checkout -q --orphan pages && git rm -q -rf . && ` + page9 + `git add index.html && ` + sh2("docs: start the site"))}, expect: stAfter, gate: "could not judge it"},
		// Controls.
		{name: "control: checkout --orphan keeping the tree and its registry, a green page, a plain commit", setup: w7loaded, steps: []plumbingStep{bashStep(`git checkout -q --orphan pages && printf '<h1>Docs</h1>\n' > index.html && git add -A && git commit -q -m "docs: start the site"`)}, expect: stUntouched},
		{name: "control: origin's default branch renamed to trunk, a pages branch of one green page", setup: both9(withOrigin, w7loaded), steps: []plumbingStep{bashStep(`git branch -q -m main trunk && git push -q -u origin trunk && git remote set-head origin trunk && ` + orphan9 + `printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`)}, expect: stUntouched},
		{name: "control: main renamed to trunk and init.defaultBranch set so, a pages branch of one green page", setup: w7loaded, steps: []plumbingStep{bashStep(`git branch -q -m main trunk && git config init.defaultBranch trunk && ` + orphan9 + `printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`)}, expect: stUntouched},
		{name: "control: a pages tree with build scripts of its own under scripts/, a plain commit", setup: w7loaded, steps: []plumbingStep{bashStep(orphan9 + `mkdir -p scripts && printf '#!/bin/sh\necho build\n' > scripts/build.sh && printf '<h1>Docs</h1>\n' > index.html && git add scripts index.html && git commit -q -m "docs: start the site"`)}, expect: stUntouched},
	}
	runUnseen9(t, rows)
}

// The registry taken away: with the leak, before it, by git mv, by
// emptying it.
func TestAgentUnseen9Registry(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const cfg = "gates-config"
	rows := []plumbingRow{
		{name: "one commit -n deletes the registry and adds a leak", steps: []plumbingStep{bashStep(`git rm -q scripts/gates.list && ` + leakCmd + sh2("docs: add notes"))}, expect: stAfter, gate: cfg},
		{name: "the registry deleted by commit -n, a leak through the hooks in the next call", steps: []plumbingStep{bashStep(`git rm -q scripts/gates.list && ` + sh2("chore: drop the list")), bashStep(leakCmd + `git commit -q -m "docs: add notes"`)}, from: 1, expect: stHook, gate: "no registry at scripts/gates.list"},
		{name: "the registry deleted by commit -n, a leak by commit -n in the same command", steps: []plumbingStep{bashStep(`git rm -q scripts/gates.list && ` + sh2("chore: drop the list") + ` && ` + leakCmd + sh2("docs: add notes"))}, expect: stAfter, gate: tt},
		{name: "git mv of the registry and a leak, commit -n", steps: []plumbingStep{bashStep(`git mv scripts/gates.list scripts/gates.old && ` + leakCmd + sh2("docs: add notes"))}, expect: stAfter, gate: cfg},
		{name: "the registry emptied and a leak, commit -n", steps: []plumbingStep{bashStep(`: > scripts/gates.list && git add scripts/gates.list && ` + leakCmd + sh2("docs: add notes"))}, expect: stAfter, gate: cfg},
		{name: "the registry emptied, then the commit-tree of a leak on it", steps: []plumbingStep{bashStep(`: > scripts/gates.list && git add scripts/gates.list && ` + sh2("chore: empty the list") + ` && ` + leakCmd + commitTree + `git merge -q --ff-only $c`)}, expect: stAfter, gate: tt},
		// Controls.
		{name: "control: the registry's lines reordered with a comment, a plain commit", steps: []plumbingStep{bashStep(`printf '# the gates\ncheck-commit-msg\ncheck-commit-subject\ncheck-tree-terms\n' > scripts/gates.list && git add scripts/gates.list && git commit -q -m "chore: order the list"`)}, expect: stUntouched},
	}
	runUnseen9(t, rows)
}

// A workflow on a pages branch: GitHub runs a pushed branch's workflows
// whatever else it holds, so the workflow gates the default branch
// registers judge it there.
func TestAgentUnseen9Workflows(t *testing.T) {
	t.Parallel()
	const pin = "check-action-pinning"
	pinned := pre9(`printf 'check-action-pinning\n' >> scripts/gates.list && git add scripts/gates.list && ` + sh2("ci: pin the actions"))
	const wf = `mkdir -p .github/workflows && printf 'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@%s\n' `
	const loose = wf + `v4 > .github/workflows/pages.yml && `
	const tight = wf + `0123456789abcdef0123456789abcdef01234567 > .github/workflows/pages.yml && `
	rows := []plumbingRow{
		{name: "an unpinned workflow on a pages branch, a plain commit", setup: both9(pinned, w7loaded), steps: []plumbingStep{bashStep(orphan9 + loose + `printf '<h1>Docs</h1>\n' > index.html && git add .github index.html && git commit -q -m "ci: deploy the pages"`)}, expect: stHook, gate: pin},
		{name: "an unpinned workflow on a pages branch, commit -n", setup: both9(pinned, w7loaded), steps: []plumbingStep{bashStep(orphan9 + loose + `printf '<h1>Docs</h1>\n' > index.html && git add .github index.html && ` + sh2("ci: deploy the pages"))}, expect: stAfter, gate: pin},
		{name: "an unpinned workflow on a pages branch by commit-tree and update-ref", setup: pinned, steps: []plumbingStep{bashStep(`t=$(git mktree </dev/null) && w=$(printf 'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n' | git hash-object -w --stdin) && wt=$(printf '100644 blob %s\tpages.yml\n' $w | git mktree) && gt=$(printf '040000 tree %s\tworkflows\n' $wt | git mktree) && rt=$(printf '040000 tree %s\t.github\n' $gt | git mktree) && git update-ref refs/heads/pages $(git commit-tree -m "ci: deploy the pages" $rt)`)}, expect: stAfter, gate: pin},
		// Controls.
		{name: "control: a pinned workflow on a pages branch, a plain commit", setup: both9(pinned, w7loaded), steps: []plumbingStep{bashStep(orphan9 + tight + `printf '<h1>Docs</h1>\n' > index.html && git add .github index.html && git commit -q -m "ci: deploy the pages"`)}, expect: stUntouched},
	}
	runUnseen9(t, rows)
}

// An orphan work tree kept across calls: a second orphan switch carries
// an uncommitted leak, a stash carries it to main, the empty tree's
// commit names a branch, a linked worktree of an orphan.
func TestAgentUnseen9Kept(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	rows := []plumbingRow{
		{name: "a red page left uncommitted on one orphan branch, switch --orphan again, commit -n there", setup: w7loaded, steps: []plumbingStep{
			bashStep(`git switch -q --orphan p1 && git rm -q -rf --cached . 2>/dev/null; ` + page9 + `true`),
			bashStep(`git switch -q --orphan p2 && git add index.html && ` + sh2("docs: start the site")),
		}, expect: stAfter, gate: tt},
		{name: "a red note stashed on a pages branch, popped on main, commit -n", setup: w7loaded, steps: []plumbingStep{
			bashStep(orphan9 + `printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`),
			bashStep(`printf '%s\n' ` + leak9 + ` > note.md && git stash -q -u && git switch -q main && git stash pop -q && git add note.md && ` + sh2("docs: add a note")),
		}, from: 1, expect: stAfter, gate: tt},
		{name: "commit-tree of the empty tree with a refused subject, kept on a branch", steps: []plumbingStep{bashStep(`git branch -q empty $(git commit-tree -m "wip stuff" $(git mktree </dev/null))`)}, expect: stAfter, gate: subj},
		{name: "commit-tree of a root tree holding only a red page, kept on a branch", steps: []plumbingStep{bashStep(`b=$(printf '%s\n' ` + leak9 + ` | git hash-object -w --stdin) && t=$(printf '100644 blob %s\tindex.html\n' $b | git mktree) && git branch -q pages $(git commit-tree -m "docs: start the site" $t)`)}, expect: stAfter, gate: tt},
		{name: "a linked worktree turned orphan, a red page committed there with commit -n", steps: []plumbingStep{
			bashStep(`git worktree add -q --detach ../site && cd ../site && git checkout -q --orphan site && git rm -q -rf .`),
			bashStep(`cd ../site && ` + page9 + `git add index.html && ` + sh2("docs: start the site")),
		}, from: 1, expect: stAfter, gate: tt},
		{name: "a linked worktree turned orphan, a red page committed there through the hooks", steps: []plumbingStep{
			bashStep(`git worktree add -q --detach ../site && cd ../site && git checkout -q --orphan site && git rm -q -rf .`),
			bashStep(`cd ../site && ` + page9 + `git add index.html && git commit -q -m "docs: start the site"`),
		}, from: 1, expect: stHook, gate: tt},
		{name: "an orphan pages branch kept across calls, a refused subject by commit -n on its second commit", setup: w7loaded, steps: []plumbingStep{
			bashStep(orphan9 + `printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`),
			bashStep(`printf 'More.\n' >> index.html && echo 'git commit -q -n -am "wip stuff"' | sh`),
		}, from: 1, expect: stAfter, gate: subj},
		// Controls.
		{name: "control: a green page left uncommitted on one orphan branch, switch --orphan again, committed there", setup: w7loaded, steps: []plumbingStep{
			bashStep(`git switch -q --orphan p1 && git rm -q -rf --cached . 2>/dev/null; printf '<h1>Docs</h1>\n' > index.html`),
			bashStep(`git switch -q --orphan p2 && git add index.html && git commit -q -m "docs: start the site"`),
			{stop: true},
		}, expect: stUntouched},
		{name: "control: a green draft stashed on a pages branch, popped and committed there", setup: w7loaded, steps: []plumbingStep{
			bashStep(orphan9 + `printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`),
			bashStep(`printf 'Draft.\n' > draft.md && git stash -q -u && git stash pop -q && git add draft.md && git commit -q -m "docs: a draft page"`),
			{stop: true},
		}, expect: stUntouched},
		{name: "control: commit-tree of the empty tree with a clean subject, kept on a branch", steps: []plumbingStep{bashStep(`git branch -q empty $(git commit-tree -m "chore: mark the start" $(git mktree </dev/null))`)}, expect: stUntouched},
		{name: "control: a linked worktree turned orphan, a green page committed there, removed", steps: []plumbingStep{
			bashStep(`git worktree add -q --detach ../site && cd ../site && git checkout -q --orphan site && git rm -q -rf .`),
			bashStep(`cd ../site && printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`),
			{stop: true},
			bashStep(`git worktree remove --force ../site`),
		}, expect: stUntouched},
	}
	runUnseen9(t, rows)
}

// More of the same surface: a foreign tree's message, an amend on a
// pages root, a detached HEAD at the commit from before the adoption,
// main merged into a pages branch, the clone's private list on a pages
// branch, prune dirs added to the tracked knob file, and a weak line
// whose every comparable branch is taken away in the same command.
func TestAgentUnseen9More(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const cm = "check-commit-msg"
	const cfg = "gates-config"
	const greenPage = `printf '<h1>Docs</h1>\n' > index.html && git add index.html && `
	const homeBody = `printf 'docs: start the site\n\nBuilt in /ho''me/marta/site.\n'`
	private := pre9(`printf 'zanzibar-project\n' > scripts/msg-patterns.local.list`)
	rows := []plumbingRow{
		{name: "a home path in the message body of a pages root commit, through the hooks", setup: w7loaded, steps: []plumbingStep{bashStep(orphan9 + greenPage + homeBody + ` | git commit -q -F -`)}, expect: stHook, gate: cm},
		{name: "a home path in the message body of a pages root commit, commit -n through sh", setup: w7loaded, steps: []plumbingStep{bashStep(orphan9 + greenPage + homeBody + ` > ../msg && echo 'git commit -q -n -F ../msg' | sh`)}, expect: stAfter, gate: cm},
		{name: "amend of a green pages root commit that adds a leak, through the hooks", setup: w7loaded, steps: []plumbingStep{
			bashStep(orphan9 + greenPage + `git commit -q -m "docs: start the site"`),
			bashStep(page9 + `git add index.html && git commit -q --amend --no-edit`),
		}, from: 1, expect: stHook, gate: tt},
		{name: "amend of a green pages root commit that adds a leak, commit -n through sh", setup: w7loaded, steps: []plumbingStep{
			bashStep(orphan9 + greenPage + `git commit -q -m "docs: start the site"`),
			bashStep(page9 + `git add index.html && echo 'git commit -q -n --amend --no-edit' | sh`),
		}, from: 1, expect: stAfter, gate: tt},
		{name: "a detached HEAD at the commit from before the adoption, a leak through the hooks", setup: w7loaded, steps: []plumbingStep{bashStep(`git checkout -q --detach "$(git rev-list --max-parents=0 HEAD)" && ` + leakCmd + `git commit -q -m "docs: add notes"`)}, expect: stHook, gate: tt},
		{name: "a detached HEAD at the commit from before the adoption, a leak by commit -n through sh, kept on a branch", setup: w7loaded, steps: []plumbingStep{bashStep(`git checkout -q --detach "$(git rev-list --max-parents=0 HEAD)" && ` + leakCmd + sh2("docs: add notes") + ` && git branch -q old-notes && git switch -q -f main`)}, expect: stAfter, gate: tt},
		{name: "the clone's private term on a pages page, through the hooks", setup: both9(private, w7loaded), steps: []plumbingStep{bashStep(orphan9 + `printf 'Notes for zanzibar-project.\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`)}, expect: stHook, gate: tt},
		{name: "prune of docs added to the tracked knob file with a leak in docs, a plain commit", steps: []plumbingStep{bashStep(`printf 'GATE_SDK_PRUNE_EXTRA_DIRS = docs\n' >> scripts/gate-sdk-config.knobs && git add scripts && ` + leakCmd + `git commit -q -m "docs: add notes"`)}, expect: stAfter, gate: cfg},
		{name: "main repointed at a weak orphan line and side deleted, then a red page on pages", setup: w7loaded, steps: []plumbingStep{bashStep(weak9 + `git branch -q -f main weak && git branch -q -D side && ` + page9 + `git add index.html && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: cfg},
		// Controls.
		{name: "control: main merged into a pages branch with --allow-unrelated-histories", setup: both9(greenPages9, w7loaded), steps: []plumbingStep{bashStep(`git switch -q pages && git merge -q --allow-unrelated-histories -m "docs: take the project in" main && git switch -q main`)}, expect: stUntouched},
		{name: "control: a detached HEAD at the commit from before the adoption, a green fix, back to main", setup: w7loaded, steps: []plumbingStep{bashStep(`git checkout -q --detach "$(git rev-list --max-parents=0 HEAD)" && printf 'Fixed.\n' > docs/guide.md && git commit -q -am "docs: fix the guide on the old line" && git branch -q old-fix && git switch -q -f main`), {stop: true}}, expect: stUntouched},
		{name: "control: a green pages root commit amended through the hooks", setup: w7loaded, steps: []plumbingStep{
			bashStep(orphan9 + greenPage + `git commit -q -m "docs: start the site"`),
			bashStep(`printf 'More.\n' >> index.html && git commit -q -a --amend --no-edit`),
			{stop: true},
		}, expect: stUntouched},
		{name: "control: the clone's private list kept, a green pages page through the hooks", setup: both9(private, w7loaded), steps: []plumbingStep{bashStep(orphan9 + greenPage + `git commit -q -m "docs: start the site"`)}, expect: stUntouched},
		{name: "control: prune of an untracked build dir added to the tracked knob file, a plain commit", steps: []plumbingStep{bashStep(`printf 'GATE_SDK_PRUNE_EXTRA_DIRS = dist\n' >> scripts/gate-sdk-config.knobs && git add scripts && git commit -q -m "chore: prune the build output"`)}, expect: stUntouched},
	}
	runUnseen9(t, rows)
}

// legacy9 gives the clone, before the session, a branch legacy whose
// registry leaves check-tree-terms out (a line from before the gate was
// registered, the person's own).
var legacy9 = pre9(`git switch -q -c legacy && sed -i '/check-tree-terms/d' scripts/gates.list && git commit -q -n -am "chore: an older battery" && git switch -q main`)

// The default branch steered at a line the person made before the
// session, whose registry leaves a gate out: nothing of the agent's is
// weak, so only where the configuration is read from decides.
func TestAgentUnseen9Legacy(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	rows := []plumbingRow{
		{name: "init.defaultBranch names a legacy line without check-tree-terms, then a red page on pages, a plain commit", setup: both9(legacy9, w7loaded), steps: []plumbingStep{bashStep(`git config init.defaultBranch legacy && ` + orphan9 + page9 + `git add index.html && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: tt},
		{name: "git -c init.defaultBranch names a legacy line for one commit of a red page on pages", setup: both9(legacy9, w7loaded), steps: []plumbingStep{bashStep(orphan9 + page9 + `git add index.html && git -c init.defaultBranch=legacy commit -q -m "docs: start the site"`)}, expect: stAfter, gate: tt},
		{name: "origin's HEAD set to a legacy line by remote set-head, then a red page on pages, a plain commit", setup: both9(both9(legacy9, withOrigin), w7loaded), steps: []plumbingStep{bashStep(`git push -q origin legacy && git remote set-head origin legacy && ` + orphan9 + page9 + `git add index.html && git commit -q -m "docs: start the site"`)}, expect: stAfter, gate: tt},
		// Controls.
		{name: "control: init.defaultBranch names main, a pages branch of one green page", setup: both9(legacy9, w7loaded), steps: []plumbingStep{bashStep(`git config init.defaultBranch main && ` + orphan9 + `printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`)}, expect: stUntouched},
	}
	runUnseen9(t, rows)
}
