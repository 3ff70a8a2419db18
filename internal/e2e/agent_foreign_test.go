package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
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

		{name: "a pages branch kept checked out across a Stop", setup: w7loaded, steps: []plumbingStep{
			bashStep(`git switch -q --orphan gh-pages`),
			bashStep(`printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`),
			{stop: true},
			bashStep(`printf 'More.\n' >> index.html`),
			{stop: true},
			bashStep(`git commit -q -am "docs: more of the site" && git switch -q main`),
			{stop: true},
		}, expect: stUntouched},
		{name: "a pages branch checked out across calls, a page written with the Write tool, a Stop before the commit", setup: w7loaded, steps: []plumbingStep{
			bashStep(`git switch -q --orphan gh-pages`),
			{write: "index.html", body: "<h1>Docs</h1>\n"},
			{stop: true},
			bashStep(`git add index.html && git commit -q -m "docs: start the site" && git switch -q main`),
			{stop: true},
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

// An uncommitted leak on a pages branch checked out across calls is told
// to the model: an edit right after it, a Stop before it is committed
// (edit-gates P, stop-gates R: the members that need no layout, with the
// default branch's configuration).
func TestAgentForeignWorkTreeUncommitted(t *testing.T) {
	t.Parallel()
	leak := "Keep notes in /ho" + "me/marta/notes.\n"
	t.Run("written with the Write tool", func(t *testing.T) {
		t.Parallel()
		p := outcomeClone(t, "foreign write")
		p.env = append(p.env, "CLAUDECODE=1")
		w7loaded(p)
		p.bashQuiet("git switch -q --orphan gh-pages")
		path := filepath.Join(p.dir, "notes.html")
		in := map[string]any{"tool_input": map[string]any{"file_path": path, "content": leak}}
		if _, refusal, other := words2(p.fire("PreToolUse", "Write", in)); refusal+other != "" {
			t.Fatalf("the Write was answered before it ran: %s%s", refusal, other)
		}
		if err := os.WriteFile(path, []byte(leak), 0o644); err != nil {
			t.Fatal(err)
		}
		reason, _, _ := words2(p.fire("PostToolUse", "Write", in))
		if !strings.Contains(reason, "check-tree-terms") || !strings.Contains(reason, "notes.html:1:") {
			t.Fatalf("the edit's leak was not told:\n%s", reason)
		}
	})
	t.Run("left for a Stop", func(t *testing.T) {
		t.Parallel()
		p := outcomeClone(t, "foreign stop")
		p.env = append(p.env, "CLAUDECODE=1")
		w7loaded(p)
		p.bashQuiet(`git switch -q --orphan gh-pages && printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"`)
		p.bashQuiet(`printf '` + strings.TrimSuffix(leak, "\n") + `\n' >> index.html`)
		reason, _, _ := words2(p.fire("Stop", "", map[string]any{"stop_hook_active": false}))
		if !strings.Contains(reason, "check-tree-terms") || !strings.Contains(reason, "index.html:2:") {
			t.Fatalf("the Stop did not hold for the uncommitted leak:\n%s", reason)
		}
	})
}

// A sparse checkout kept across calls with the gates dir off the disk:
// the agent hooks read the registry, knobs and declarations as the index
// records them, as the git hooks do, so an edit and a Stop there are
// judged (§edit-gates P, §stop-gates R). Decision (issue 41, stop 55): both
// told the model the gates could not run, and the Stop was held.
func TestAgentSparseGatesDirOffTheDisk(t *testing.T) {
	t.Parallel()
	leak := "Keep notes in /ho" + "me/marta/notes.\n"
	for _, c := range []struct {
		name, body string
		red        bool
	}{
		{"a green page", "A sparse page.\n", false},
		{"a leak", leak, true},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "sparse "+c.name)
			p.env = append(p.env, "CLAUDECODE=1")
			w7loaded(p)
			p.bashQuiet(`git update-index -q --refresh; git sparse-checkout set --no-cone '/docs/' '/README.md' && test ! -e scripts/gates.list`)
			path := filepath.Join(p.dir, "docs", "sparse.md")
			in := map[string]any{"tool_input": map[string]any{"file_path": path, "content": c.body}}
			if _, refusal, other := words2(p.fire("PreToolUse", "Write", in)); refusal+other != "" {
				t.Fatalf("the Write was answered before it ran: %s%s", refusal, other)
			}
			if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			after, refusal, other := words2(p.fire("PostToolUse", "Write", in))
			stop, srefusal, sother := words2(p.fire("Stop", "", map[string]any{"stop_hook_active": false}))
			if !c.red {
				if w := strings.TrimSpace(after + refusal + other + stop + srefusal + sother); w != "" {
					t.Fatalf("ordinary work in a sparse checkout was answered: %s", w)
				}
				return
			}
			for what, reason := range map[string]string{"the edit": after, "the Stop": stop} {
				if !strings.Contains(reason, "check-tree-terms") || !strings.Contains(reason, "docs/sparse.md:1:") {
					t.Errorf("%s did not name the leak:\n%s%s%s%s", what, reason, refusal, other, sother)
				}
			}
		})
	}
}
