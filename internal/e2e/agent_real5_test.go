package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ciskip"
)

// Issue 41's acceptance, a fifth round on real material: three further
// public Go modules (cobra, chi, urfave/cli), each made a repository with
// a history in its own style, adopted with `init --hooks --harness
// claude`, given an origin a colleague pushes to and a project upstream
// it was forked from, and worked in by an agent through the harness with
// the module's requirements in a local module cache (so the agent builds,
// vets and tests as it would). About sixty ordinary steps each, none of
// them real4's sequence: a colleague's commits cherry-picked and applied
// from a mailed series, conflicts resolved by hand, stashes, worktrees,
// odd file kinds, an orphan pages branch, the project's own make and go
// tools, tags, a fork's upstream. Each must pass untouched; real4's three
// red controls must be named right after, their remedies run.

// real5Project is a realProject with the places this round works in.
type real5Project struct {
	realProject
	// docDir is an existing directory new pages and files go to; mvDir a
	// directory of the project moved and moved back.
	docDir, mvDir string
	// build is what the agent builds and vets; test one test it runs.
	build, test string
	// deps: the module has requirements, fetched into the corpus cache.
	deps bool
}

var real5Projects = []real5Project{
	{realProject: realProject{module: "github.com/spf13/cobra", version: "v1.10.2",
		history: []string{"Initial import", "Fix flag completion for persistent flags", "Add the ActiveHelp config for zsh",
			"Update the user guide", "Bump pflag to 1.0.9", "Document the Args validators"},
		subject: "Document the completion command in README", goFile: "args.go", mdFile: "README.md",
		workflow: ".github/workflows/test.yml", script: "make -s fmt 2>/dev/null",
		colleagueFile: ".github/workflows/labeler.yml"},
		docDir: "site/content", mvDir: "site/content/docgen", build: ".", test: "go test -count=1 -run 'TestSingleCommand$' .", deps: true},
	{realProject: realProject{module: "github.com/go-chi/chi/v5", version: "v5.5.0",
		history: []string{"Initial import", "Fix the route pattern for a trailing slash", "middleware: add the Throttle backlog",
			"Update CHANGELOG for v5.4", "Support Go 1.26", "README: link the examples"},
		subject: "Clarify the Route grouping in README", goFile: "chi.go", mdFile: "README.md",
		workflow: ".github/workflows/ci.yml", pinned: "actions/checkout@", script: "make -s all",
		colleagueFile: ".github/workflows/ci.yml"},
		docDir: "_examples/fileserver/data", mvDir: "_examples/router-walk", build: "./middleware", test: "go test -count=1 -run 'TestMuxBasic$' ."},
	{realProject: realProject{module: "github.com/urfave/cli/v2", version: "v2.27.7",
		history: []string{"Initial import", "Fix the help output for hidden flags", "Add the Suggest field to the App",
			"Update the v2 docs", "Bump the toml requirement", "Document the flag categories"},
		subject: "Document the flag aliases in README", goFile: "cli.go", mdFile: "README.md",
		workflow: ".github/workflows/cli.yml", script: "make -n vet >/dev/null",
		colleagueFile: ".github/workflows/golangci-lint.yml"},
		docDir: "docs/v2", mvDir: "docs/v1/examples", build: ".", test: "go test -count=1 -run 'TestApp_Run$' .", deps: true},
}

// real5ModCache answers the module cache the corpus keeps, with the
// module's requirements downloaded into it (once; the proxy is asked only
// when the cache lacks them).
func real5ModCache(t *testing.T, tree string, deps bool) string {
	t.Helper()
	cache := filepath.Join(moduleRoot, ".tmp", "corpus", "mod")
	if !deps {
		return cache
	}
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = tree
	cmd.Env = append(os.Environ(), "GOMODCACHE="+cache, "GOFLAGS=-modcacherw", "GO111MODULE=on")
	if out, err := cmd.CombinedOutput(); err != nil {
		ciskip.Missing(t, "module-proxy", "the Go module proxy cannot serve the requirements of "+tree+" here: "+err.Error()+"\n"+string(out))
	}
	return cache
}

// real5Push commits, as someone else, one line appended to rel in a clone
// of the bare repository bare (beside the clone), past any hook, and
// pushes it; with push unset the commit is mailed instead, as a patch in
// ../series5.
func real5Push(p *player, bare, work, rel, line string, push bool) {
	p.t.Helper()
	parent := filepath.Dir(p.dir)
	tmp := filepath.Join(parent, work)
	env := append(append([]string{}, p.env...), "GIT_AUTHOR_NAME=Colleague", "GIT_AUTHOR_EMAIL=colleague@example.invalid",
		"GIT_COMMITTER_NAME=Colleague", "GIT_COMMITTER_EMAIL=colleague@example.invalid")
	if _, err := os.Stat(tmp); err != nil {
		if r := run(p.t, parent, env, "git", "clone", "-q", filepath.Join(parent, bare), tmp); r.code != 0 {
			p.t.Fatalf("clone %s: %s", bare, r.stderr)
		}
	} else {
		run(p.t, tmp, env, "git", "fetch", "-q")
		run(p.t, tmp, env, "git", "reset", "-q", "--hard", "origin/main")
	}
	f, err := os.OpenFile(filepath.Join(tmp, rel), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		p.t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	run(p.t, tmp, env, "git", "add", rel)
	if r := run(p.t, tmp, env, "git", "commit", "-q", "-n", "-m", "Tweak "+filepath.Base(rel)); r.code != 0 {
		p.t.Fatalf("commit in %s: %s%s", work, r.stdout, r.stderr)
	}
	if !push {
		os.RemoveAll(filepath.Join(parent, "series5"))
		if r := run(p.t, tmp, env, "git", "format-patch", "-q", "-o", filepath.Join(parent, "series5"), "origin/main"); r.code != 0 {
			p.t.Fatalf("format-patch: %s", r.stderr)
		}
		run(p.t, tmp, env, "git", "reset", "-q", "--hard", "origin/main")
		return
	}
	if r := run(p.t, tmp, env, "git", "push", "-q", "--no-verify", "origin", "HEAD:main"); r.code != 0 {
		p.t.Fatalf("push from %s: %s", work, r.stderr)
	}
}

// real5Session is a realSession with the limits it met.
type real5Session struct {
	*realSession
	limits []string
}

// hookFailedLine answers the hook's "N of M gate(s) failed" line of out, or
// its last line.
func hookFailedLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "gate(s) failed") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lastLine(out))
}

// failing plays Bash work that fails by itself (a conflict) with text in
// its output, and must still pass the hooks untouched.
func (s *realSession) failing(step, command, text string) {
	s.t.Helper()
	words, out, err := s.bashCall(command)
	if err == nil || !strings.Contains(out, text) {
		s.t.Errorf("%s: %q was to fail with %q: %v\n%s", step, command, text, err, out)
	}
	s.row(step, "quiet", words)
}

func TestAgentReal5(t *testing.T) {
	t.Parallel()
	for _, rp5 := range real5Projects {
		rp5 := rp5
		rp := rp5.realProject
		t.Run(realName(rp.module), func(t *testing.T) {
			t.Parallel()
			tree := realTree(t, rp.module, rp.version)
			cache := real5ModCache(t, tree, rp5.deps)
			p := realClone(t, rp)
			p.session = "real5-" + realName(rp.module)
			p.env = append(p.env, "GOMODCACHE="+cache, "GOSUMDB=off")
			// The fork's project upstream, a remote before the session.
			parent := filepath.Dir(p.dir)
			p.git("clone", "-q", "--bare", p.dir, filepath.Join(parent, "project.git"))
			p.git("remote", "add", "upstream", "../project.git")
			p.git("fetch", "-q", "upstream")
			s := &real5Session{realSession: &realSession{player: p, rp: rp}}
			defer func() {
				for _, r := range s.rows {
					t.Log(strings.Replace(r, "REAL4 |", "REAL5 |", 1))
				}
				for _, l := range s.limits {
					t.Log("REAL5 LIMIT | " + realName(rp.module) + " | " + l)
				}
			}()
			md, gof, doc := rp.mdFile, rp.goFile, rp5.docDir
			subj := rp.subject

			// Looking and building.
			s.work("session start", `git status --short && git remote -v >/dev/null && git log --oneline -3 >/dev/null`)
			s.read(md)
			s.read(gof)
			s.work("go build of the module", `go build `+rp5.build)
			s.work("go vet of a package", `go vet `+rp5.build)
			s.work("one test of the project", rp5.test+` >/dev/null`)
			s.work("go mod tidy, the module's files committed if it changed them", `go mod tidy && git add -A && { git diff --cached --quiet || git commit -q -m "`+subj+` (tidy)"; }`)

			// An edit, formatted, committed with trailers.
			goSrc := string(readFile4(t, filepath.Join(s.dir, gof)))
			tail := uniqueTail(goSrc)
			s.row("Edit "+gof, "quiet", s.editCall(gof, tail, tail+"\n// realFive answers five.\nfunc realFive() int {return 5}\n"))
			s.work("gofmt -w, the build again", `gofmt -w `+gof+` && go build `+rp5.build)
			s.work("the project's own script", rp.script)
			s.work("commit -a with trailers", `git commit -q -a -m "`+subj+`" --trailer "Co-authored-by: Zoë Ångström <zoe@example.invalid>" --trailer "Refs: #12"`)

			// The fork: the project's upstream moved, the agent's work rebased
			// onto it and force-pushed to the fork.
			real5Push(p, "project.git", "project", doc+"/project-notes.md", "The project's notes.\n", true)
			s.work("fetch upstream, rebase onto it, force-push to the fork", `git fetch -q upstream && git rebase -q upstream/main && git push -q --force-with-lease origin main`)

			// A colleague's work taken in three ways.
			realColleague(p, rp.colleagueFile, "# a colleague's note\n")
			s.work("cherry-pick -x of the colleague's commit", `git fetch -q && git cherry-pick -x origin/main >/dev/null`)
			s.work("pull --rebase drops the picked duplicate, push", `git pull -q --rebase && git push -q origin main`)
			real5Push(p, "up.git", "colleague", md, "\nA colleague's mailed line.\n", false)
			s.work("git am -3 of the colleague's mailed patch", `git am -q -3 ../series5/*.patch`)
			realColleague(p, rp.colleagueFile, "# another note\n")
			s.work("fetch and merge --no-ff of the colleague's push", `git fetch -q && git merge -q --no-ff --no-edit origin/main && git push -q origin main`)
			s.stopQuiet("a colleague's work taken in")

			// Stashes and worktrees.
			s.work("stash --keep-index: the staged part committed, the rest popped", `printf '\nStaged.\n' >> `+md+` && git add `+md+` && printf '\n// Unstaged.\n' >> `+gof+` && git stash -q --keep-index && git commit -q -m "`+subj+` (staged)" && git stash pop -q && git commit -q -am "`+subj+` (unstaged)"`)
			s.work("stash branch, merged back", `printf '\nDraft.\n' >> `+md+` && git stash -q && git stash branch drafts >/dev/null && git commit -q -am "`+subj+` (draft)" && git switch -q main && git merge -q --ff-only drafts && git branch -q -d drafts`)
			s.work("a worktree for a fix, committed there, merged, removed", `git worktree add -q -b quickfix ../qf && cd ../qf && printf '\nFrom a worktree.\n' >> `+md+` && git commit -q -am "`+subj+` (worktree)" && cd - >/dev/null && git merge -q --ff-only quickfix && git worktree remove ../qf && git branch -q -d quickfix`)
			s.work("a worktree locked, moved and removed", `git worktree add -q --detach ../lk && git worktree lock ../lk && git worktree unlock ../lk && git worktree move ../lk ../lk2 && git worktree remove ../lk2`)
			s.work("push", `git push -q origin main`)
			s.stopQuiet("stashes and worktrees")

			// Conflicts resolved by hand.
			s.work("two branches change the same line", `git switch -q -c theirs && sed -i '0,/^.* .*$/s//& (theirs)/' `+md+` && git commit -q -am "`+subj+` (theirs)" && git switch -q main && sed -i '0,/^.* .*$/s//& (ours)/' `+md+` && git commit -q -am "`+subj+` (ours)"`)
			s.failing("the merge conflicts", `git merge -q theirs`, "CONFLICT")
			s.work("resolved by hand, committed with the merge's message", `git checkout -q --ours `+md+` && sed -i 's/ (ours)$/ (ours and theirs)/' `+md+` && git add `+md+` && git commit -q --no-edit && git branch -q -D theirs`)
			s.work("a branch for a rebase", `git switch -q -c later && printf '\nLater.\n' >> `+md+` && git commit -q -am "`+subj+` (later)" && git switch -q main && printf '\nSooner.\n' >> `+md+` && git commit -q -am "`+subj+` (sooner)" && git switch -q later`)
			s.failing("the rebase conflicts", `git rebase -q main`, "CONFLICT")
			s.work("resolved by hand, rebase --continue, merged", `printf '%s\n' "$(git show main:`+md+`)" 'Later.' > `+md+` && git add `+md+` && GIT_EDITOR=true git rebase --continue >/dev/null && git switch -q main && git merge -q --ff-only later && git branch -q -d later`)
			s.stopQuiet("conflicts resolved")

			// Files of every kind, under the project's own directories.
			s.work("a directory moved and moved back", `git mv `+rp5.mvDir+` `+rp5.mvDir+`-moved && git commit -q -m "`+subj+` (move)" && git mv `+rp5.mvDir+`-moved `+rp5.mvDir+` && git commit -q -m "`+subj+` (move back)"`)
			wfBase := filepath.Base(rp.colleagueFile)
			wfUpper := strings.ToUpper(wfBase[:1]) + wfBase[1:]
			s.work("a case-only rename and back", `git mv .github/workflows/`+wfBase+` .github/workflows/`+wfUpper+` && git commit -q -m "`+subj+` (case)" && git mv .github/workflows/`+wfUpper+` .github/workflows/`+wfBase+` && git commit -q -m "`+subj+` (case back)"`)
			s.work("a relative symlink", `ln -s ../`+strings.Repeat("../", strings.Count(doc, "/"))+md+` `+doc+`/readme-link.md && git add `+doc+`/readme-link.md && git commit -q -m "`+subj+` (link)"`)
			s.work("a CRLF page", `printf 'Windows notes.\r\nSecond line.\r\n' > `+doc+`/windows.md && git add `+doc+`/windows.md && git commit -q -m "`+subj+` (crlf)"`)
			s.work("unicode file names", `printf 'Café.\n' > `+doc+`/café.md && printf 'Nihongo.\n' > `+doc+`/日本語.md && git add `+doc+` && git commit -q -m "`+subj+` (unicode)"`)
			s.work("a 4 MB generated table", `seq 1 500000 | sed 's/^/row /' > `+doc+`/table.txt && git add `+doc+`/table.txt && git commit -q -m "`+subj+` (table)"`)
			s.work("binary files", `python3 -c 'import random,sys; random.seed(7); open(sys.argv[1],"wb").write(bytes(random.randrange(256) for _ in range(200000)))' `+doc+`/blob.bin && printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' > `+doc+`/logo.png && git add `+doc+` && git commit -q -m "`+subj+` (binaries)"`)
			s.work("the odd files dropped with commit -a", `rm `+doc+`/readme-link.md `+doc+`/windows.md `+doc+`/café.md `+doc+`/日本語.md `+doc+`/table.txt `+doc+`/blob.bin `+doc+`/logo.png && git commit -q -a -m "`+subj+` (tidy up)"`)
			s.work("clean -fd of untracked scratch", `mkdir -p `+doc+`/scratch && go version > `+doc+`/scratch/v.txt && git clean -q -fd `+doc)
			s.stopQuiet("files of every kind")

			// Branches, tags and the fork.
			// A pages branch (§commit-audit C, foreign trees): judged by the
			// gates that need no layout, with main's configuration. Decision
			// (issue 41, stop 55): the hook judged the project's root
			// allowlist and its workflows, untracked on disk, over it.
			s.work("an orphan pages branch of one page, a plain commit, pushed", `git checkout -q --orphan pages && git rm -q -r --cached . && printf 'Pages.\n' > index.html && git add index.html && git commit -q -m "`+subj+` (pages)" && git push -q origin pages`)
			s.work("back to main, the page dropped", `git checkout -q -f main && rm -f index.html`)
			realColleagueBranch5(p, rp.colleagueFile)
			s.work("switch -c from the colleague's remote branch, a commit pushed with -u", `git fetch -q && git switch -q -c review origin/colleague-topic && printf '\nReviewed.\n' >> `+md+` && git commit -q -am "`+subj+` (review)" && git push -q -u origin review && git switch -q main`)
			s.work("restore --source of a file from the colleague's branch, committed", `git restore --source=origin/colleague-topic --staged --worktree `+rp.colleagueFile+` && git commit -q -m "`+subj+` (from the topic)"`)
			s.work("lightweight and annotated tags pushed, one deleted on origin", `git tag v9.7.0 && git tag -a v9.7.1 -m "Release v9.7.1" && git push -q origin v9.7.0 v9.7.1 && git push -q origin :refs/tags/v9.7.0 && git tag -d v9.7.0 >/dev/null`)
			s.work("bisect run over the rebased history", `git bisect start HEAD HEAD~6 >/dev/null && git bisect run sh -c 'test -f go.mod' >/dev/null && git bisect reset >/dev/null 2>&1`)
			s.stopQuiet("branches, tags and the fork")

			// Commits of every spelling.
			s.work("amend --no-edit of a pushed commit, force-with-lease", `printf '\nAmended.\n' >> `+md+` && git commit -q -a --amend --no-edit && git push -q --force-with-lease origin main`)
			s.work("commit -F - from an unquoted heredoc", `printf '\nHeredoc.\n' >> `+md+` && git commit -q -a -F - <<EOF
`+subj+` (heredoc)

Follows $(git rev-parse --short HEAD); see the README.
EOF`)
			s.work("revert of the agent's own green commit", `git revert --no-edit HEAD >/dev/null`)
			s.row("Write of a new test file", "quiet", s.writeCall(filepath.Join(filepath.Dir(gof), "real5_test.go"), "package "+goPackage(goSrc)+"\n\nimport \"testing\"\n\nfunc TestRealFive(t *testing.T) {\n\tif realFive() != 5 {\n\t\tt.Fatal(realFive())\n\t}\n}\n"))
			s.work("the new test run, committed", `go test -count=1 -run 'TestRealFive$' ./`+filepath.Dir(gof)+` >/dev/null && git add -A && git commit -q -m "`+subj+` (test)"`)
			s.work("push", `git push -q --force-with-lease origin main`)
			s.stopQuiet("commits of every spelling")

			// Control 1: a home path in a doc, named right after the Edit.
			mdLine := s.firstLine(md, " ")
			s.leakAndTagControls(md, mdLine, rp.workflow)
			// Control 3: a refused subject landed past the hook, named by
			// id; the amend offered runs.
			refused := "Fix the build from /ho" + "me/marta/src"
			s.work("a change to commit", `printf 'More.\n' >> `+md+` && git add `+md)
			words, _, _ := s.bashCall(`echo 'git commit -q -n -m "` + refused + `"' | sh`)
			s.row("control: a refused subject landed past the hook", "named check-commit-msg", namedAs(words, "check-commit-msg"))
			remedy := remedyOf(words)
			if !strings.HasPrefix(remedy, "git commit --amend") {
				s.row("control remedy offered", "git commit --amend ...", remedy)
			} else {
				s.work("control remedy: "+remedy, remedy)
			}
			s.stopQuiet("after the remedies")
			if sub := strings.TrimSpace(s.git("log", "-1", "--format=%s")); strings.Contains(sub, "marta") {
				t.Errorf("the remedy left HEAD's subject %q", sub)
			}
		})
	}
}

// realColleagueBranch5 pushes, as a colleague, a branch colleague-topic
// off origin's main that appends a line to rel.
func realColleagueBranch5(p *player, rel string) {
	p.t.Helper()
	parent := filepath.Dir(p.dir)
	tmp := filepath.Join(parent, "colleague")
	env := append(append([]string{}, p.env...), "GIT_AUTHOR_NAME=Colleague", "GIT_AUTHOR_EMAIL=colleague@example.invalid",
		"GIT_COMMITTER_NAME=Colleague", "GIT_COMMITTER_EMAIL=colleague@example.invalid")
	run(p.t, tmp, env, "git", "fetch", "-q")
	run(p.t, tmp, env, "git", "checkout", "-q", "-B", "colleague-topic", "origin/main")
	f, err := os.OpenFile(filepath.Join(tmp, rel), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		p.t.Fatal(err)
	}
	f.WriteString("# the colleague's topic\n")
	f.Close()
	if r := run(p.t, tmp, env, "git", "commit", "-q", "-n", "-am", "Topic for "+filepath.Base(rel)); r.code != 0 {
		p.t.Fatalf("colleague commit: %s%s", r.stdout, r.stderr)
	}
	if r := run(p.t, tmp, env, "git", "push", "-q", "--no-verify", "origin", "colleague-topic"); r.code != 0 {
		p.t.Fatalf("colleague push: %s", r.stderr)
	}
	run(p.t, tmp, env, "git", "checkout", "-q", "main")
}
