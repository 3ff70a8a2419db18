package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 41's acceptance, a sixth round on the side of "none is blocked":
// whole sessions as a coding agent plays them (a feature branch rebased
// and squashed, a bug fixed test first, a package renamed across fifty
// files, docs, CI workflows, a dependency bump, a session resumed the
// next day, two worktrees at once, files written with the Write tool and
// git run through Bash), each of which must pass untouched, and the same
// sessions with the agent's own red commit in the middle, named right
// after, its remedy run, and the session carried on to a quiet Stop.

// w6w is a Write of a file in the clone.
func w6w(path, body string) plumbingStep { return plumbingStep{write: path, body: body} }

// w6goEnv runs go offline on the test's own build cache.
func w6goEnv(t *testing.T) string {
	return `GOCACHE=` + realGoCache(t) + ` GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local `
}

// w6module commits, before the session, a Go module under app/ with a
// package lib/oldname of n files, a command that uses it, and a test.
func w6module(n int) func(p *player) {
	return func(p *player) {
		p.t.Helper()
		root := filepath.Join(p.dir, "app")
		os.MkdirAll(filepath.Join(root, "lib/oldname"), 0o755)
		os.MkdirAll(filepath.Join(root, "cmd/tool"), 0o755)
		os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.invalid/app\n\ngo 1.21\n"), 0o644)
		for i := 0; i < n; i++ {
			body := fmt.Sprintf("package oldname\n\n// F%d answers %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
			if i == 0 {
				body = "// Package oldname holds small numbers.\n" + body
			}
			os.WriteFile(filepath.Join(root, fmt.Sprintf("lib/oldname/f%02d.go", i)), []byte(body), 0o644)
		}
		os.WriteFile(filepath.Join(root, "lib/oldname/sum.go"), []byte("package oldname\n\n// Sum adds up to n, n excluded.\nfunc Sum(n int) int {\n\ts := 0\n\tfor i := 0; i < n; i++ {\n\t\ts += i\n\t}\n\treturn s\n}\n"), 0o644)
		os.WriteFile(filepath.Join(root, "cmd/tool/main.go"), []byte("package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.invalid/app/lib/oldname\"\n)\n\nfunc main() { fmt.Println(oldname.F1(), oldname.Sum(3)) }\n"), 0o644)
		p.git("add", "app")
		p.git("commit", "-q", "-m", "feat: a small app")
	}
}

// w6withOriginModule is withOrigin after w6module.
func w6withOriginModule(n int) func(p *player) {
	return func(p *player) {
		w6module(n)(p)
		withOrigin(p)
	}
}

// w6workflow is a workflow whose actions are pinned and whose
// permissions are set.
const w6workflow = "name: ci\non:\n  push:\n    branches: [main]\n  pull_request:\npermissions:\n  contents: read\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@0123456789abcdef0123456789abcdef01234567 # v4\n      - uses: actions/setup-go@89abcdef0123456789abcdef0123456789abcdef # v5\n        with:\n          go-version: '1.22'\n      - run: go test ./...\n"

// w6ci commits, before the session, the workflow with the action gates
// registered.
func w6ci(p *player) {
	p.t.Helper()
	wf := filepath.Join(p.dir, ".github/workflows/ci.yml")
	os.MkdirAll(filepath.Dir(wf), 0o755)
	os.WriteFile(wf, []byte(w6workflow), 0o644)
	f, _ := os.OpenFile(filepath.Join(p.dir, "scripts/gates.list"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("check-action-pinning\ncheck-action-permissions\n")
	f.Close()
	p.git("add", "-A")
	if r := run(p.t, p.dir, p.env, filepath.Join(p.dir, "bin/gates"), "--only", "check-action-pinning", "check-action-permissions"); r.code != 0 {
		p.t.Fatalf("the workflow is not green before the session: %s%s", r.stdout, r.stderr)
	}
	p.git("commit", "-q", "-m", "ci: a pinned workflow")
}

// w6page is the nth page of a feature, written and committed.
func w6page(n int) []plumbingStep {
	path := fmt.Sprintf("docs/feature/part%d.md", n)
	return []plumbingStep{
		w6w(path, fmt.Sprintf("# Part %d\n\nThe feature, step %d.\n", n, n)),
		bashStep(`git add ` + path + ` && git commit -q -m "docs: feature part ` + fmt.Sprint(n) + `"`),
	}
}

func w6steps(parts ...[]plumbingStep) []plumbingStep {
	var out []plumbingStep
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// w6sessions are whole ordinary sessions, each to pass untouched.
func w6sessions(t *testing.T) []plumbingRow {
	goEnv := w6goEnv(t)
	gofiles := `$(git ls-files 'app/*.go')`
	return []plumbingRow{
		{name: "a feature branch of five commits, rebased on a moved main, squashed by reset --soft, pushed with --force-with-lease", setup: withOrigin, steps: w6steps(
			[]plumbingStep{bashStep(`git fetch -q && git status --short && git switch -q -c feature origin/main`)},
			w6page(1), w6page(2), w6page(3),
			[]plumbingStep{bashStep(`git push -q -u origin feature`)},
			w6page(4), w6page(5),
			[]plumbingStep{{user: colleague(2, false)},
				bashStep(`git fetch -q origin && git log --oneline HEAD..origin/main`),
				bashStep(`git rebase -q origin/main`),
				bashStep(`git log --oneline origin/main..HEAD | wc -l`),
				bashStep(`git reset -q --soft origin/main && git status --short`),
				bashStep(`git commit -q -m "docs: the feature in five parts" -m "Squashed from five commits."`),
				bashStep(`git push -q --force-with-lease origin feature`),
				bashStep(`git log --oneline -3 && git status -sb`),
				{stop: true}})},
		{name: "a bug fixed test first: the failing test, the fix, commit, then --amend", setup: w6module(3), steps: []plumbingStep{
			{read: "app/lib/oldname/sum.go"},
			bashStep(`cd app && ` + goEnv + `go test ./...`),
			w6w("app/lib/oldname/sum_test.go", "package oldname\n\nimport \"testing\"\n\nfunc TestSumIncludesN(t *testing.T) {\n\tif got := Sum(3); got != 6 {\n\t\tt.Fatalf(\"Sum(3) = %d, want 6\", got)\n\t}\n}\n"),
			{bash: `cd app && ` + goEnv + `go test ./lib/...`, failsWith: "FAIL"},
			w6w("app/lib/oldname/sum.go", "package oldname\n\n// Sum adds up to n, n included.\nfunc Sum(n int) int {\n\ts := 0\n\tfor i := 1; i <= n; i++ {\n\t\ts += i\n\t}\n\treturn s\n}\n"),
			bashStep(`cd app && ` + goEnv + `go test ./lib/... && ` + goEnv + `go vet ./...`),
			bashStep(`git add app && git commit -q -m "fix(oldname): Sum includes n" -m "A test shows the off-by-one."`),
			{stop: true},
			w6w("app/lib/oldname/sum_test.go", "package oldname\n\nimport \"testing\"\n\nfunc TestSumIncludesN(t *testing.T) {\n\tfor n, want := range map[int]int{0: 0, 1: 1, 3: 6} {\n\t\tif got := Sum(n); got != want {\n\t\t\tt.Fatalf(\"Sum(%d) = %d, want %d\", n, got, want)\n\t\t}\n\t}\n}\n"),
			bashStep(`cd app && ` + goEnv + `go test ./lib/... && cd .. && git add app && git commit -q --amend --no-edit`),
			bashStep(`git commit -q --amend -m "fix(oldname): Sum includes n" -m "A table test shows the off-by-one and the edges."`),
			bashStep(`git show --stat HEAD | head -20`),
		}},
		{name: "a refactor: git mv of a package directory, sed over fifty files, gofmt, vet, one commit", setup: w6module(50), steps: []plumbingStep{
			bashStep(`git grep -l oldname -- app | wc -l`),
			bashStep(`git mv app/lib/oldname app/lib/numbers`),
			bashStep(`sed -i 's/^package oldname$/package numbers/; s/Package oldname/Package numbers/' app/lib/numbers/*.go`),
			bashStep(`sed -i 's#example.invalid/app/lib/oldname#example.invalid/app/lib/numbers#; s/oldname\./numbers./g' ` + gofiles),
			bashStep(`test -z "$(gofmt -l app)" && cd app && ` + goEnv + `go build ./... && ` + goEnv + `go vet ./...`),
			bashStep(`git status --short | head -5 && git add -A app && git diff --cached --stat | tail -1`),
			bashStep(`git commit -q -m "refactor: rename the oldname package to numbers"`),
			bashStep(`git log --stat -1 --format=%s | tail -1`),
		}},
		{name: "a docs session: markdown with links, tables, fences, CI runner paths, committed in three commits", steps: []plumbingStep{
			{read: "docs/guide.md"},
			w6w("docs/install.md", "# Install\n\nSee the [guide](guide.md) and the [README](../README.md#a-project).\n\n| Platform | Command | Notes |\n|---|---|---|\n| Linux | `make install` | into `/usr/local/bin` |\n| macOS | `brew install gates` | |\n| Windows | `scoop install gates` | `%LOCALAPPDATA%\\gates` |\n\n```sh\ncurl -fsSL https://example.invalid/install.sh | sh\nexport PATH=\"$HOME/.local/bin:$PATH\"\ngates --version\n```\n"),
			bashStep(`git add docs/install.md && git commit -q -m "docs: an install page"`),
			w6w("docs/troubleshooting.md", "# Troubleshooting\n\nOn GitHub's hosted runners the checkout is at `/home/runner/work/<repo>/<repo>`\nand on macOS runners at `/Users/runner/work/<repo>/<repo>`.\n\n```console\n$ gates --only check-tree-terms\ncheck-tree-terms passed\n```\n\n> **Note** the cache lives in `~/.cache/gates`.\n\n1. Run `gates doctor`.\n2. Read [the spec](../gate-sdk/SPEC.md).\n"),
			bashStep(`git add docs/troubleshooting.md && git commit -q -m "docs: troubleshooting"`),
			w6w("docs/guide.md", "# Guide\n\nHow to use it.\n\n- [Install](install.md)\n- [Troubleshooting](troubleshooting.md)\n\n## Options\n\n| Flag | Meaning |\n| :--- | :--- |\n| `--only` | run the named gates |\n| `--emit` | print a projection |\n"),
			w6w("README.md", "# a project\n\nStart with the [guide](docs/guide.md).\n\n![badge](https://example.invalid/badge.svg)\n"),
			bashStep(`git diff --stat && git commit -q -am "docs: link the pages from the guide and the readme"`),
			bashStep(`git log --oneline -3`),
		}},
		{name: "a CI session: a job added to a pinned workflow, then a new workflow file", setup: w6ci, steps: []plumbingStep{
			{read: ".github/workflows/ci.yml"},
			w6w(".github/workflows/ci.yml", w6workflow+"  lint:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n    steps:\n      - uses: actions/checkout@0123456789abcdef0123456789abcdef01234567 # v4\n      - run: make lint\n"),
			bashStep(`git add .github/workflows/ci.yml && git commit -q -m "ci: a lint job"`),
			w6w(".github/workflows/release.yml", "name: release\non:\n  push:\n    tags: ['v*']\npermissions:\n  contents: write\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@0123456789abcdef0123456789abcdef01234567 # v4\n        with:\n          fetch-depth: 0\n      - uses: actions/setup-go@89abcdef0123456789abcdef0123456789abcdef # v5\n        with:\n          go-version: '1.22'\n      - run: make release\n        env:\n          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n"),
			bashStep(`git add .github/workflows/release.yml && git commit -q -m "ci: a release workflow on tags"`),
			bashStep(`bin/gates --only check-action-pinning check-action-permissions >/dev/null && git log --oneline -2`),
		}},
		{name: "a dependency bump: go.mod and go.sum edited, tidy offline, committed", setup: func(p *player) {
			w6module(2)(p)
			os.WriteFile(filepath.Join(p.dir, "app/go.mod"), []byte("module example.invalid/app\n\ngo 1.21\n\nrequire golang.org/x/text v0.14.0 // indirect\n"), 0o644)
			os.WriteFile(filepath.Join(p.dir, "app/go.sum"), []byte("golang.org/x/text v0.14.0 h1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=\ngolang.org/x/text v0.14.0/go.mod h1:18ZOQIKpY8NJVqYksKHtTdi31H5itFRjB5/qKTNYzSU=\n"), 0o644)
			p.git("add", "app")
			p.git("commit", "-q", "-m", "build: depend on x/text")
		}, steps: []plumbingStep{
			{read: "app/go.mod"},
			bashStep(`sed -i 's/golang.org\/x\/text v0.14.0/golang.org\/x\/text v0.21.0/' app/go.mod`),
			w6w("app/go.sum", "golang.org/x/text v0.21.0 h1:zyQAAkrwaneQ066sspRyJaG9VNi/YJ1NfzcGB3hZ/qo=\ngolang.org/x/text v0.21.0/go.mod h1:4IBbMaMmOPCJ8SecivzSH54+73PCFmPWxNTLm+vZkEQ=\n"),
			bashStep(`git diff --stat && git add app/go.mod app/go.sum && git commit -q -m "build(deps): bump golang.org/x/text to v0.21.0"`),
		}},
		{name: "a session resumed the next day under a new session id, after a colleague pushed", setup: withOrigin, steps: []plumbingStep{
			w6w("docs/plan.md", "# Plan\n\n- [ ] first\n"),
			bashStep(`git add docs/plan.md && git commit -q -m "docs: a plan"`),
			w6w("docs/plan.md", "# Plan\n\n- [x] first\n- [ ] second\n"),
			{stop: true},
			{user: colleague(2, false)},
			{session: "s-w6-the-next-day"},
			bashStep(`git status -sb && git fetch -q && git log --oneline HEAD..origin/main`),
			bashStep(`git stash -q && git pull -q --rebase && git stash pop -q`),
			bashStep(`git commit -q -am "docs: the plan moves on" && git push -q origin main`),
			bashStep(`git log --oneline -4`),
			{stop: true},
		}},
		{name: "two sessions in two linked worktrees at once, both pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git worktree add -q -b left ../left origin/main && git worktree add -q -b right ../right origin/main`),
			{session: "s-w6-left"},
			bashStep(`cd ../left && printf 'Left.\n' > docs/left.md && git add docs/left.md && git commit -q -m "docs: the left page"`),
			{session: "s-w6-right"},
			bashStep(`cd ../right && printf 'Right.\n' > docs/right.md && git add docs/right.md && git commit -q -m "docs: the right page"`),
			{session: "s-w6-left"},
			w6w("../left/docs/left.md", "Left, more.\n"),
			bashStep(`cd ../left && git commit -q -am "docs: more on the left" && git push -q -u origin left`),
			{stop: true},
			{session: "s-w6-right"},
			bashStep(`cd ../right && git fetch -q && git rebase -q origin/left && git push -q -u origin right`),
			{stop: true},
			bashStep(`git worktree list >/dev/null && git worktree remove ../left && git worktree remove ../right`),
		}},
		{name: "a session that ends with uncommitted, staged and untracked green work", steps: []plumbingStep{
			w6w("docs/draft.md", "# Draft\n\nNot done.\n"),
			bashStep(`git add docs/draft.md`),
			w6w("docs/guide.md", "How to use it, half rewritten.\n"),
			w6w("notes/todo.txt", "finish the draft\n"),
			bashStep(`git status --short`),
			{stop: true},
		}},
		{name: "a feature branch reordered, reworded and a commit dropped by a scripted rebase -i, merged --no-ff", steps: w6steps(
			[]plumbingStep{bashStep(`git switch -q -c feature`)}, w6page(1), w6page(2), w6page(3), w6page(4),
			[]plumbingStep{
				bashStep(`GIT_SEQUENCE_EDITOR="sed -i -e '2s/^pick/drop/' -e '3s/^pick/reword/'" GIT_EDITOR="sed -i '1s/.*/docs: feature part three/'" git rebase -q -i HEAD~4`),
				bashStep(`git log --oneline main..HEAD`),
				bashStep(`git switch -q main && git merge -q --no-ff --no-edit feature && git branch -q -D feature`),
				{stop: true}})},
		{name: "a release session: version file, changelog, tag, push with --follow-tags", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git describe --tags --always && git log --oneline -5`),
			w6w("VERSION", "1.4.0\n"),
			w6w("CHANGELOG.md", "# Changelog\n\n## 1.4.0 - 2026-12-07\n\n### Added\n\n- an install page ([#41](https://example.invalid/issues/41))\n\n### Fixed\n\n- `Sum` includes `n`\n"),
			bashStep(`git add VERSION CHANGELOG.md && git commit -q -m "chore(release): 1.4.0"`),
			bashStep(`git tag -a v1.4.0 -m "Release 1.4.0" && git push -q --follow-tags origin main`),
			bashStep(`git ls-remote --tags origin | wc -l`),
		}},
		{name: "a docs session of front matter, a mermaid fence, HTML comments and reference links, part staged by add -p", steps: []plumbingStep{
			w6w("docs/arch.md", "---\ntitle: Architecture\nsidebar_position: 2\n---\n\n<!-- generated sections below are edited by hand -->\n\n# Architecture\n\n```mermaid\ngraph LR\n  A[hook] --> B{gates}\n  B -->|red| C[refuse]\n```\n\nSee [the guide][guide] and [the hooks][hooks].\n\n[guide]: guide.md\n[hooks]: https://example.invalid/docs/hooks#pretooluse\n"),
			bashStep(`git add docs/arch.md && git commit -q -m "docs: an architecture page"`),
			w6w("docs/arch.md", "---\ntitle: Architecture\nsidebar_position: 2\n---\n\n<!-- generated sections below are edited by hand -->\n\n# Architecture\n\n```mermaid\ngraph LR\n  A[hook] --> B{gates}\n  B -->|red| C[refuse]\n  B -->|green| D[pass]\n```\n\nSee [the guide][guide] and [the hooks][hooks].\n\n## Footnotes\n\nThe Stop hook[^1] is quiet on green work.\n\n[guide]: guide.md\n[hooks]: https://example.invalid/docs/hooks#pretooluse\n[^1]: It runs when the agent ends its turn.\n"),
			bashStep(`printf 'y\nn\n' | git add -p docs/arch.md >/dev/null && git commit -q -m "docs: the green edge"`),
			bashStep(`git add docs/arch.md && { git diff --cached --quiet || git commit -q -m "docs: a footnote on Stop"; }`),
		}},
		{name: "a shell-script session with check-shellcheck registered: a script written, checked, made executable, committed", setup: func(p *player) {
			f, _ := os.OpenFile(filepath.Join(p.dir, "scripts/gates.list"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("check-shellcheck\n")
			f.Close()
			p.git("add", "-A")
			p.git("commit", "-q", "-m", "build: check shell scripts")
		}, steps: []plumbingStep{
			w6w("scripts/deploy.sh", "#!/bin/sh\n# Deploys the site to the directory named by $1.\nset -eu\ndest=${1:?usage: deploy.sh DIR}\nmkdir -p \"$dest\"\ncp -R site/. \"$dest\"/\necho \"deployed to $dest\"\n"),
			bashStep(`shellcheck scripts/deploy.sh && chmod +x scripts/deploy.sh && git add scripts/deploy.sh && git commit -q -m "build: a deploy script"`),
			w6w("scripts/deploy.sh", "#!/bin/sh\n# Deploys the site to the directory named by $1.\nset -eu\ndest=${1:?usage: deploy.sh DIR}\nmkdir -p \"$dest\"\ncp -R site/. \"$dest\"/\nprintf 'deployed to %s\\n' \"$dest\"\n"),
			bashStep(`git diff --stat && git commit -q -am "build: print with printf"`),
		}},
		{name: "a util module joined to the app by go work init, vetted, committed", setup: w6module(2), steps: []plumbingStep{
			w6w("util/go.mod", "module example.invalid/util\n\ngo 1.21\n"),
			w6w("util/util.go", "// Package util holds helpers.\npackage util\n\n// Twice doubles n.\nfunc Twice(n int) int { return 2 * n }\n"),
			bashStep(`GOTOOLCHAIN=local go work init ./app ./util && cd util && ` + goEnv + `GOFLAGS= go vet ./...`),
			bashStep(`git add util go.work && git commit -q -m "build: a util module in a workspace"`),
		}},
		{name: "a session run from the docs subdirectory: add ., mv, commit and push from there", setup: withOrigin, steps: []plumbingStep{
			bashStep(`cd docs && git status --short . && ls`),
			w6w("docs/faq.md", "# FAQ\n\n**Why?** See [the guide](guide.md).\n"),
			bashStep(`cd docs && git add . && git commit -q -m "docs: a FAQ"`),
			bashStep(`cd docs && git mv faq.md questions.md && git commit -q -m "docs: name the FAQ questions"`),
			bashStep(`cd docs && git push -q origin HEAD && git log --oneline -2 -- .`),
		}},
		{name: "a pull --rebase that conflicts with a colleague's push, resolved with Write, --continue, pushed", setup: withOrigin, steps: []plumbingStep{
			w6w("docs/upstream.md", "mine\n"),
			bashStep(`git add docs/upstream.md && git commit -q -m "docs: my upstream note"`),
			{user: colleague(1, false)},
			{bash: `git pull -q --rebase`, failsWith: "CONFLICT"},
			bashStep(`git diff --name-only --diff-filter=U`),
			w6w("docs/upstream.md", "change 0\nmine\n"),
			bashStep(`git add docs/upstream.md && GIT_EDITOR=true git rebase --continue >/dev/null && git push -q origin main`),
			{stop: true},
		}},
		{name: "a draft written outside the clone with Write, copied in and committed", steps: []plumbingStep{
			w6w("$TMP/draft.md", "# Notes\n\nA draft kept outside the tree.\n"),
			bashStep(`git status --short`),
			w6w("docs/notes.md", "# Notes\n\nA draft kept outside the tree, now in it.\n"),
			bashStep(`git add docs/notes.md && git commit -q -m "docs: notes"`),
		}},
		{name: "a hotfix made on main, cherry-picked -x onto a release branch, both pushed", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git branch -q release/1.x && git push -q -u origin release/1.x`),
			w6w("docs/guide.md", "How to use it (fixed typo).\n"),
			bashStep(`git commit -q -am "fix(docs): a typo in the guide" && git push -q origin main`),
			bashStep(`git switch -q release/1.x && git cherry-pick -x main >/dev/null && git push -q origin release/1.x && git switch -q main`),
			{stop: true},
		}},
		{name: "half-done work put away by stash -u to fix something on another branch, then taken back", steps: []plumbingStep{
			w6w("docs/wip.md", "# Work in progress\n"),
			w6w("docs/guide.md", "How to use it, being rewritten.\n"),
			bashStep(`git stash push -q -u -m "wip: the rewrite" && git switch -q -c urgent`),
			w6w("docs/urgent.md", "Urgent.\n"),
			bashStep(`git add docs/urgent.md && git commit -q -m "docs: the urgent page" && git switch -q main && git merge -q --ff-only urgent`),
			bashStep(`git stash pop -q && git status --short`),
			{stop: true},
		}},
		{name: "a session of Write for every file and Bash only for git", steps: []plumbingStep{
			w6w("src/a.txt", "alpha\n"),
			w6w("src/b.txt", "beta\n"),
			bashStep(`git add src && git commit -q -m "feat: two sources"`),
			w6w("src/a.txt", "alpha, more\n"),
			w6w("src/c.txt", "gamma\n"),
			bashStep(`git add -A src && git commit -q -m "feat: a third source"`),
			w6w("CHANGELOG.md", "# Changelog\n\n## Unreleased\n\n- three sources\n"),
			bashStep(`git add CHANGELOG.md && git commit -q -m "docs: a changelog"`),
			bashStep(`git tag -a v0.1.0 -m "v0.1.0" && git log --oneline --decorate -1`),
		}},
	}
}

func TestAgentWork6Sessions(t *testing.T) {
	t.Parallel()
	rows := w6sessions(t)
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

// The agent's own red commit in the middle of such sessions: named right
// after, its remedy run through the harness, and the session carried on
// to a quiet Stop.
func TestAgentWork6RedInSession(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	goEnv := w6goEnv(t)
	rows := []plumbingRow{
		{name: "a feature branch whose third commit leaks, through sh, then rebased and pushed", setup: withOrigin, steps: w6steps(
			[]plumbingStep{bashStep(`git switch -q -c feature origin/main`)}, w6page(1), w6page(2),
			[]plumbingStep{w6w("docs/feature/part3.md", "# Part 3\n\n"+leakLine), bashStep(`git add docs/feature/part3.md && ` + sh2("docs: feature part 3")),
				{remedy: true},
				w6w("docs/feature/part3.md", "# Part 3\n\nThe feature, step 3.\n"),
				bashStep(`git add docs/feature/part3.md && git commit -q -m "docs: feature part 3"`)},
			w6page(4),
			[]plumbingStep{{user: colleague(1, false)}, bashStep(`git fetch -q && git rebase -q origin/main && git push -q -u origin feature`)}),
			expect: stAfter, gate: tt},
		{name: "a squash by reset --soft whose one commit goes past the hook with a leak", setup: withOrigin, steps: w6steps(
			[]plumbingStep{bashStep(`git switch -q -c feature origin/main`)}, w6page(1), w6page(2),
			[]plumbingStep{w6w("docs/feature/part2.md", "# Part 2\n\n"+leakLine),
				bashStep(`git reset -q --soft origin/main && git add -A && ` + sh2("docs: the feature")),
				{remedy: true},
				w6w("docs/feature/part2.md", "# Part 2\n\nThe feature, step 2.\n"),
				bashStep(`git add -A && git commit -q -m "docs: the feature"`),
				bashStep(`git push -q -u origin feature`)}),
			expect: stAfter, gate: tt},
		{name: "a bug fix whose amend, through sh, puts a leak in the fixed file", setup: w6module(2), steps: []plumbingStep{
			w6w("app/lib/oldname/sum_test.go", "package oldname\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(3) != 3 {\n\t\tt.Fatal(Sum(3))\n\t}\n}\n"),
			bashStep(`cd app && ` + goEnv + `go test ./lib/... && cd .. && git add app && git commit -q -m "test(oldname): Sum"`),
			bashStep(`sed -i '1i // Measured in /ho` + `me/marta/bench.' app/lib/oldname/sum.go && git add app && echo 'git commit -q -n --amend --no-edit' | sh`),
			{remedy: true},
			bashStep(`sed -i '/Measured in/d' app/lib/oldname/sum.go && git add app && git commit -q -m "test(oldname): Sum"`),
		}, expect: stAfter, gate: tt},
		{name: "a refactor over fifty files whose sed writes a leak into one, committed through sh", setup: w6module(50), steps: []plumbingStep{
			bashStep(`git mv app/lib/oldname app/lib/numbers && sed -i 's/^package oldname$/package numbers/' app/lib/numbers/*.go && sed -i 's#example.invalid/app/lib/oldname#example.invalid/app/lib/numbers#; s/oldname\./numbers./g' $(git ls-files 'app/*.go')`),
			bashStep(`sed -i '1i // Moved from /ho` + `me/marta/old.' app/lib/numbers/f07.go && git add -A app && ` + sh2("refactor: rename the package")),
			{remedy: true},
			bashStep(`sed -i '1d' app/lib/numbers/f07.go && git add -A app && git commit -q -m "refactor: rename the package"`),
		}, expect: stAfter, gate: tt},
		{name: "a resumed session whose first commit carries a refused subject through sh", setup: withOrigin, steps: []plumbingStep{
			w6w("docs/plan.md", "# Plan\n"),
			{stop: true},
			{user: colleague(1, false)},
			{session: "s-w6-red-next-day"},
			bashStep(`git pull -q --rebase --autostash && git add docs/plan.md && ` + sh2(redSubject)),
			{remedy: true},
			bashStep(`git push -q origin main`),
		}, expect: stAfter, gate: "check-commit-subject"},
		{name: "a red commit in the second of two linked worktrees while the first session works", steps: []plumbingStep{
			bashStep(`git worktree add -q -b left ../left && git worktree add -q -b right ../right`),
			{session: "s-w6-left"},
			bashStep(`cd ../left && printf 'Left.\n' > docs/left.md && git add docs/left.md && git commit -q -m "docs: the left page"`),
			{session: "s-w6-right"},
			bashStep(`cd ../right && ` + leakCmd + sh2("docs: add notes")),
			{remedy: true},
			bashStep(`cd ../right && git rm -q -f docs/leak.md && git status --short`),
		}, expect: stAfter, gate: tt},
		{name: "a workflow written with a home path, committed past the hook in a CI session", setup: w6ci, steps: []plumbingStep{
			w6w(".github/workflows/nightly.yml", "name: nightly\non:\n  schedule:\n    - cron: '0 3 * * *'\npermissions:\n  contents: read\njobs:\n  n:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@0123456789abcdef0123456789abcdef01234567 # v4\n      - run: cp /ho"+"me/marta/secrets.env .env && make nightly\n"),
			bashStep(`git add .github/workflows/nightly.yml && ` + sh2("ci: a nightly run")),
			{remedy: true},
			bashStep(`sed -i 's#cp /ho` + `me/marta/secrets.env .env#cp "$RUNNER_TEMP/secrets.env" .env#' .github/workflows/nightly.yml && git add .github/workflows/nightly.yml && git commit -q -m "ci: a nightly run"`),
		}, expect: stAfter, gate: tt},
		{name: "a red commit in a session run from the docs subdirectory, through sh", steps: []plumbingStep{
			bashStep(`cd docs && printf 'Keep notes in /ho` + `me/marta/notes.\n' > notes.md && git add . && ` + sh2("docs: notes")),
			{remedy: true},
			bashStep(`cd docs && git rm -q -f notes.md && git status --short`),
		}, expect: stAfter, gate: tt},
		{name: "a squash by reset --soft committed through sh under a refused subject, then pushed", setup: withOrigin, steps: w6steps(
			[]plumbingStep{bashStep(`git switch -q -c feature origin/main`)}, w6page(1), w6page(2),
			[]plumbingStep{bashStep(`git reset -q --soft origin/main && ` + sh2(redSubject)),
				{remedy: true},
				bashStep(`git commit -q -m "docs: the feature in two parts" && git push -q -u origin feature`)}),
			expect: stAfter, gate: "check-commit-subject"},
	}
	runPlumbingRows(t, rows)
}

// A red commit named in one session stays on the status line of the
// next (a session resumed under a new id) while a ref reaches it, holds
// none of that session's Stops, and leaves the line once that session
// repairs it forward (the limit work54 found, lifted at stop 54).
func TestAgentWork6NextSessionStatusLine(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w6 next session")
	p.env = append(p.env, "CLAUDECODE=1")
	p.bashQuiet("git status --short")
	refused, after := p.bash2(leakCmd + sh2("docs: add notes"))
	if refused != "" || !p.namesRed(after, "check-tree-terms") {
		t.Fatalf("the red commit was not named right after: %s%s", refused, after)
	}
	p.stop(false)
	p.session = "s-w6-next-day"
	p.bashQuiet("git status -sb")
	if sl := p.statusWith(); !strings.Contains(sl, "red commit") {
		t.Errorf("the next session's status line shows nothing red: %q", sl)
	}
	if r := p.stop(false); r != "" {
		t.Errorf("the next session's Stop was held for an earlier session's commit: %q", r)
	}
	// Repaired forward in this session: the line clears.
	p.bashQuiet(`git rm -q docs/leak.md && git commit -q -m "docs: drop the notes"`)
	p.stop(false)
	if sl := p.statusWith(); strings.Contains(sl, "red commit") {
		t.Errorf("repaired forward, the status line still shows it: %q", sl)
	}
}
