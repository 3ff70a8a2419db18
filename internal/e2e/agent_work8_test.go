package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Issue 41's acceptance, an eighth round on the side of "none is
// blocked": ordinary flows no earlier table plays in these spellings —
// two sessions in one clone one after the other, a long session of small
// commits with a Stop every few, commits written in an editor with -v or
// by hunks fed from a here-string, intent to add, restore --staged, a
// branch taken from a remote-tracking ref, a tagged feature merged with
// --no-ff, tags made in a loop, directories moved, a workflow renamed,
// case-only renames, a generated file untracked behind .gitignore, names
// with spaces and accents, a file deleted and made again, go generate,
// gofmt -w over the tree, read-only sessions, and a session whose working
// directory is a subdirectory throughout. Each must pass untouched: no
// block, no reason, a quiet Stop, nothing red on the status line.

// w8statusClean checks, by the person's eyes, that the status line of
// the session now playing shows nothing red.
func w8statusClean(p *player) {
	p.t.Helper()
	if sl := p.statusWith(); strings.Contains(sl, "red commit") || strings.Contains(sl, "not judged") || strings.Contains(sl, "broken") {
		p.t.Errorf("the status line of %s reads %q", p.session, sl)
	}
}

// w8module makes the clone a small Go module with a package of its own,
// before the session.
func w8module(p *player) {
	p.t.Helper()
	os.MkdirAll(filepath.Join(p.dir, "tool"), 0o755)
	os.WriteFile(filepath.Join(p.dir, "go.mod"), []byte("module example.invalid/app\n\ngo 1.21\n"), 0o644)
	os.WriteFile(filepath.Join(p.dir, "tool/tool.go"), []byte("package tool\n\n// One answers one.\nfunc One() int {\n\treturn 1\n}\n"), 0o644)
	p.git("add", "-A")
	if r := run(p.t, p.dir, p.env, "git", "commit", "-q", "-m", "build: a Go module"); r.code != 0 {
		p.t.Fatalf("module commit: %s%s", r.stdout, r.stderr)
	}
	p.env = append(p.env, "GOCACHE="+realGoCache(p.t), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")
}

// w8workflow gives the clone a workflow pinned by commit id, before the
// session.
func w8workflow(p *player) {
	p.t.Helper()
	os.MkdirAll(filepath.Join(p.dir, ".github/workflows"), 0o755)
	wf := "name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11 # v4.1.1\n      - run: make test\n"
	os.WriteFile(filepath.Join(p.dir, ".github/workflows/ci.yml"), []byte(wf), 0o644)
	p.git("add", "-A")
	if r := run(p.t, p.dir, p.env, "git", "commit", "-q", "-m", "ci: a test workflow"); r.code != 0 {
		p.t.Fatalf("workflow commit: %s%s", r.stdout, r.stderr)
	}
}

// w8editor is an editor script at ../editor.sh that puts $W8_SUBJECT
// above the template git opens.
const w8editor = `printf '#!/bin/sh\nprintf "%%s\\n" "$W8_SUBJECT" | cat - "$1" > "$1.new" && mv "$1.new" "$1"\n' > ../editor.sh && chmod +x ../editor.sh && `

// w8long is a session of n small commits with a Stop after every few.
func w8long(n, every int) []plumbingStep {
	var steps []plumbingStep
	for i := 1; i <= n; i++ {
		page := fmt.Sprintf("docs/log-%02d.md", i%7)
		cmd := fmt.Sprintf(`printf 'Entry %d.\n' >> %s && git add %s && git commit -q -m "docs: log entry %d"`, i, page, page, i)
		if i%5 == 0 {
			cmd = fmt.Sprintf(`printf 'Entry %d.\n' >> docs/guide.md && git commit -q -am "docs: guide entry %d" && git log --oneline -1 >/dev/null`, i, i)
		}
		steps = append(steps, bashStep(cmd))
		if i%every == 0 {
			steps = append(steps, plumbingStep{stop: true})
		}
	}
	return append(steps, plumbingStep{stop: true})
}

func w8sessions(t *testing.T) []plumbingRow {
	return []plumbingRow{
		{name: "two sessions one after the other: the first leaves an edit and a stash, the second commits both", setup: withOrigin, steps: []plumbingStep{
			{session: "s-w8-first"},
			bashStep(`printf 'Half done.\n' >> docs/guide.md && printf 'Aside.\n' > docs/aside.md && git add docs/aside.md && git stash push -q -m aside -- docs/aside.md`),
			{stop: true},
			{session: "s-w8-second"},
			{user: w8statusClean},
			bashStep(`git status --short && git stash list`),
			{user: w8statusClean},
			bashStep(`git stash pop -q && git add docs/aside.md && git commit -q -am "docs: finish the guide and the aside" && git push -q origin main`),
			{stop: true},
		}},
		{name: "two sessions: the first names its own red commit and repairs it, the second's first call, status line and Stop are quiet", steps: []plumbingStep{
			{session: "s-w8-red-first"},
			bashStep(`printf 'Kept in /ho` + `me/marta/notes.\n' > docs/notes.md && git add docs/notes.md && ` + sh2("docs: add notes")),
			bashStep(`git reset -q --soft HEAD^ && printf 'Kept in the notes folder.\n' > docs/notes.md && git add docs/notes.md && git commit -q -m "docs: add notes"`),
			{stop: true},
			{session: "s-w8-red-second"},
			bashStep(`git log --oneline -2`),
			{user: w8statusClean},
			bashStep(`printf 'More.\n' >> docs/notes.md && git commit -q -am "docs: more notes"`),
			{stop: true},
		}, from: 4},
		{name: "two sessions: the first pushes tags, a colleague pushes, the second pulls and tags again", setup: withOrigin, steps: []plumbingStep{
			{session: "s-w8-tags-first"},
			bashStep(w5green + `git commit -q -m "docs: more to read" && git tag -a v0.1.0 -m "Release 0.1.0" && git push -q --follow-tags origin main`),
			{stop: true},
			{user: colleague(2, false)},
			{session: "s-w8-tags-second"},
			{user: w8statusClean},
			bashStep(`git pull -q --ff-only && git tag -a v0.2.0 -m "Release 0.2.0" && git push -q origin v0.2.0`),
			{stop: true},
		}},
		{name: "a long session of 32 small commits with a Stop every four", steps: w8long(32, 4)},
		{name: "commit -v through an editor script, with the diff below the scissors", steps: []plumbingStep{
			bashStep(w8editor + w5green + `W8_SUBJECT="docs: more to read" GIT_EDITOR=../editor.sh git commit -q -v && git log -1 --format=%B | grep -vq '^diff --git'`),
			bashStep(`printf 'Again.\n' >> docs/more.md && W8_SUBJECT="docs: read again" GIT_EDITOR=../editor.sh git commit -q -v -v -a`),
			{stop: true},
		}},
		{name: "commit -p fed a here-string: one of two hunks committed, the other left", steps: []plumbingStep{
			bashStep(`printf 'Top.\n\n\n\n\n\n\n\n\nHow to use it.\n\n\n\n\n\n\n\n\nBottom.\n' > docs/guide.md && git commit -q -am "docs: a guide with room"`),
			bashStep(`sed -i 's/^Top.$/Top, edited./; s/^Bottom.$/Bottom, edited./' docs/guide.md && git commit -q -p -m "docs: the top edited" <<< $'y\nn\n' >/dev/null && git diff --stat`),
			bashStep(`git commit -q -am "docs: the bottom edited"`),
			{stop: true},
		}},
		{name: "add -N of two new pages, commit -a takes them", steps: []plumbingStep{
			bashStep(`printf 'One.\n' > docs/n1.md && printf 'Two.\n' > docs/n2.md && git add -N docs/n1.md docs/n2.md && git diff --stat`),
			bashStep(`git commit -q -a -m "docs: two new pages" && git ls-files docs | grep -c n`),
			{stop: true},
		}},
		{name: "restore --staged of one of three staged files, two committed, the third later", steps: []plumbingStep{
			bashStep(`printf 'A.\n' > docs/a.md && printf 'B.\n' > docs/b.md && printf 'C.\n' > docs/c.md && git add docs/ && git restore --staged docs/c.md && git commit -q -m "docs: pages a and b"`),
			bashStep(`printf 'A, changed.\n' > docs/a.md && git add docs/a.md && git restore --staged docs/a.md && git restore docs/a.md && git status --short && git add docs/c.md && git commit -q -m "docs: page c"`),
			bashStep(`printf 'Guide, changed.\n' > docs/guide.md && git add docs/guide.md && git restore --source=HEAD~2 --staged --worktree docs/guide.md && git diff --quiet HEAD && git status --short`),
			{stop: true},
		}},
		{name: "switch -c from a colleague's remote-tracking branch, a commit, pushed back to it", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("topic", true, "docs/topic.md=A topic.\n")},
			bashStep(`git fetch -q origin && git branch -r && git switch -q -c topic-review origin/topic`),
			bashStep(`printf 'Reviewed.\n' >> docs/topic.md && git commit -q -am "docs: review the topic" && git push -q origin topic-review:topic && git switch -q main`),
			{stop: true},
		}},
		{name: "switch --track of a remote branch by its name, pull on it, merged into main", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("release-1", true, "docs/rel.md=Release notes.\n")},
			bashStep(`git fetch -q && git switch -q --track origin/release-1 && git pull -q && git switch -q main && git merge -q --no-ff --no-edit release-1 && git push -q origin main`),
			{stop: true},
		}},
		{name: "merge --no-ff of a feature branch whose tip carries an annotated tag, the tag pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git switch -q -c feature && printf 'F.\n' > docs/f.md && git add docs/f.md && git commit -q -m "docs: feature page" && git tag -a feature-v1 -m "The feature, version 1"`),
			bashStep(`git switch -q main && git merge -q --no-ff -m "Merge the feature" feature && git describe --tags --contains HEAD^2 && git push -q origin main feature-v1 && git branch -q -d feature`),
			{stop: true},
		}},
		{name: "annotated tags made in a loop over the last commits, one message each, all pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`for i in 1 2 3 4; do printf 'Step %s.\n' $i >> docs/steps.md; git add docs/steps.md; git commit -q -m "docs: step $i"; done`),
			bashStep(`for i in 0 1 2 3; do git tag -a "v1.$((3-i)).0" -m "Release 1.$((3-i)).0" "HEAD~$i"; done && git tag -l 'v1.*' | wc -l && git push -q origin main 'refs/tags/v1.*:refs/tags/v1.*'`),
			{stop: true},
		}},
		{name: "git mv of a directory of pages, then moved back by mv and add -A", steps: []plumbingStep{
			bashStep(`mkdir -p docs/howto && printf 'A.\n' > docs/howto/a.md && printf 'B.\n' > docs/howto/b.md && git add docs/howto && git commit -q -m "docs: two how-to pages"`),
			bashStep(`git mv docs/howto docs/guides && git commit -q -m "docs: rename how-to to guides"`),
			bashStep(`mv docs/guides docs/howto && git add -A docs && git commit -q -m "docs: back to how-to"`),
			{stop: true},
		}},
		{name: "a pinned workflow renamed with git mv, and one renamed by mv and add -A", setup: w8workflow, steps: []plumbingStep{
			bashStep(`git mv .github/workflows/ci.yml .github/workflows/test.yml && git commit -q -m "ci: call the workflow test"`),
			bashStep(`mv .github/workflows/test.yml .github/workflows/test.yaml && git add -A .github && git commit -q -m "ci: use the yaml extension"`),
			{stop: true},
		}},
		{name: "case-only renames of a page and a directory, through a temporary name", steps: []plumbingStep{
			bashStep(`git mv README.md Readme.md && git commit -q -m "docs: Readme in mixed case"`),
			bashStep(`git mv docs Docs.tmp && git mv Docs.tmp Docs && git commit -q -m "docs: the docs folder capitalised" && git mv Docs docs && git commit -q -m "docs: the docs folder lower case again"`),
			{stop: true},
		}},
		{name: "a generated file untracked with rm --cached behind a new .gitignore line", steps: []plumbingStep{
			bashStep(`printf '<p>built</p>\n' > docs/site.html && git add docs/site.html && git commit -q -m "docs: the built page"`),
			bashStep(`printf 'docs/*.html\n' >> .gitignore && git rm -q --cached docs/site.html && git add .gitignore && git commit -q -m "build: stop tracking the built page" && test -f docs/site.html && git check-ignore -q docs/site.html`),
			{stop: true},
		}},
		{name: "pages with spaces, accents, CJK and an emoji in their names, committed, renamed, listed", steps: []plumbingStep{
			{write: "docs/notes de réunion/ordre du jour.md", body: "# Ordre du jour\n"},
			bashStep(`printf '議事録\n' > "docs/notes de réunion/会議 1.md" && printf 'Ship it.\n' > "docs/🚀 launch.md" && git add docs && git commit -q -m "docs: meeting notes"`),
			bashStep(`git mv "docs/🚀 launch.md" "docs/launch plan.md" && git commit -q -m "docs: a plainer name" && git -c core.quotePath=false ls-files docs && git log --stat -1 >/dev/null`),
			{stop: true},
		}},
		{name: "a page deleted and committed, made again with other words in the next commit", steps: []plumbingStep{
			bashStep(`git rm -q docs/guide.md && git commit -q -m "docs: drop the guide"`),
			{write: "docs/guide.md", body: "A new guide.\n"},
			bashStep(`git add docs/guide.md && git commit -q -m "docs: a new guide"`),
			bashStep(`rm docs/guide.md && printf 'The newest guide.\n' > docs/guide.md && git commit -q -am "docs: rewrite the guide"`),
			{stop: true},
		}},
		{name: "go generate writing two files from a directive, built, committed", setup: w8module, steps: []plumbingStep{
			{write: "tool/gen.go", body: "package tool\n\n//go:generate sh -c \"printf 'package tool\\\\n\\\\n// Two answers two.\\\\nfunc Two() int { return 2 }\\\\n' > two_gen.go && printf 'package tool\\\\n\\\\n// Three answers three.\\\\nfunc Three() int { return 3 }\\\\n' > three_gen.go\"\n"},
			bashStep(`go generate ./... && gofmt -w tool && go build ./... && go vet ./...`),
			bashStep(`git add tool && git commit -q -m "feat(tool): generated Two and Three"`),
			{stop: true},
		}},
		{name: "gofmt -w over the whole tree after hand edits, one commit", setup: w8module, steps: []plumbingStep{
			bashStep(`printf 'package tool\n\nfunc  Four( ) int {\nreturn 4}\n' > tool/four.go && printf 'package tool\n\nfunc Five() int {  return 5 }\n' > tool/five.go`),
			bashStep(`gofmt -l . ; gofmt -w . && test -z "$(gofmt -l .)" && go build ./... && git add -A && git commit -q -m "feat(tool): Four and Five"`),
			{stop: true},
		}},
		{name: "a read-only session: log, show, blame, grep, diff, describe across the history", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git log --all --graph --decorate --oneline && git log -p --follow -- docs/guide.md >/dev/null`),
			bashStep(`git show HEAD --stat && git show side:docs/side.md && git show HEAD~1 --name-status >/dev/null`),
			bashStep(`git blame docs/guide.md && git blame -C -C --line-porcelain README.md >/dev/null`),
			bashStep(`git grep -n 'use' && git grep -c . HEAD -- docs >/dev/null && git grep -e How --and -e use >/dev/null`),
			bashStep(`git diff main side --stat && git describe --always --dirty && git rev-parse --show-toplevel >/dev/null && git log --format='%an %ae' | sort -u`),
			{read: "docs/guide.md"},
			{stop: true},
		}},
	}
}

// w8spellings are ordinary commands the guard reads word by word before
// they run: flags that look like others in a cluster, cleans that keep
// the binary, reads of the configuration that name the hooks path, and
// messages that speak of the bypass.
func w8spellings() []plumbingRow {
	return []plumbingRow{
		{name: "commit -uno: untracked files left out of the template, a green commit", steps: []plumbingStep{
			bashStep(`printf 'Scratch.\n' > docs/scratch.txt && printf 'More.\n' >> docs/guide.md && git commit -q -uno -am "docs: more of the guide"`),
			bashStep(`printf 'Again.\n' >> docs/guide.md && git commit -q -a -unormal -m "docs: again" && rm docs/scratch.txt`),
			{stop: true},
		}},
		{name: "commit -qauno in one cluster", steps: []plumbingStep{
			bashStep(`printf 'More.\n' >> docs/guide.md && git commit -qauno -m "docs: more of the guide"`),
			{stop: true},
		}},
		{name: "clean -fdx with the binary's directory kept by an unanchored -e, and a clean limited to a build directory", steps: []plumbingStep{
			bashStep(`mkdir -p docs/_build && printf 'x\n' > docs/_build/page.html && printf 'docs/_build/\n' >> .gitignore && git commit -q -am "build: ignore the docs build"`),
			bashStep(`git clean -q -fdx -e bin && test -x bin/gates && test ! -e docs/_build`),
			bashStep(`mkdir -p docs/_build && printf 'x\n' > docs/_build/page.html && git clean -q -xdf -- docs/_build && test -x bin/gates`),
			bashStep(`mkdir -p docs/_build && printf 'x\n' > docs/_build/page.html && cd docs && git clean -q -ffdx && test -x ../bin/gates`),
			{stop: true},
		}},
		{name: "reads of the configuration that name the hooks path", steps: []plumbingStep{
			bashStep(`git config --show-origin --get-all core.hooksPath; git config --get-regexp '^core\.' && git config --list --show-origin | grep -ci hookspath`),
			bashStep(`git config core.hooksPath && git config --local -l >/dev/null && git config --type=bool --get core.bare`),
			{stop: true},
		}},
		{name: "commit messages that speak of --no-verify and core.hooksPath, in -m and in a body", steps: []plumbingStep{
			bashStep(`printf 'Never skip the hooks.\n' > docs/hooks.md && git add docs/hooks.md && git commit -q -m "docs: why we never pass --no-verify" -m "The hooks live at core.hooksPath; git commit -n skips them."`),
			bashStep(`printf 'More.\n' >> docs/hooks.md && git commit -q -a --message="docs: note on --no-verify and -n"`),
			{stop: true},
		}},
		{name: "a revert of a revert, worded as git 2.43 and later word it: Reapply \"…\"", steps: []plumbingStep{
			bashStep(w5green + `git commit -q -m "docs: more to read" && git revert --no-edit HEAD >/dev/null`),
			bashStep(`git revert --no-commit HEAD && git commit -q -m 'Reapply "docs: more to read"' -m "This reverts commit $(git rev-parse HEAD)."`),
			{stop: true},
		}},
		{name: "a squash of two commits by rebase -i with sed editors, the combined message kept", steps: []plumbingStep{
			bashStep(`printf 'A.\n' > docs/a.md && git add docs/a.md && git commit -q -m "docs: a" && printf 'B.\n' > docs/b.md && git add docs/b.md && git commit -q -m "docs: b"`),
			bashStep(`GIT_SEQUENCE_EDITOR="sed -i '2s/^pick/squash/'" GIT_EDITOR=true git rebase -q -i HEAD~2 && git log -1 --format=%B`),
			{stop: true},
		}},
		{name: "an empty commit to start CI, and own commits rebased with --committer-date-is-author-date", steps: []plumbingStep{
			bashStep(`git commit -q --allow-empty -m "ci: trigger the pipeline"`),
			bashStep(w5green + `git commit -q --date="3 days ago" -m "docs: more to read" && git rebase -q --committer-date-is-author-date HEAD~2`),
			{stop: true},
		}},
		{name: "two thousand generated pages in one commit", steps: []plumbingStep{
			bashStep(`mkdir -p docs/gen && for i in $(seq 1 2000); do printf 'Item %s.\n' $i > docs/gen/item$i.md; done && git add docs/gen && git commit -q -m "docs: two thousand generated pages"`),
			bashStep(`printf 'Changed.\n' >> docs/gen/item7.md && git commit -q -am "docs: change one page"`),
			{stop: true},
		}},
		{name: "commit with an editor set by -c core.editor, and -c user.name for one commit", steps: []plumbingStep{
			bashStep(w5green + `git -c user.name="Pair Partner" -c core.editor=true commit -q -m "docs: more to read"`),
			bashStep(`printf 'Amended.\n' >> docs/more.md && git -c core.editor=true commit -q -a --amend`),
			{stop: true},
		}},
	}
}

// w8libRemote makes ../lib (w7libRepo) and names it the remote lib of
// the clone, before the session: the library's history is the library's.
func w8libRemote(p *player) {
	p.t.Helper()
	w8libCommit("README.md=# lib\n")(p)
	p.git("remote", "add", "lib", filepath.Join(filepath.Dir(p.dir), "lib"))
}

// w8libCommit commits pages to ../lib (made on first use, its branch
// main) as the library's maintainer, the colleague of w5env.
func w8libCommit(pages ...string) func(p *player) {
	return func(p *player) {
		p.t.Helper()
		lib := filepath.Join(filepath.Dir(p.dir), "lib")
		env := w5env(p)
		if _, err := os.Stat(lib); err != nil {
			os.MkdirAll(lib, 0o755)
			run(p.t, lib, env, "git", "init", "-q", "-b", "main")
		}
		for _, pg := range pages {
			rel, body, _ := strings.Cut(pg, "=")
			os.WriteFile(filepath.Join(lib, rel), []byte(body), 0o644)
			run(p.t, lib, env, "git", "add", rel)
			if r := run(p.t, lib, env, "git", "commit", "-q", "-m", "lib: "+rel); r.code != 0 {
				p.t.Fatalf("lib commit: %s%s", r.stdout, r.stderr)
			}
		}
	}
}

// w8subtree are vendoring flows with git subtree from a remote the clone
// has: it writes commits of its own (a squash made by commit-tree, a
// merge, an add) whose subjects are git's words, not the agent's, and it
// brings the library's own history, which is the library's.
func w8subtree() []plumbingRow {
	return []plumbingRow{
		{name: "subtree add --squash of a library from its remote, then subtree pull --squash after it moved", setup: w8libRemote, steps: []plumbingStep{
			bashStep(`git subtree add -q --prefix=vendor/lib lib main --squash && git log --oneline -3`),
			{stop: true},
			{user: w8libCommit("CHANGES.md=- a change\n")},
			bashStep(`git subtree pull -q --prefix=vendor/lib lib main --squash -m "build: bump the vendored lib" && git log --oneline -4`),
			{stop: true},
		}},
		{name: "subtree add --squash from the library's remote with a message of the project's style", setup: w8libRemote, steps: []plumbingStep{
			bashStep(`git subtree add -q --prefix=vendor/lib lib main --squash -m "build: vendor lib" && git log --format=%s -3`),
			{stop: true},
		}},
		{name: "subtree add --squash of a library by its path", setup: w8libCommit("README.md=# lib\n"), steps: []plumbingStep{
			bashStep(`git subtree add -q --prefix=vendor/lib ../lib main --squash && git log --oneline -3`),
			{stop: true},
		}},
		{name: "subtree add --squash by the library's path, then subtree pull --squash by its path after the maintainer moved it", setup: w8libCommit("README.md=# lib\n", "NOTES.md=notes\n"), steps: []plumbingStep{
			bashStep(`git subtree add -q --prefix=vendor/lib ../lib main --squash -m "build: vendor lib"`),
			{stop: true},
			{user: w8libCommit("CHANGES.md=- a change\n", "MORE.md=more\n")},
			bashStep(`git subtree pull -q --prefix=vendor/lib ../lib main --squash -m "build: bump the vendored lib" && git log --oneline -4`),
			{stop: true},
		}},
		{name: "subtree add of a library's whole history from its remote", setup: w8libRemote, steps: []plumbingStep{
			bashStep(`git fetch -q lib && git subtree add -q --prefix=vendor/lib lib/main && git log --oneline --graph -4`),
			{stop: true},
		}},
	}
}

// w8limits are ordinary work the gates still block, each written as a
// limit in kits/gate-sdk/SPEC.md: a name that is not UTF-8 (§the listing
// B). Played with the right expectation, reported, and failed once they
// stop missing.
var w8limits = []plumbingRow{
	{name: "a page whose name is Latin-1, not UTF-8, as an old archive unpacks it, committed", steps: []plumbingStep{
		bashStep(`printf 'Menu.\n' > "docs/caf$(printf '\351').md" && git status --short`),
		{stop: true},
		bashStep(`git add docs && git commit -q -m "docs: the cafe menu" && git log --stat -1 >/dev/null`),
		{stop: true},
	}},
}

func TestAgentWork8Limits(t *testing.T) {
	t.Parallel()
	for _, r := range w8limits {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := w7playLimit(t, r)
			t.Logf("LIMIT | %s | passes untouched | %s", r.name, got)
			if got == "passes untouched" {
				t.Errorf("%s: written as a limit, and it no longer misses: take it out of w8limits and out of the SPEC's limit\n%s", r.name, log)
			}
		})
	}
}

// TestAgentWork8SubtreeRed: a squash sets apart only the library's own
// history; what the agent committed itself and vendored by path, or
// brought into the project's line, is still named.
func TestAgentWork8SubtreeRed(t *testing.T) {
	t.Parallel()
	subject := "check-commit-subject"
	runPlumbingRows(t, []plumbingRow{
		{name: "a commit the agent made in a scratch clone, vendored by its path with subtree add --squash", steps: []plumbingStep{
			bashStep(`git clone -q . ../s && (cd ../s && printf 'x\n' > docs/x.md && git add docs/x.md && git commit -q -n -m "wip") && git subtree add -q --prefix=vendor/s ../s main --squash -m "build: vendor s"`),
		}, expect: stAfter, gate: subject},
		{name: "a commit the agent made here on no ref, vendored with subtree add --squash", steps: []plumbingStep{
			bashStep(`id=$(git commit-tree -m wip HEAD^{tree}) && git subtree add -q --prefix=vendor/self $id --squash -m "build: vendor self"`),
		}, expect: stAfter, gate: subject},
		{name: "a library's history added whole by its path (no squash): it joins the project's line", setup: w8libCommit("README.md=# lib\n"), steps: []plumbingStep{
			bashStep(`git subtree add -q --prefix=vendor/lib ../lib main -m "build: vendor lib"`),
		}, expect: stAfter, gate: subject},
	})
}

func TestAgentWork8Subtree(t *testing.T) {
	t.Parallel()
	rows := w8subtree()
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

// w8ignored are files the agent writes that git ignores (local notes, a
// build's output, an env file): never tracked, never committed, so what
// they hold is no gate's business; the tracked work beside them goes on.
func w8ignored() []plumbingRow {
	return []plumbingRow{
		{name: "a Write of an ignored local note holding a home path, the tracked work committed beside it", steps: []plumbingStep{
			bashStep(`printf '*.local.md\n' >> .gitignore && git commit -q -am "build: ignore local notes"`),
			{write: "docs/mine.local.md", body: "My checkout is at /ho" + "me/marta/src/app.\n"},
			bashStep(w5green + `git commit -q -m "docs: more to read"`),
			{stop: true},
		}},
		{name: "a Write of an ignored .env and of a file in an ignored build directory", steps: []plumbingStep{
			bashStep(`printf '.env\nout/\n' >> .gitignore && git commit -q -am "build: ignore the env file and out"`),
			{write: ".env", body: "HOME_DIR=/ho" + "me/marta\n"},
			{write: "out/report.txt", body: "Built in /ho" + "me/marta/src/app.\n"},
			{stop: true},
		}},
		{name: "a tracked config kept local with update-index --skip-worktree, a machine path written into it", steps: []plumbingStep{
			bashStep(`printf 'root: .\n' > docs/local.yml && git add docs/local.yml && git commit -q -m "docs: a local config template" && git update-index --skip-worktree docs/local.yml`),
			{write: "docs/local.yml", body: "root: /ho" + "me/marta/src/app\n"},
			bashStep(w5green + `git commit -q -m "docs: more to read" && git status --short`),
			{stop: true},
		}},
		{name: "a tracked file set --assume-unchanged, a local path written into it", steps: []plumbingStep{
			bashStep(`printf 'path: .\n' > docs/paths.yml && git add docs/paths.yml && git commit -q -m "docs: a paths file" && git update-index --assume-unchanged docs/paths.yml`),
			bashStep(`printf 'path: /ho` + `me/marta/src\n' > docs/paths.yml && git status --short && ` + w5green + `git commit -q -m "docs: more to read"`),
			{stop: true},
		}},
		{name: "a Write inside a submodule's work tree, committed there: the submodule's business", setup: w8libRemote, steps: []plumbingStep{
			bashStep(`git -c protocol.file.allow=always submodule add -q ../lib vendor/lib && git commit -q -m "build: vendor lib as a submodule"`),
			{write: "vendor/lib/NOTES.md", body: "Built on /ho" + "me/marta's machine.\n"},
			bashStep(`git -C vendor/lib add NOTES.md && git -C vendor/lib commit -q -m "lib notes" && git status --short`),
			{stop: true},
		}},
		{name: "a Write inside a nested clone of another project kept in the tree, untracked", setup: w8libRemote, steps: []plumbingStep{
			bashStep(`git clone -q ../lib examples/lib && git status --short`),
			{write: "examples/lib/NOTES.md", body: "Built on /ho" + "me/marta's machine.\n"},
			bashStep(`cd examples/lib && git add NOTES.md && git commit -q -m "lib notes"`),
			{stop: true},
		}},
		{name: "a symbolic link to a directory made in the tree, then committed", steps: []plumbingStep{
			bashStep(`mkdir -p assets/img && printf 'x\n' > assets/img/a.txt && git add assets && git commit -q -m "docs: assets" && ln -s ../assets/img docs/img && git status --short`),
			{stop: true},
			bashStep(`git add docs/img && git commit -q -m "docs: link the images" && ln -s /usr/share docs/share-link && git status --short`),
			{stop: true},
		}},
		{name: "a Write of a file excluded by .git/info/exclude only", steps: []plumbingStep{
			bashStep(`echo 'scratch/' >> .git/info/exclude`),
			{write: "scratch/plan.md", body: "Plan, kept in /ho" + "me/marta/plans.\n"},
			bashStep(`git status --short`),
			{stop: true},
		}},
	}
}

func TestAgentWork8Ignored(t *testing.T) {
	t.Parallel()
	rows := w8ignored()
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

func TestAgentWork8Spellings(t *testing.T) {
	t.Parallel()
	rows := w8spellings()
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

// w8deleteRemote has the colleague delete a branch on origin (merged
// elsewhere, done with), past any hook.
func w8deleteRemote(branch string) func(p *player) {
	return func(p *player) {
		p.t.Helper()
		tmp := w5colleagueClone(p)
		if r := run(p.t, tmp, w5env(p), "git", "push", "-q", "--no-verify", "origin", "--delete", branch); r.code != 0 {
			p.t.Fatalf("colleague delete: %s", r.stderr)
		}
	}
}

// w8provenance are ordinary moves of remotes and refs after a colleague's
// red commit arrived by fetch: it stays the colleague's, whatever later
// happens to the remote-tracking ref that brought it.
func w8provenance() []plumbingRow {
	red := "docs/colleague.md=" + leakLine
	return []plumbingRow{
		{name: "a colleague's red commit pulled, then origin renamed to upstream and a new origin added and pushed to", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("main", true, red)},
			bashStep(`git pull -q --ff-only`),
			bashStep(`git clone -q --bare ../up.git ../fork.git && git remote rename origin upstream && git remote add origin ../fork.git && git fetch -q origin && git branch -q -u origin/main`),
			bashStep(`git push -q origin main && git status -sb`),
			{stop: true},
		}},
		{name: "a colleague's red branch checked out for review, deleted upstream, fetch --prune, the local branch deleted", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("topic", true, red)},
			bashStep(`git fetch -q && git switch -q -c topic origin/topic && git log --oneline -2 >/dev/null && git switch -q main`),
			{user: w8deleteRemote("topic")},
			bashStep(`git fetch -q --prune && git branch -vv`),
			{stop: true},
			bashStep(`git branch -q -D topic`),
			{stop: true},
		}},
		{name: "a colleague's red commit pulled, then the remote removed (the project moved)", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("main", true, red)},
			bashStep(`git pull -q --ff-only`),
			bashStep(`git remote remove origin && git remote -v`),
			{stop: true},
		}},
		{name: "a colleague's red commit fetched by remote and branch, merged from FETCH_HEAD, another branch fetched after", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("main", true, red)},
			bashStep(`git fetch -q origin main && git merge -q --ff-only FETCH_HEAD`),
			bashStep(`git fetch -q origin side 2>/dev/null; git fetch -q origin && git log --oneline -1`),
			{stop: true},
		}},
		{name: "pull --ff-only by the remote's own URL of a colleague's red commit", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("main", true, red)},
			bashStep(`git pull -q --ff-only "$(git remote get-url origin)" main`),
			{stop: true},
		}},
		{name: "own green work rebased onto a colleague's red commit with rebase origin/main, pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(w5green + `git commit -q -m "docs: more to read"`),
			{user: w5commit("main", true, red)},
			bashStep(`git fetch -q && git rebase -q origin/main && git push -q origin main`),
			{stop: true},
		}},
		{name: "own green commit thrown away with reset --hard origin/main over a colleague's red commit", setup: withOrigin, steps: []plumbingStep{
			bashStep(w5green + `git commit -q -m "docs: more to read"`),
			{user: w5commit("main", true, red)},
			bashStep(`git fetch -q && git reset -q --hard origin/main && git log --oneline -1`),
			{stop: true},
		}},
		{name: "a colleague's red branch fetched into a local branch by refspec, looked at, deleted", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("topic", true, red)},
			bashStep(`git fetch -q origin topic:topic && git switch -q topic && git log --oneline -2 && git switch -q main`),
			{stop: true},
			bashStep(`git branch -q -D topic`),
			{stop: true},
		}},
		{name: "a colleague's red commit pulled, its remote-tracking branch deleted with branch -r -d and fetched again", setup: withOrigin, steps: []plumbingStep{
			{user: w5commit("main", true, red)},
			bashStep(`git pull -q --ff-only && git branch -q -r -d origin/main && git log --oneline -1 && git fetch -q origin`),
			{stop: true},
		}},
	}
}

func TestAgentWork8Provenance(t *testing.T) {
	t.Parallel()
	rows := w8provenance()
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

func TestAgentWork8Sessions(t *testing.T) {
	t.Parallel()
	rows := w8sessions(t)
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

// w8fireIn fires one hook event as Claude Code does while the session's
// working directory is dir (a subdirectory of the clone): the payload's
// cwd and the hook process's own directory are dir.
func w8fireIn(p *player, dir, event, tool string, payload map[string]any) []answer {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
	if err != nil {
		p.t.Fatal(err)
	}
	var doc settingsDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		p.t.Fatal(err)
	}
	base := map[string]any{"session_id": p.session, "transcript_path": "/dev/null", "cwd": dir, "hook_event_name": event}
	for k, v := range payload {
		base[k] = v
	}
	if tool != "" {
		base["tool_name"] = tool
	}
	stdin, _ := json.Marshal(base)
	rel, _ := filepath.Rel(p.dir, dir)
	var out []answer
	for _, g := range doc.Hooks[event] {
		if g.Matcher != nil && *g.Matcher != "" && *g.Matcher != "*" && !regexp.MustCompile("^(?:"+*g.Matcher+")$").MatchString(tool) {
			continue
		}
		for _, h := range g.Hooks {
			cmd := strings.ReplaceAll(h.Command, "$CLAUDE_PROJECT_DIR", p.dir)
			s := &scratch{t: p.t, dir: p.dir, env: p.env}
			code, o, e := s.runStreams(rel, stdin, nil, cmd, h.Args...)
			out = append(out, answer{argv: h.Args, code: code, stdout: o, errs: e})
		}
	}
	return out
}

// A session whose working directory is docs/ from its first call to its
// last: reads, edits, commits, a push, a Stop. Every hook runs from docs/
// with cwd docs/; none may speak.
func TestAgentWork8SubdirectorySession(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w8 subdirectory session")
	p.env = append(p.env, "CLAUDECODE=1")
	withOrigin(p)
	sub := filepath.Join(p.dir, "docs")
	said := func(what string, as []answer) {
		t.Helper()
		reason, refusal, other := words2(as)
		if w := strings.TrimSpace(reason + refusal + other); w != "" {
			t.Errorf("%s: the hooks said: %s", what, w)
		}
	}
	steps := []string{
		`git status --short && ls`,
		`printf 'More to read.\n' > more.md && git add more.md && git commit -q -m "docs: more to read"`,
		`mkdir -p api && printf 'The API.\n' > api/index.md && git add api && git commit -q -m "docs: an API page"`,
		`git mv api reference && git commit -q -m "docs: call it reference"`,
		`printf 'Edited.\n' >> ../README.md && git add ../README.md && git commit -q -m "docs: the README from below"`,
		`git -C .. log --oneline -3 && git log --oneline -- . | wc -l`,
		`git push -q origin main && git status -sb`,
		`cd reference && printf 'Deeper.\n' > deep.md && git add deep.md && git commit -q -m "docs: a deeper page"`,
	}
	for i, c := range steps {
		in := map[string]any{"tool_input": map[string]any{"command": c, "description": "x"}}
		said(fmt.Sprintf("PreToolUse of step %d", i), w8fireIn(p, sub, "PreToolUse", "Bash", in))
		cmd := exec.Command("bash", "-c", c)
		cmd.Dir, cmd.Env = sub, p.env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q failed: %v\n%s", c, err, out)
		}
		in["tool_response"] = map[string]any{"stdout": string(out)}
		said(fmt.Sprintf("PostToolUse of step %d", i), w8fireIn(p, sub, "PostToolUse", "Bash", in))
		if i == 3 {
			said("Stop", w8fireIn(p, sub, "Stop", "", map[string]any{"stop_hook_active": false}))
		}
	}
	path := filepath.Join(sub, "guide.md")
	for _, ev := range []string{"PreToolUse", "PostToolUse"} {
		in := map[string]any{"tool_input": map[string]any{"file_path": path, "old_string": "How", "new_string": "How"}}
		said(ev+" Edit", w8fireIn(p, sub, ev, "Edit", in))
	}
	said("the last Stop", w8fireIn(p, sub, "Stop", "", map[string]any{"stop_hook_active": false}))
	cmd := exec.Command(binPath, "--statusline")
	cmd.Dir, cmd.Env = sub, p.env
	cmd.Stdin = strings.NewReader(`{"session_id": "` + p.session + `", "cwd": "` + sub + `"}`)
	sl, err := cmd.Output()
	if err != nil {
		t.Fatalf("--statusline: %v", err)
	}
	if s := string(sl); strings.Contains(s, "red commit") || strings.Contains(s, "not judged") || strings.Contains(s, "broken") {
		t.Errorf("the status line from docs/: %s", s)
	}
	t.Logf("SUBDIR | a session in docs/ throughout | %d calls | status line %q", len(steps), strings.TrimSpace(string(sl)))
}

// The hooks of a read-only session stay fast: each PreToolUse and
// PostToolUse of git log, show, blame and grep in a clone of some
// history takes a small multiple of `gates --version`.
func TestAgentWork8ReadOnlyIsFast(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w8 read-only fast")
	p.env = append(p.env, "CLAUDECODE=1")
	p.bashQuiet(`for i in $(seq 1 40); do printf 'Line %s.\n' $i >> docs/guide.md; git commit -q -am "docs: line $i"; done`)
	t0 := time.Now()
	for i := 0; i < 5; i++ {
		run(t, p.dir, p.env, binPath, "--version")
	}
	floor := time.Since(t0) / 5
	var slowest time.Duration
	for _, c := range []string{`git log -p >/dev/null`, `git blame docs/guide.md >/dev/null`, `git grep -n Line >/dev/null`, `git show --stat HEAD~7`, `git log --format=%s -- docs | head -3`} {
		in := map[string]any{"tool_input": map[string]any{"command": c, "description": "x"}}
		for _, ev := range []string{"PreToolUse", "PostToolUse"} {
			if ev == "PostToolUse" {
				in["tool_response"] = map[string]any{"stdout": ""}
			}
			t1 := time.Now()
			reason, refusal, other := words2(p.fire(ev, "Bash", in))
			d := time.Since(t1)
			if d > slowest {
				slowest = d
			}
			if w := strings.TrimSpace(reason + refusal + other); w != "" {
				t.Errorf("%s of %q said: %s", ev, c, w)
			}
		}
	}
	t.Logf("FAST | read-only calls | slowest hook %v | gates --version %v", slowest, floor)
	if slowest > 2*time.Second && slowest > 40*floor {
		t.Errorf("a read-only call's hook took %v (gates --version %v)", slowest, floor)
	}
}
