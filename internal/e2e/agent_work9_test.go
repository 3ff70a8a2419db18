package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 41's acceptance, a ninth round on the side of "none is blocked":
// ordinary flows around trees that hold none of the project's layout
// (§commit-audit C's foreign trees) and history that crosses the
// adoption, none played by an earlier table in these spellings — a docs
// deploy the way ghp-import and mkdocs gh-deploy make it (one commit on
// gh-pages written by fast-import, no checkout, then pushed, --force the
// second time), a deploy by an index of its own and commit-tree, a pages
// branch a colleague began fetched and worked on in a worktree or by
// switching to it with the default branch's work stashed, a release line
// cut from a tag older than the adoption with a range of fixes picked
// onto it, bisect over history from before the adoption (run by a
// script, and by hand across a Stop), fixups autosquashed with a stacked
// branch moved by --update-refs, a merge reverted with -m 1, notes kept
// in two refs and pushed, trailers written by interpret-trailers, and a
// worktree per feature with a Stop after each. Each must pass untouched:
// no block, no reason, a quiet Stop, nothing red on the status line. The
// red controls beside them are named.

// w9ghpImport writes ../ghp-import.sh: ghp-import's way of deploying a
// built directory, one commit on refs/heads/gh-pages by fast-import whose
// tree is the directory alone (deleteall), on top of the local branch, or
// else origin's, when there is one; no checkout, no index, no hook.
const w9ghpImport = `cat > ../ghp-import.sh <<'EOF'
#!/bin/sh
dir=$1; msg=$2; br=refs/heads/gh-pages
parent=$(git rev-parse -q --verify "$br^{commit}" || git rev-parse -q --verify "refs/remotes/origin/gh-pages^{commit}")
{
  printf 'commit %s\n' "$br"
  printf 'committer %s\n' "$(git var GIT_COMMITTER_IDENT)"
  printf 'data %d\n%s\n' $(( $(printf '%s' "$msg" | wc -c) + 1 )) "$msg"
  [ -n "$parent" ] && printf 'from %s\n' "$parent"
  printf 'deleteall\n'
  (cd "$dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) | while read -r f; do
    printf 'M 100644 inline %s\ndata %d\n' "$f" "$(wc -c < "$dir/$f")"
    cat "$dir/$f"
    printf '\n'
  done
} | git fast-import --quiet --date-format=raw
EOF
chmod +x ../ghp-import.sh && `

// w9build "builds" the site from docs/ into the ignored site/ directory,
// as mkdocs build does.
const w9build = `grep -qx 'site/' .gitignore || { printf 'site/\n' >> .gitignore && git commit -q -am "build: ignore the built site"; }; ` +
	`rm -rf site && mkdir -p site/css && for f in docs/*.md; do b=$(basename "$f" .md); { printf '<html><body>\n'; sed 's/^/<p>/' "$f"; printf '</body></html>\n'; } > "site/$b.html"; done && ` +
	`printf 'body{}\n' > site/css/site.css && : > site/.nojekyll && printf 'docs.example.invalid\n' > site/CNAME && `

// w9colleaguePages has the colleague begin a gh-pages branch on origin, an
// orphan of one page, past any hook.
func w9colleaguePages(p *player) { w9colleaguePagesWith(p, "<h1>Docs</h1>\n") }

// w9colleaguePagesWith is w9colleaguePages with the page's body.
func w9colleaguePagesWith(p *player, body string) {
	p.t.Helper()
	tmp := w5colleagueClone(p)
	env := w5env(p)
	run(p.t, tmp, env, "git", "checkout", "-q", "--orphan", "gh-pages")
	run(p.t, tmp, env, "git", "rm", "-q", "-rf", ".")
	os.WriteFile(filepath.Join(tmp, "index.html"), []byte(body), 0o644)
	run(p.t, tmp, env, "git", "add", "index.html")
	if r := run(p.t, tmp, env, "git", "commit", "-q", "-n", "-m", "docs: begin the site"); r.code != 0 {
		p.t.Fatalf("colleague pages commit: %s%s", r.stdout, r.stderr)
	}
	if r := run(p.t, tmp, env, "git", "push", "-q", "--no-verify", "origin", "gh-pages"); r.code != 0 {
		p.t.Fatalf("colleague pages push: %s", r.stderr)
	}
	run(p.t, tmp, env, "git", "checkout", "-q", "-f", "main")
}

// w9oldTag tags the commit from before the adoption v0.9.0 (annotated),
// gives the clone an origin, and lets the session load its settings from
// the start (a checkout of the old line takes them off the disk).
func w9oldTag(p *player) {
	p.t.Helper()
	p.git("tag", "-a", "v0.9.0", "-m", "Release 0.9.0", p.git("rev-list", "--max-parents=0", "HEAD"))
	withOrigin(p)
	w7loaded(p)
}

// w9oldLine gives the clone history from before the adoption: a
// maintenance line of three commits grown on the first commit, merged
// into main past the hooks (as it was, long ago), and an origin.
func w9oldLine(p *player) {
	p.t.Helper()
	root := p.git("rev-list", "--max-parents=0", "HEAD")
	p.git("checkout", "-q", "-b", "old", root)
	for i, body := range []string{"Old one.\n", "Old two.\n", "Old three.\n"} {
		rel := filepath.Join("docs", "old"+string(rune('1'+i))+".md")
		os.WriteFile(filepath.Join(p.dir, rel), []byte(body), 0o644)
		p.git("add", rel)
		p.git("commit", "-q", "-n", "-m", "docs: old page "+string(rune('1'+i)))
	}
	p.git("checkout", "-q", "main")
	p.git("merge", "-q", "--no-ff", "--no-verify", "-m", "Merge the old line", "old")
	p.git("branch", "-q", "-D", "old")
	withOrigin(p)
	w7loaded(p)
}

// w9originLoaded gives the clone an origin and lets the session load its
// settings from the start (a checkout of a pages branch takes them off the
// disk for a while).
func w9originLoaded(p *player) {
	withOrigin(p)
	w7loaded(p)
}

// w9pagesOrigin gives the clone an origin holding a colleague's gh-pages.
func w9pagesOrigin(p *player) {
	p.t.Helper()
	withOrigin(p)
	w9colleaguePages(p)
	w7loaded(p)
}

// w9colleaguePagesMore has the colleague add a page to origin's gh-pages,
// past any hook.
func w9colleaguePagesMore(p *player) {
	p.t.Helper()
	tmp := filepath.Join(filepath.Dir(p.dir), "colleague5")
	env := w5env(p)
	run(p.t, tmp, env, "git", "checkout", "-q", "gh-pages")
	run(p.t, tmp, env, "git", "pull", "-q", "--rebase", "origin", "gh-pages")
	os.WriteFile(filepath.Join(tmp, "team.html"), []byte("<p>The team.</p>\n"), 0o644)
	run(p.t, tmp, env, "git", "add", "team.html")
	if r := run(p.t, tmp, env, "git", "commit", "-q", "-n", "-m", "docs: a team page"); r.code != 0 {
		p.t.Fatalf("colleague pages commit: %s%s", r.stdout, r.stderr)
	}
	if r := run(p.t, tmp, env, "git", "push", "-q", "--no-verify", "origin", "gh-pages"); r.code != 0 {
		p.t.Fatalf("colleague pages push: %s", r.stderr)
	}
	run(p.t, tmp, env, "git", "checkout", "-q", "-f", "main")
}

func w9deploys() []plumbingRow {
	return []plumbingRow{
		{name: "ghp-import's way: the site built, one commit on gh-pages by fast-import, pushed; a second deploy on top, pushed --force", setup: withOrigin, steps: []plumbingStep{
			bashStep(w9ghpImport + w9build + `../ghp-import.sh site "docs: deploy $(git rev-parse --short HEAD)" && git push -q origin gh-pages && git ls-tree -r --name-only gh-pages | grep -qx CNAME`),
			{stop: true},
			bashStep(`printf 'A new page.\n' > docs/new.md && git add docs/new.md && git commit -q -m "docs: a new page" && git push -q origin main`),
			bashStep(w9build + `../ghp-import.sh site "docs: deploy $(git rev-parse --short HEAD)" && git push -q -f origin gh-pages && git log --oneline gh-pages | wc -l | grep -qx 2`),
			{stop: true},
		}},
		{name: "mkdocs gh-deploy's way over a colleague's gh-pages: fetch, fast-import on origin's tip, push", setup: w9pagesOrigin, steps: []plumbingStep{
			bashStep(`git fetch -q origin gh-pages && git rev-parse -q --verify refs/remotes/origin/gh-pages >/dev/null`),
			bashStep(w9ghpImport + w9build + `../ghp-import.sh site "docs: deploy $(git rev-parse --short HEAD) with the docs builder" && git push -q origin gh-pages && git log --format=%an gh-pages | sort -u | wc -l | grep -qx 2`),
			{stop: true},
		}},
		{name: "a deploy by an index of its own and commit-tree, no checkout, update-ref and push; again on top", setup: withOrigin, steps: []plumbingStep{
			bashStep(w9build + `i=$(cd .. && pwd)/pages.idx && GIT_INDEX_FILE="$i" git --work-tree=site add -A && t=$(GIT_INDEX_FILE="$i" git write-tree) && c=$(git commit-tree -m "docs: deploy the site" $t) && git update-ref refs/heads/gh-pages $c && git ls-tree -r --name-only gh-pages | grep -qx CNAME && git push -q origin gh-pages && rm -f "$i"`),
			{stop: true},
			bashStep(`printf 'Newer.\n' >> docs/guide.md && git commit -q -am "docs: a newer guide" && ` + w9build + `i=$(cd .. && pwd)/pages.idx && GIT_INDEX_FILE="$i" git --work-tree=site add -A && t=$(GIT_INDEX_FILE="$i" git write-tree) && c=$(git commit-tree -p gh-pages -m "docs: deploy the site again" $t) && git update-ref refs/heads/gh-pages $c gh-pages^0 && git push -q origin main gh-pages && rm -f "$i"`),
			{stop: true},
		}},
		{name: "a colleague's gh-pages fetched and taken in a worktree by its name, a page committed there, a Stop, pushed, removed", setup: w9pagesOrigin, steps: []plumbingStep{
			bashStep(`git fetch -q && git worktree add -q ../site gh-pages && git -C ../site rev-parse --abbrev-ref @{u}`),
			bashStep(`cd ../site && printf '<p>About.</p>\n' > about.html && git add about.html && git commit -q -m "docs: an about page"`),
			{stop: true},
			bashStep(`cd ../site && git pull -q --rebase && git push -q && cd - >/dev/null && git worktree remove ../site && git branch -vv | grep -q gh-pages`),
			{stop: true},
		}},
		{name: "main's work stashed, a colleague's gh-pages switched to and updated, pushed, back to main, the stash popped and committed", setup: w9pagesOrigin, steps: []plumbingStep{
			bashStep(`printf 'Half a thought.\n' >> docs/guide.md && git stash push -q -m wip && git fetch -q && git switch -q gh-pages && ls`),
			bashStep(`printf '<p>News.</p>\n' > news.html && git add news.html && git commit -q -m "docs: a news page" && git push -q origin gh-pages`),
			{stop: true},
			bashStep(`git switch -q main && git stash pop -q && git commit -q -am "docs: the thought finished" && git push -q`),
			{stop: true},
		}},
		{name: "back and forth between main and an orphan pages branch, a new page stashed with -u, switch - each way", setup: w7loaded, steps: []plumbingStep{
			bashStep(`git switch -q --orphan pages && printf 'Pages.\n' > index.html && git add index.html && git commit -q -m "docs: begin the pages" && git switch -q main`),
			bashStep(`printf 'Draft.\n' > docs/draft.md && git stash push -q -u -m draft && git switch -q - && printf 'More.\n' >> index.html && git commit -q -am "docs: more pages"`),
			{stop: true},
			bashStep(`git switch -q - && git stash pop -q && git add docs/draft.md && git commit -q -m "docs: a draft" && git switch -q - && git switch -q -`),
			{stop: true},
		}},
		{name: "the site kept in site/ on main, deployed with git subtree split to gh-pages and pushed, twice", setup: withOrigin, steps: []plumbingStep{
			bashStep(`mkdir -p site && printf '<h1>Docs</h1>\n' > site/index.html && git add site && git commit -q -m "docs: the site's first page" && git subtree split -q --prefix=site -b gh-pages && git push -q origin gh-pages`),
			{stop: true},
			bashStep(`printf '<p>More.</p>\n' > site/more.html && git add site && git commit -q -m "docs: the site's second page" && git push -q origin "$(git subtree split -q --prefix=site main):refs/heads/gh-pages" && git fetch -q && git log --oneline origin/gh-pages | wc -l | grep -qx 2`),
			{stop: true},
		}},
		{name: "a page committed in a gh-pages worktree while a colleague added one upstream: pull --rebase there, pushed", setup: w9pagesOrigin, steps: []plumbingStep{
			bashStep(`git fetch -q && git worktree add -q ../site gh-pages && cd ../site && printf '<p>Mine.</p>\n' > mine.html && git add mine.html && git commit -q -m "docs: my page"`),
			{user: w9colleaguePagesMore},
			bashStep(`cd ../site && git pull -q --rebase && git push -q && ls && cd - >/dev/null && git worktree remove ../site`),
			{stop: true},
		}},
		{name: "a colleague's gh-pages in a worktree beside the clone, a page written there with the Write tool, a Stop, committed", setup: w9pagesOrigin, steps: []plumbingStep{
			bashStep(`git fetch -q && git worktree add -q ../site gh-pages`),
			{write: "../site/about.html", body: "<p>About.</p>\n"},
			{stop: true},
			bashStep(`cd ../site && git add about.html && git commit -q -m "docs: an about page" && git push -q`),
			{stop: true},
		}},
		{name: "gh-pages history squashed to one commit by rebase -i --root with a sed editor, pushed --force-with-lease", setup: w9originLoaded, steps: []plumbingStep{
			bashStep(`git switch -q --orphan gh-pages && for i in 1 2 3; do printf '<p>%s</p>\n' $i > p$i.html; git add p$i.html; git commit -q -m "docs: deploy $i"; done && git push -q origin gh-pages`),
			bashStep(`GIT_SEQUENCE_EDITOR="sed -i '2,\$s/^pick/fixup/'" git rebase -q -i --root && git log --oneline | wc -l | grep -qx 1 && git push -q --force-with-lease origin gh-pages && git switch -q -f main`),
			{stop: true},
		}},
		{name: "a deploy from a throwaway detached worktree: an orphan built there, pushed as HEAD:gh-pages, the worktree removed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git worktree add -q --detach ../deploy && cd ../deploy && git checkout -q --orphan tmp-deploy && git rm -q -rf . && printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: deploy the site" && git push -q -f origin HEAD:gh-pages`),
			bashStep(`git worktree remove --force ../deploy && git branch -q -D tmp-deploy && git fetch -q && git log --oneline -1 origin/gh-pages`),
			{stop: true},
		}},
		{name: "worktree add -B gh-pages from origin's, a page committed there, pushed", setup: w9pagesOrigin, steps: []plumbingStep{
			bashStep(`git fetch -q && git worktree add -q -B gh-pages ../site origin/gh-pages && cd ../site && printf '<p>Faq.</p>\n' > faq.html && git add faq.html && git commit -q -m "docs: a faq page" && git push -q origin gh-pages`),
			{stop: true},
			bashStep(`git worktree remove ../site`),
		}},
		{name: "checkout -B gh-pages origin/gh-pages in the session's tree across a Stop, a page, back to main", setup: w9pagesOrigin, steps: []plumbingStep{
			bashStep(`git fetch -q && git checkout -q -B gh-pages origin/gh-pages && printf '<p>Faq.</p>\n' > faq.html`),
			{stop: true},
			bashStep(`git add faq.html && git commit -q -m "docs: a faq page" && git push -q origin gh-pages && git checkout -q main`),
			{stop: true},
		}},
		{name: "a deploy by fast-import over a colleague's gh-pages whose page holds a home path: the deploy replaces it, pushed", setup: func(p *player) {
			withOrigin(p)
			w9colleaguePagesWith(p, "<p>Built in /ho"+"me/colleague/site.</p>\n")
		}, steps: []plumbingStep{
			bashStep(`git fetch -q origin && ` + w9ghpImport + w9build + `../ghp-import.sh site "docs: deploy $(git rev-parse --short HEAD)" && git push -q origin gh-pages`),
			{stop: true},
		}},
		{name: "three thousand built pages deployed by fast-import in one commit, pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(w9ghpImport + `mkdir -p ../big/api && for i in $(seq 1 3000); do printf '<p>Item %s.</p>\n' $i > ../big/api/item$i.html; done && ../ghp-import.sh ../big "docs: deploy the API pages" && git push -q origin gh-pages`),
			{stop: true},
		}},
		{name: "a pages worktree of an orphan made by hand, an uncommitted page there across a Stop, then committed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git worktree add -q --detach ../pages && cd ../pages && git checkout -q --orphan gh-pages && git rm -q -rf . && printf '<h1>Docs</h1>\n' > index.html`),
			{stop: true},
			bashStep(`cd ../pages && git add index.html && git commit -q -m "docs: begin the site" && git push -q origin gh-pages`),
			{stop: true},
			bashStep(`git worktree remove ../pages`),
		}},
	}
}

func w9history() []plumbingRow {
	return []plumbingRow{
		{name: "a release line cut from a tag older than the adoption, a fix there across a Stop, tagged, pushed", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`git switch -q -c release-0.9 v0.9.0 && ls`),
			bashStep(`printf 'How to use it, fixed.\n' > docs/guide.md`),
			{stop: true},
			bashStep(`git commit -q -am "fix: the guide on the 0.9 line" && git tag -a v0.9.1 -m "Release 0.9.1" && git push -q origin release-0.9 v0.9.1`),
			{stop: true},
			bashStep(`git switch -q main && git describe --tags --abbrev=0 release-0.9`),
			{stop: true},
		}},
		{name: "the session's own tree on the release line from the old tag: an edit with the Write tool, a Stop, then committed", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`git switch -q -c release-0.9 v0.9.0`),
			{write: "docs/guide.md", body: "How to use it, on 0.9.\n"},
			{stop: true},
			bashStep(`git commit -q -am "fix: the guide on 0.9" && git switch -q main`),
			{stop: true},
		}},
		{name: "a commit from before the adoption reverted on the release line, pushed", setup: w9oldLine, steps: []plumbingStep{
			bashStep(`git switch -q -c release-old "$(git log --format=%h -1 --grep='old page 3')" && git revert --no-edit HEAD~1 >/dev/null && git log -1 --format=%s && git push -q -u origin release-old`),
			bashStep(`git switch -q main`),
			{stop: true},
		}},
		{name: "a fix stashed on main, applied on the release line from the old tag, committed there, dropped on main", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`printf 'A fix.\n' > docs/fix.md && git add docs/fix.md && git stash push -q -m fix && git switch -q -c release-0.9 v0.9.0 && git stash apply -q && git commit -q -m "fix: a page of fixes"`),
			bashStep(`git switch -q main && git stash drop -q && git status -sb`),
			{stop: true},
		}},
		{name: "a range of fixes from main picked onto a release line from before the adoption, pushed", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`printf 'Fix one.\n' > docs/fix1.md && git add docs/fix1.md && git commit -q -m "fix: page one" && printf 'Fix two.\n' > docs/fix2.md && git add docs/fix2.md && git commit -q -m "fix: page two"`),
			bashStep(`git switch -q -c release-0.9 v0.9.0 && git cherry-pick -x main~2..main >/dev/null && git log --oneline -3 && git push -q -u origin release-0.9 && git switch -q main`),
			{stop: true},
		}},
		{name: "a release line from the old tag worked in a worktree: two fixes, a Stop after each, merged forward into main", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`git worktree add -q -b release-0.9 ../rel v0.9.0 && cd ../rel && printf 'Fix A.\n' > docs/a.md && git add docs/a.md && git commit -q -m "fix: page a"`),
			{stop: true},
			bashStep(`cd ../rel && printf 'Fix B.\n' > docs/b.md && git add docs/b.md && git commit -q -m "fix: page b"`),
			{stop: true},
			bashStep(`git merge -q --no-ff -m "Merge the 0.9 fixes" release-0.9 && git worktree remove ../rel && git push -q origin main release-0.9`),
			{stop: true},
		}},
		{name: "bisect run over history that crosses the adoption, reset in the same call", setup: w9oldLine, steps: []plumbingStep{
			bashStep(`for i in 1 2 3; do printf 'New %s.\n' $i >> docs/new.md; git add docs/new.md; git commit -q -m "docs: new $i"; done`),
			bashStep(`git bisect start HEAD "$(git rev-list --max-parents=0 HEAD)" >/dev/null && git bisect run sh -c 'test ! -f docs/new.md' >/dev/null && git bisect log | tail -1 && git bisect reset >/dev/null 2>&1`),
			{stop: true},
		}},
		{name: "bisect by hand over history that crosses the adoption, a Stop on a commit from before it, reset", setup: w9oldLine, steps: []plumbingStep{
			bashStep(`git bisect start && git bisect bad HEAD && git bisect good "$(git rev-list --max-parents=0 HEAD)" && git bisect bad && git rev-parse --short HEAD`),
			{stop: true},
			bashStep(`test -f docs/old1.md && git bisect good >/dev/null; git bisect log >/dev/null && git bisect reset >/dev/null 2>&1 && git status -sb`),
			{stop: true},
		}},
		{name: "an old commit from before the adoption checked out detached to look around, a Stop there, back to main", setup: w9oldLine, steps: []plumbingStep{
			bashStep(`git checkout -q --detach "$(git log --format=%h -1 --grep='old page 2')" && ls docs && git log --oneline -2`),
			{stop: true},
			bashStep(`git checkout -q main && git status -sb`),
			{stop: true},
		}},
		{name: "a fix on main backported to the old line by rebase --onto, pushed", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`git switch -q -c fix-guide && printf 'Fix.\n' > docs/fix.md && git add docs/fix.md && git commit -q -m "fix: a page of fixes" && git switch -q -c backport && git rebase -q --onto v0.9.0 main backport && ! git ls-tree --name-only HEAD | grep -qx scripts`),
			bashStep(`git push -q origin backport:release-0.9 && git switch -q main && git merge -q --ff-only fix-guide && git branch -q -D fix-guide backport`),
			{stop: true},
		}},
		{name: "a fix on main backported to the old line by format-patch and am", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`printf 'Fix.\n' > docs/fix.md && git add docs/fix.md && git commit -q -m "fix: a page of fixes" && git format-patch -q -1 -o ../patches HEAD`),
			bashStep(`git switch -q -c release-0.9 v0.9.0 && git am -q ../patches/*.patch && git log -1 --format=%s && git switch -q main`),
			{stop: true},
		}},
		{name: "on the old line: a fix amended, a fixup autosquashed, a second fix, tagged", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`git switch -q -c release-0.9 v0.9.0 && printf 'Fix.\n' > docs/fix.md && git add docs/fix.md && git commit -q -m "fix: a page of fixes" && printf 'Fix, amended.\n' > docs/fix.md && git commit -q -a --amend --no-edit`),
			bashStep(`printf 'Two.\n' > docs/two.md && git add docs/two.md && git commit -q -m "fix: a second page" && printf 'Fix, again.\n' > docs/fix.md && git commit -q -a --fixup=HEAD~1 && GIT_SEQUENCE_EDITOR=: git rebase -q -i --autosquash v0.9.0 && git tag -a v0.9.1 -m "Release 0.9.1" && git switch -q main`),
			{stop: true},
		}},
		{name: "bisect with skip on commits from before the adoption, then reset", setup: w9oldLine, steps: []plumbingStep{
			bashStep(`git bisect start HEAD "$(git rev-list --max-parents=0 HEAD)" >/dev/null && git bisect skip >/dev/null && git bisect skip >/dev/null; git bisect visualize --oneline >/dev/null; git bisect reset >/dev/null 2>&1 && git status -sb`),
			{stop: true},
		}},
		{name: "a merge picked onto another branch with cherry-pick -m 1, and a range of commits reverted", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git switch -q -c topic && printf 'T.\n' > docs/t.md && git add docs/t.md && git commit -q -m "docs: topic page" && git switch -q main && git switch -q -c integration && git merge -q --no-ff --no-edit topic && git switch -q main && git cherry-pick -m 1 integration >/dev/null && test -f docs/t.md`),
			bashStep(`for i in 1 2 3; do printf 'R %s.\n' $i > docs/r$i.md; git add docs/r$i.md; git commit -q -m "docs: page r$i"; done && git revert --no-edit HEAD~2..HEAD >/dev/null && git log --format=%s -3 && git push -q`),
			{stop: true},
		}},
		{name: "fixups autosquashed by rebase -i with a sequence editor, a stacked branch moved by --update-refs", steps: []plumbingStep{
			bashStep(`git switch -q -c part1 && printf 'One.\n' > docs/p1.md && git add docs/p1.md && git commit -q -m "docs: part one" && git switch -q -c part2 && printf 'Two.\n' > docs/p2.md && git add docs/p2.md && git commit -q -m "docs: part two"`),
			bashStep(`printf 'One, fixed.\n' > docs/p1.md && git commit -q -a --fixup=part1 && printf 'Two, fixed.\n' > docs/p2.md && git commit -q -a --fixup=HEAD~1`),
			bashStep(`GIT_SEQUENCE_EDITOR=: git rebase -q -i --autosquash --update-refs main && git log --oneline main..part2 | wc -l | grep -qx 2 && git show part1:docs/p1.md | grep -q fixed`),
			{stop: true},
		}},
		{name: "a merge reverted with revert -m 1, pushed, the revert reverted later", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git merge -q --no-ff --no-edit side && git push -q`),
			bashStep(`git revert -m 1 --no-edit HEAD >/dev/null && git log -1 --format=%s && git push -q`),
			{stop: true},
			bashStep(`git revert --no-edit HEAD >/dev/null && git log -1 --format=%s && test -f docs/side.md && git push -q`),
			{stop: true},
		}},
		{name: "a range A..B of a feature branch cherry-picked onto main, one conflict-free pick with -x after", steps: []plumbingStep{
			bashStep(`git switch -q -c feat && for i in 1 2 3; do printf 'Feat %s.\n' $i > docs/feat$i.md; git add docs/feat$i.md; git commit -q -m "docs: feature page $i"; done && git switch -q main`),
			bashStep(`git cherry-pick feat~3..feat~1 >/dev/null && git cherry-pick -x feat >/dev/null && git log --oneline -3 && git branch -q -D feat`),
			{stop: true},
		}},
		{name: "notes kept in two refs, appended, copied, pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git notes add -m "Reviewed." HEAD && git notes append -m "Again, later." HEAD && git notes --ref=review add -m "Looks right." HEAD~1`),
			bashStep(w5green + `git commit -q -m "docs: more to read" && git notes copy HEAD~1 HEAD && git notes show HEAD && git push -q origin main 'refs/notes/*:refs/notes/*'`),
			{stop: true},
		}},
		{name: "trailers written by interpret-trailers into a message file, commit -F, and commit -s with --trailer", steps: []plumbingStep{
			bashStep(`printf 'docs: more to read\n\nA page to read more.\n' > ../msg && git interpret-trailers --in-place --trailer "Reviewed-by: Ana Lima <ana@example.invalid>" --trailer "Refs: #41" ../msg && ` + w5green + `git commit -q -F ../msg && git log -1 --format=%B | grep -q '^Refs: #41'`),
			bashStep(`printf 'More.\n' >> docs/more.md && git commit -q -a -s -m "docs: even more" --trailer "Acked-by: Ana Lima <ana@example.invalid>" && git log -1 --format='%(trailers:only)' | grep -c .`),
			{stop: true},
		}},
		{name: "a worktree per feature, one commit in each with a Stop after each, all merged, the worktrees pruned", setup: withOrigin, steps: []plumbingStep{
			bashStep(`for f in alpha beta gamma; do git worktree add -q -b $f ../wt-$f; done && git worktree list | wc -l | grep -qx 4`),
			bashStep(`cd ../wt-alpha && printf 'Alpha.\n' > docs/alpha.md && git add docs/alpha.md && git commit -q -m "docs: alpha"`),
			{stop: true},
			bashStep(`cd ../wt-beta && printf 'Beta.\n' > docs/beta.md && git add docs/beta.md && git commit -q -m "docs: beta"`),
			{stop: true},
			bashStep(`cd ../wt-gamma && printf 'Gamma.\n' >> docs/guide.md && git commit -q -am "docs: gamma in the guide"`),
			{stop: true},
			bashStep(`git merge -q --no-edit alpha beta gamma && rm -rf ../wt-alpha ../wt-beta && git worktree remove ../wt-gamma && git worktree prune && git branch -q -d alpha beta gamma && git push -q`),
			{stop: true},
		}},
	}
}

// w9controls are the red twins: a leak deployed by fast-import (no hook
// ran: named right after), a leak in a fix on the release line from before
// the adoption (the hook refuses it), and one committed there past the hook
// (named after).
func w9controls() []plumbingRow {
	const tt = "check-tree-terms"
	return []plumbingRow{
		{name: "control: a leak deployed to gh-pages by fast-import", setup: withOrigin, steps: []plumbingStep{
			bashStep(w9ghpImport + w9build + `printf '<p>Built in /ho` + `me/marta/site.</p>\n' > site/built.html && ../ghp-import.sh site "docs: deploy the site"`),
			{remedy: true},
		}, expect: stAfter, gate: tt},
		{name: "control: a leak deployed by commit-tree from an index of its own", setup: withOrigin, steps: []plumbingStep{
			bashStep(w9build + `printf '<p>Built in /ho` + `me/marta/site.</p>\n' > site/built.html && i=$(cd .. && pwd)/pages.idx && GIT_INDEX_FILE="$i" git --work-tree=site add -A && t=$(GIT_INDEX_FILE="$i" git write-tree) && c=$(git commit-tree -m "docs: deploy the site" $t) && git update-ref refs/heads/gh-pages $c`),
			{remedy: true},
		}, expect: stAfter, gate: tt},
		{name: "control: a leak in a fix on the release line cut from the old tag", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`git switch -q -c release-0.9 v0.9.0 && printf 'Kept in /ho` + `me/marta/notes.\n' > docs/guide.md && git commit -q -am "fix: the guide on the 0.9 line"; rc=$?; git switch -q -f main; exit $rc`),
		}, expect: stHook, gate: tt},
		{name: "control: a leak committed past the hook on the release line cut from the old tag", setup: w9oldTag, steps: []plumbingStep{
			bashStep(`git switch -q -c release-0.9 v0.9.0 && printf 'Kept in /ho` + `me/marta/notes.\n' > docs/n.md && git add docs/n.md && ` + sh2("fix: notes on the 0.9 line") + `; git switch -q -f main`),
			{remedy: true},
		}, expect: stAfter, gate: tt},
	}
}

func TestAgentWork9Deploys(t *testing.T) {
	t.Parallel()
	rows := w9deploys()
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

func TestAgentWork9History(t *testing.T) {
	t.Parallel()
	rows := w9history()
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

func TestAgentWork9Controls(t *testing.T) {
	t.Parallel()
	runPlumbingRows(t, w9controls())
}

// A tree from before the adoption holds the findings the adoption
// accepted (a workflow's action pinned by tag, say): judged as a foreign
// tree with the default branch's configuration, it is held to the default
// branch's baseline too, so a fix there passes the hook and the judge
// after it, and only a finding the baseline does not accept is refused.
// Decision (issue 41 acceptance, branch work57): a commit adding a file
// to a release line cut from before the adoption of a real module was
// refused by check-action-pinning and check-action-permissions for
// workflows it did not touch, and one picked there was named after.
func TestAgentWork9ForeignTreeKeepsTheBaseline(t *testing.T) {
	t.Parallel()
	parent, _ := filepath.EvalSymlinks(t.TempDir())
	dir := filepath.Join(parent, "repo")
	os.MkdirAll(filepath.Join(dir, ".github/workflows"), 0o755)
	p := &player{t: t, dir: dir, session: "w9-foreign-baseline"}
	p.env = baseEnv(t, "GIT_CEILING_DIRECTORIES="+parent, "CLAUDE_PROJECT_DIR="+dir, "CLAUDECODE=1")
	p.git("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# a project\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".github/workflows/ci.yml"), []byte("name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: make test\n"), 0o644)
	p.git("add", "-A")
	p.git("commit", "-q", "-m", "Initial import")
	if r := run(t, dir, p.env, binPath, "init", "--hooks", "--harness", "claude"); r.code != 0 {
		t.Fatalf("init: %s%s", r.stdout, r.stderr)
	}
	p.git("add", "-A")
	p.git("commit", "-q", "-m", "Adopt the gates")
	if !strings.Contains(p.git("show", "HEAD:scripts/gates.baseline"), "check-action-pinning") {
		t.Fatal("the adoption accepted no pinning finding: the test's premise is gone")
	}
	w7loaded(p)
	p.git("switch", "-q", "-c", "release-0", "HEAD~1")
	p.bashQuiet(`printf 'Fixed.\n' >> README.md && printf 'A fix.\n' > FIX.md && git add FIX.md`)
	if r := run(t, dir, p.env, "git", "commit", "-q", "-am", "Fix the README"); r.code != 0 {
		t.Errorf("a fix on the line from before the adoption was refused:\n%s%s", r.stdout, r.stderr)
	}
	// Landed past the hook, through the harness: the judge after the call
	// says nothing.
	p.bashQuiet(`printf 'Again.\n' >> README.md && printf 'Again.\n' > AGAIN.md && git add AGAIN.md && echo 'git commit -q -n -am "Fix the README again"' | sh`)
	p.bashQuiet(`sed -i 's|      - run: make test|      - uses: actions/setup-go@v5\n      - run: make test|' .github/workflows/ci.yml`)
	r := run(t, dir, p.env, "git", "commit", "-q", "-am", "Set up Go")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "actions/setup-go@v5") {
		t.Errorf("a new action pinned by tag on that line was not refused (exit %d):\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// w9limits are ordinary work the gates still block, each written as a
// limit in kits/gate-sdk/SPEC.md (§commit-audit C): a pages branch in a
// clone whose default branch is named neither main nor master and that no
// clone set origin/HEAD for (a repository begun here, its remote added
// later). Played with the right expectation, reported, and failed once
// they stop missing.
var w9limits = []plumbingRow{
	{name: "an orphan gh-pages commit in a clone whose default branch is trunk and that has no origin/HEAD", setup: func(p *player) { p.git("branch", "-m", "main", "trunk") }, steps: []plumbingStep{
		bashStep(`git switch -q --orphan gh-pages && printf '<h1>Docs</h1>\n' > index.html && git add index.html && git commit -q -m "docs: start the site"; rc=$?; rm -f index.html; git switch -q -f trunk; exit $rc`),
		{stop: true},
	}},
}

func TestAgentWork9Limits(t *testing.T) {
	t.Parallel()
	for _, r := range w9limits {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := w7playLimit(t, r)
			t.Logf("LIMIT | %s | passes untouched | %s", r.name, got)
			if got == "passes untouched" {
				t.Errorf("%s: written as a limit, and it no longer misses: take it out of w9limits and out of the SPEC's limit\n%s", r.name, log)
			}
		})
	}
}
