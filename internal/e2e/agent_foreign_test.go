package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// Foreign trees (§commit-audit C): a tree that records no registry over a
// first parent recording none — a pages branch, a fix on a line from
// before the adoption — is judged by the gates that need no layout, with
// the default branch's configuration, by the placed hooks and by the
// judge after the call alike. Ordinary work there passes untouched (these
// rows were TestAgentWork5Limits and TestAgentWork7Limits: the hook
// refused each with `no registry at scripts/gates.list`); a leak or a
// subject the project's rule refuses is refused by the hook, or named
// right after where it landed past it. Decision (issue 41 acceptance,
// stop 55).
func TestAgentForeignTrees(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	const leakPage = `printf 'Keep notes in /ho''me/marta/notes.\n' > index.html && `
	rows := []plumbingRow{
		// Ordinary work.
		{name: "a gh-pages branch begun by checkout --orphan and rm -rf ., built, committed, pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git checkout -q --orphan gh-pages && git rm -q -rf . && mkdir -p css && printf '<h1>Docs</h1>\n' > index.html && printf 'body{}\n' > css/site.css && : > .nojekyll && git add index.html css .nojekyll && git commit -q -m "docs: build the site"; rc=$?; [ $rc = 0 ] && git push -q origin gh-pages; git checkout -q -f main && rm -rf css index.html .nojekyll; exit $rc`),
			{stop: true},
		}, expect: stUntouched},
		{name: "a gh-pages branch begun by switch --orphan, two commits, pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git switch -q --orphan gh-pages && printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site" && printf 'body{}\n' > site.css && git add site.css && git commit -q -m "docs: a stylesheet"; rc=$?; [ $rc = 0 ] && git push -q origin gh-pages; git switch -q -f main && rm -f index.html site.css; exit $rc`),
			{stop: true},
		}, expect: stUntouched},
		{name: "an orphan docs branch begun by switch --orphan, a plain commit", steps: []plumbingStep{
			bashStep(`git switch -q --orphan gh-pages && printf 'Pages.\n' > index.html && git add index.html && git commit -q -m "docs: start the site"; rc=$?; rm -f index.html; git switch -q -f main; exit $rc`),
			{stop: true},
		}, expect: stUntouched},
		{name: "a pages branch begun by checkout --orphan and rm -r --cached, the project's files left on disk", steps: []plumbingStep{
			bashStep(`git checkout -q --orphan pages && git rm -q -r --cached . && printf 'Pages.\n' > index.html && git add index.html && git commit -q -m "docs: start the pages"; rc=$?; git checkout -q -f main && rm -f index.html; exit $rc`),
			{stop: true},
		}, expect: stUntouched},
		{name: "a worktree of a commit from before the adoption, a fix committed there", steps: []plumbingStep{
			bashStep(`git worktree add -q -b old-fix ../old "$(git rev-list --max-parents=0 HEAD)" && cd ../old && printf 'Fixed.\n' > docs/guide.md && git commit -q -am "docs: fix the guide on the old line"`),
			bashStep(`git worktree remove --force ../old`),
			{stop: true},
		}, expect: stUntouched},
		{name: "a pages worktree of an orphan branch, two commits over two calls, pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git worktree add -q --orphan -b gh-pages ../site 2>/dev/null || { git worktree add -q --detach ../site && cd ../site && git checkout -q --orphan gh-pages && git rm -q -rf .; }`),
			bashStep(`cd ../site && printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`),
			bashStep(`cd ../site && printf 'body{}\n' > site.css && git add site.css && git commit -q -m "docs: a stylesheet" && git push -q origin gh-pages`),
			{stop: true},
			bashStep(`git worktree remove --force ../site`),
		}, expect: stUntouched},

		// Red twins: the project's rules still hold there.
		{name: "a leak on a pages branch begun by switch --orphan", steps: []plumbingStep{
			bashStep(`git switch -q --orphan gh-pages && ` + leakPage + `git add index.html && git commit -q -m "docs: start the site"; rc=$?; rm -f index.html; git switch -q -f main; exit $rc`),
		}, expect: stHook, gate: tt},
		{name: "a subject outside the project's rule on a pages branch", steps: []plumbingStep{
			bashStep(`git switch -q --orphan gh-pages && printf 'Pages.\n' > index.html && git add index.html && git commit -q -m "Start the site"; rc=$?; rm -f index.html; git switch -q -f main; exit $rc`),
		}, expect: stBefore, gate: subj},
		{name: "a leak committed past the hooks on a pages branch is named after", steps: []plumbingStep{
			bashStep(`git checkout -q --orphan pages && git rm -q -rf . && ` + leakPage + `git add index.html && ` + sh2("docs: start the pages") + `; git checkout -q -f main`),
			{remedy: true},
		}, expect: stAfter, gate: tt},
		{name: "a leak in a fix on a line from before the adoption", steps: []plumbingStep{
			bashStep(`git worktree add -q -b old-fix ../old "$(git rev-list --max-parents=0 HEAD)" && cd ../old && printf 'Keep notes in /ho''me/marta/notes.\n' > docs/guide.md && git commit -q -am "docs: fix the guide on the old line"`),
		}, expect: stHook, gate: tt},
	}
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playPlumbingRow(t, r)
			t.Logf("FOREIGN | %s | %s | %s", r.name, r.expect, got)
			if r.expect == stUntouched && got != stUntouched || got > r.expect || got == stMissed {
				t.Errorf("%s: want %s, got %s\n%s", r.name, r.expect, got, log)
			}
			// The hook's refusal is the project's rule, not a registry it
			// could not find.
			if got == stHook && (!strings.Contains(log, r.gate) || strings.Contains(log, "no registry")) {
				t.Errorf("%s: the hook refused, but not by %s:\n%s", r.name, r.gate, log)
			}
		})
	}
}

// foreignLimits are foreign-tree work the agent hooks still get in the
// way of, each a limit written in kits/gate-sdk/SPEC.md (§commit-audit C):
// a pages branch kept checked out in the session's own work tree across
// calls takes the harness settings and the registry off the disk, so the
// audit says the settings are gone and a Stop there is held once for
// gates that cannot run. The commits themselves pass their hooks. Played
// with the right expectation, reported with t.Log, failed once they stop
// missing so the list cannot go stale.
var foreignLimits = []plumbingRow{
	{name: "a pages branch kept checked out across a Stop", setup: w7loaded, steps: []plumbingStep{
		bashStep(`git switch -q --orphan gh-pages`),
		bashStep(`printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`),
		{stop: true},
		bashStep(`printf 'More.\n' >> index.html`),
		{stop: true},
		bashStep(`git commit -q -am "docs: more of the site" && git switch -q main`),
		{stop: true},
	}, expect: stUntouched},
}

func TestAgentForeignTreeLimits(t *testing.T) {
	t.Parallel()
	for _, r := range foreignLimits {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playPlumbingRow(t, r)
			t.Logf("LIMIT | %s | passes untouched | %s", r.name, got)
			if got == stUntouched {
				t.Errorf("%s: written as a limit, and it no longer misses: take it out of foreignLimits and out of the SPEC's limit\n%s", r.name, log)
			}
		})
	}
}

// A commit that takes the registry out of a tree that held it is not
// foreign: the hook still refuses it, with its reason, and the default
// branch lends it nothing (§commit-audit C).
func TestHookRefusesACommitThatDropsTheRegistry(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "drops the registry")
	cmd := exec.Command("bash", "-c", `git rm -q scripts/gates.list && git commit -q -m "chore: drop the registry"`)
	cmd.Dir, cmd.Env = p.dir, p.env
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the commit dropping the registry landed:\n%s", out)
	}
	if !strings.Contains(string(out), "no registry at scripts/gates.list") || strings.Contains(string(out), "need no layout") {
		t.Fatalf("refused for another reason than the missing registry:\n%s", out)
	}
}
