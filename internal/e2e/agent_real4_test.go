package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 41's acceptance, a fourth round on real material: four public Go
// modules of the corpus (many files, workflows with findings accepted at
// adoption, go.mod, scripts of their own) made a git repository with a
// history in the project's own style, adopted with `init --hooks
// --harness claude`, given an origin a colleague pushes to during the
// session, and worked in by an agent through the harness. Ordinary work
// must pass untouched: no block, no reason, a quiet Stop, a status line
// with nothing red. Three things the agent itself gets wrong (a home path
// in a doc, an action pinned by tag, a refused subject) must be named
// right after, and the remedy offered runs and turns the clone green.

// realProject is one corpus module and the work done in it.
type realProject struct {
	module, version string
	// history is the project's subjects, oldest first (its real style).
	history []string
	// subject is a subject the agent writes, in that style.
	subject string
	// goFile is a Go file the agent edits; mdFile a markdown one.
	goFile, mdFile string
	// workflow is edited keeping its pinned actions pinned; pinned is a
	// line in it holding an action pinned by commit id.
	workflow, pinned string
	// script is one of the project's own harmless commands.
	script string
	// colleagueFile is a file with findings accepted at adoption that a
	// colleague changes upstream during the session.
	colleagueFile string
}

var realProjects = []realProject{
	{module: "go.etcd.io/bbolt", version: "v1.4.3",
		history: []string{"Initial import of bbolt", "Fix the freelist release on rollback", "Add a test for concurrent read transactions",
			"tests: use t.TempDir in the simulation tests", "Update go version to 1.23.12", "Document the page split threshold"},
		subject: "Document the Options fields in README", goFile: "doc.go", mdFile: "README.md",
		workflow: ".github/workflows/failpoint_test.yaml", pinned: "actions/checkout@", script: "bash -n scripts/fix.sh && make -n fmt >/dev/null",
		colleagueFile: ".github/workflows/tests_windows.yml"},
	{module: "github.com/junegunn/fzf", version: "v0.65.2",
		history: []string{"Initial import", "Fix --tmux option on older tmux", "Add --gap-line option", "[zsh] Fix completion of paths with spaces",
			"Update CHANGELOG", "Improve the rendering of the preview border"},
		subject: "Clarify the --walker option in README", goFile: "main.go", mdFile: "README.md",
		workflow: ".github/workflows/linux.yml", pinned: "", script: "bash ./install --help >/dev/null",
		colleagueFile: ".github/workflows/winget.yml"},
	{module: "github.com/getsops/sops/v3", version: "v3.13.3",
		history: []string{"Initial import", "Fix the age key lookup on Windows", "Add support for the hcvault token path",
			"Update the release notes for 3.13", "Use io.ReadAll instead of ioutil", "Document the SOPS_AGE_KEY_CMD variable"},
		subject: "Document the --filename-override flag", goFile: "usererrors.go", mdFile: "CONTRIBUTING.md",
		workflow: ".github/workflows/cli.yml", pinned: "actions/checkout@", script: "make -n >/dev/null",
		colleagueFile: ".github/workflows/release.yml"},
	{module: "mvdan.cc/sh/v3", version: "v3.14.1",
		history: []string{"all: initial import", "syntax: fix printing of nested heredocs", "interp: support the pipefail option",
			"cmd/shfmt: add the --apply-ignore flag", "expand: handle empty IFS", "README: mention the Docker images"},
		subject: "syntax: document the Walk order", goFile: "syntax/walk.go", mdFile: "README.md",
		workflow: ".github/workflows/test.yml", pinned: "", script: "go list -m >/dev/null",
		colleagueFile: ".github/workflows/test.yml"},
}

// realTree answers the cached tree of one module: the corpus cache of
// this checkout, or of the main checkout the worktree was made from (the
// module cache is read-only; it is copied, never changed).
func realTree(t *testing.T, module, version string) string {
	t.Helper()
	for _, root := range []string{moduleRoot, os.Getenv("GATES_CORPUS_ROOT")} {
		if root == "" {
			continue
		}
		dir := filepath.Join(root, ".tmp", "corpus", "mod", module+"@"+version)
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
	}
	return corpusDir(t, corpusProject{module: module, version: version})
}

// realClone lays a module's tree in a scratch repository with its
// history, adopts it with the hooks and the harness, commits the
// adoption through the hooks, and gives it an origin main tracks.
func realClone(t *testing.T, rp realProject) *player {
	t.Helper()
	src := realTree(t, rp.module, rp.version)
	parent, _ := filepath.EvalSymlinks(t.TempDir())
	dir := filepath.Join(parent, "repo")
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v\n%s", src, err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", dir).CombinedOutput(); err != nil {
		t.Fatalf("chmod: %v\n%s", err, out)
	}
	p := &player{t: t, dir: dir, session: "real4-" + filepath.Base(dir)}
	p.env = baseEnv(t, "GIT_CEILING_DIRECTORIES="+parent, "CLAUDE_PROJECT_DIR="+dir, "CLAUDECODE=1",
		"GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOCACHE="+realGoCache(t))
	p.session = "real4-" + regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(rp.module, "-")
	p.git("init", "-q", "-b", "main")
	p.git("add", "-A")
	p.git("commit", "-q", "-m", rp.history[0])
	for _, s := range rp.history[1:] {
		p.git("commit", "-q", "--allow-empty", "-m", s)
	}
	if r := run(t, dir, p.env, binPath, "init", "--hooks", "--harness", "claude"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	p.git("add", "-A")
	// The adoption commit goes through the hooks it placed.
	if r := run(t, dir, p.env, "git", "commit", "-q", "-m", "Adopt the gates"); r.code != 0 {
		t.Fatalf("the adoption commit through its own hooks: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	withOrigin(p)
	return p
}

// realColleague pushes, as a colleague, a commit to origin's main that
// changes a file holding findings accepted at adoption, past the hooks
// (a colleague's clone has none placed).
func realColleague(p *player, rel, line string) {
	p.t.Helper()
	parent := filepath.Dir(p.dir)
	tmp := filepath.Join(parent, "colleague")
	if _, err := os.Stat(tmp); err != nil {
		if r := run(p.t, parent, p.env, "git", "clone", "-q", filepath.Join(parent, "up.git"), tmp); r.code != 0 {
			p.t.Fatalf("colleague clone: %s", r.stderr)
		}
	} else {
		run(p.t, tmp, p.env, "git", "pull", "-q", "--rebase")
	}
	f, err := os.OpenFile(filepath.Join(tmp, rel), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		p.t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	env := append(append([]string{}, p.env...), "GIT_AUTHOR_NAME=Colleague", "GIT_AUTHOR_EMAIL=colleague@example.invalid",
		"GIT_COMMITTER_NAME=Colleague", "GIT_COMMITTER_EMAIL=colleague@example.invalid")
	if r := run(p.t, tmp, env, "git", "commit", "-q", "-n", "-am", "Tweak "+filepath.Base(rel)); r.code != 0 {
		p.t.Fatalf("colleague commit: %s%s", r.stdout, r.stderr)
	}
	if r := run(p.t, tmp, env, "git", "push", "-q", "origin", "main"); r.code != 0 {
		p.t.Fatalf("colleague push: %s", r.stderr)
	}
}

// realColleagueNew pushes, as a colleague, a commit adding a file of
// theirs at the root (and its name to the root allowlist) past the hooks.
func realColleagueNew(p *player, rel, body string) {
	p.t.Helper()
	parent := filepath.Dir(p.dir)
	tmp := filepath.Join(parent, "colleague")
	run(p.t, tmp, p.env, "git", "pull", "-q", "--rebase")
	os.WriteFile(filepath.Join(tmp, rel), []byte(body), 0o644)
	f, _ := os.OpenFile(filepath.Join(tmp, "scripts/root-allowlist.list"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(rel + "\n")
	f.Close()
	env := append(append([]string{}, p.env...), "GIT_AUTHOR_NAME=Colleague", "GIT_AUTHOR_EMAIL=colleague@example.invalid",
		"GIT_COMMITTER_NAME=Colleague", "GIT_COMMITTER_EMAIL=colleague@example.invalid")
	run(p.t, tmp, env, "git", "add", "-A")
	if r := run(p.t, tmp, env, "git", "commit", "-q", "-n", "-m", "Add "+rel); r.code != 0 {
		p.t.Fatalf("colleague commit: %s%s", r.stdout, r.stderr)
	}
	if r := run(p.t, tmp, env, "git", "push", "-q", "origin", "main"); r.code != 0 {
		p.t.Fatalf("colleague push: %s", r.stderr)
	}
}

// realColleagueFix pushes, as a colleague, the removal of rel.
func realColleagueFix(p *player, rel string) {
	p.t.Helper()
	tmp := filepath.Join(filepath.Dir(p.dir), "colleague")
	env := append(append([]string{}, p.env...), "GIT_AUTHOR_NAME=Colleague", "GIT_AUTHOR_EMAIL=colleague@example.invalid",
		"GIT_COMMITTER_NAME=Colleague", "GIT_COMMITTER_EMAIL=colleague@example.invalid")
	run(p.t, tmp, env, "git", "pull", "-q", "--rebase")
	run(p.t, tmp, env, "git", "rm", "-q", rel)
	if r := run(p.t, tmp, env, "git", "commit", "-q", "-n", "-m", "Remove "+rel); r.code != 0 {
		p.t.Fatalf("colleague commit: %s%s", r.stdout, r.stderr)
	}
	if r := run(p.t, tmp, env, "git", "push", "-q", "origin", "main"); r.code != 0 {
		p.t.Fatalf("colleague push: %s", r.stderr)
	}
}

// realSession records what each step of one project's session heard.
type realSession struct {
	*player
	rp   realProject
	rows []string
}

// row logs one table row and fails it when the verdict is not the one
// expected.
func (s *realSession) row(step, want, got string) {
	s.t.Helper()
	s.rows = append(s.rows, "REAL4 | "+realName(s.rp.module)+" | "+step+" | "+want+" | "+got)
	if want != got {
		s.t.Errorf("%s: %s: want %s, got %s", s.rp.module, step, want, got)
	}
}

// verdict sums what the hooks of one call said: "quiet", or the words.
func verdict(reason, refusal, other string) string {
	w := strings.TrimSpace(reason + refusal + other)
	if w == "" {
		return "quiet"
	}
	return w
}

// bashCall plays one Bash call through the harness; it answers what the
// hooks said and the command's own output and error.
func (s *realSession) bashCall(command string) (words, out string, err error) {
	s.t.Helper()
	in := map[string]any{"tool_input": map[string]any{"command": command, "description": "x"}}
	reason, refusal, other := words2(s.fire("PreToolUse", "Bash", in))
	if refusal != "" {
		return "refused before it ran: " + refusal, "", nil
	}
	pre := reason + other
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir, cmd.Env = s.dir, s.env
	o, err := cmd.CombinedOutput()
	in["tool_response"] = map[string]any{"stdout": string(o)}
	reason, refusal, other = words2(s.fire("PostToolUse", "Bash", in))
	return verdict(pre+reason, refusal, other), string(o), err
}

// work plays ordinary Bash work that must succeed and pass untouched.
func (s *realSession) work(step, command string) {
	s.t.Helper()
	words, out, err := s.bashCall(command)
	if err != nil {
		s.t.Errorf("%s: %q failed: %v\n%s", step, command, err, out)
	}
	s.row(step, "quiet", words)
}

// editCall plays one Edit tool call: the replacement of old by new in rel
// (exactly once), between its PreToolUse and PostToolUse.
func (s *realSession) editCall(rel, old, new string) string {
	s.t.Helper()
	path := filepath.Join(s.dir, rel)
	in := map[string]any{"tool_input": map[string]any{"file_path": path, "old_string": old, "new_string": new}}
	reason, refusal, other := words2(s.fire("PreToolUse", "Edit", in))
	if refusal != "" {
		return "refused before it ran: " + refusal
	}
	data, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	if n := strings.Count(string(data), old); n != 1 {
		s.t.Fatalf("edit of %s: %q occurs %d times", rel, old, n)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		s.t.Fatal(err)
	}
	in["tool_response"] = map[string]any{"filePath": path, "success": true}
	r2, f2, o2 := words2(s.fire("PostToolUse", "Edit", in))
	return verdict(reason+r2, refusal+f2, other+o2)
}

// writeCall plays one Write tool call of a new file rel.
func (s *realSession) writeCall(rel, body string) string {
	s.t.Helper()
	path := filepath.Join(s.dir, rel)
	in := map[string]any{"tool_input": map[string]any{"file_path": path, "content": body}}
	reason, refusal, other := words2(s.fire("PreToolUse", "Write", in))
	if refusal != "" {
		return "refused before it ran: " + refusal
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		s.t.Fatal(err)
	}
	in["tool_response"] = map[string]any{"filePath": path, "success": true}
	r2, f2, o2 := words2(s.fire("PostToolUse", "Write", in))
	return verdict(reason+r2, refusal+f2, other+o2)
}

// goPackage answers a Go source's package name.
func goPackage(src string) string {
	m := regexp.MustCompile(`(?m)^package (\w+)`).FindStringSubmatch(src)
	if m == nil {
		return "main"
	}
	return m[1]
}

// read plays a Read and a Grep of one file.
func (s *realSession) read(rel string) {
	s.t.Helper()
	path := filepath.Join(s.dir, rel)
	words := ""
	for _, tool := range []string{"Read", "Grep"} {
		in := map[string]any{"tool_input": map[string]any{"file_path": path, "path": filepath.Dir(path), "pattern": "func"}}
		for _, ev := range []string{"PreToolUse", "PostToolUse"} {
			r, f, o := words2(s.fire(ev, tool, in))
			words += r + f + o
		}
	}
	s.row("Read and Grep "+rel, "quiet", verdict(words, "", ""))
}

// firstLine answers the first line of rel holding sub.
func (s *realSession) firstLine(rel, sub string) string {
	s.t.Helper()
	data, err := os.ReadFile(filepath.Join(s.dir, rel))
	if err != nil {
		s.t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	s.t.Fatalf("%s holds no line with %q", rel, sub)
	return ""
}

// stopQuiet plays a Stop and checks the status line.
func (s *realSession) stopQuiet(step string) {
	s.t.Helper()
	reason, refusal, other := words2(s.fire("Stop", "", map[string]any{"stop_hook_active": false}))
	s.row(step+": Stop", "quiet", verdict(reason, refusal, other))
	sl := s.statusWith()
	got := "not red"
	if strings.Contains(sl, "red commit") || strings.Contains(sl, "not judged") || strings.Contains(sl, "broken") {
		got = "status line: " + strings.TrimSpace(sl)
	}
	s.row(step+": status line", "not red", got)
}

var sha40 = regexp.MustCompile(`@[0-9a-f]{40}`)

func TestAgentReal4(t *testing.T) {
	t.Parallel()
	for _, rp := range realProjects {
		rp := rp
		t.Run(realName(rp.module), func(t *testing.T) {
			t.Parallel()
			s := &realSession{player: realClone(t, rp), rp: rp}
			defer func() {
				for _, r := range s.rows {
					t.Log(r)
				}
			}()
			// The project's subjects are not Conventional Commits: the
			// subject gate is left out, and the registry says why.
			list := string(readFile4(t, filepath.Join(s.dir, "scripts/gates.list")))
			why := "not adopted"
			if strings.Contains(list, "# unregistered: check-commit-subject — on-surface: 0 of the 6 recent subjects by people would pass; to adopt: echo check-commit-subject >> scripts/gates.list") {
				why = "left out, the registry saying why"
			}
			s.row("the subject gate on the project's own style", "left out, the registry saying why", why)
			s.work("session start: git status", "git status --short && git log --oneline -5 >/dev/null")
			s.read(rp.mdFile)
			s.read(rp.goFile)

			// An Edit of a Go file (unformatted, as an agent writes it) and
			// gofmt -w over it.
			goSrc := string(readFile4(t, filepath.Join(s.dir, rp.goFile)))
			tail := uniqueTail(goSrc)
			s.row("Edit "+rp.goFile, "quiet", s.editCall(rp.goFile, tail, tail+"\n// realFour answers four.\nfunc realFour() int {return 4}\n"))
			s.work("gofmt -w "+rp.goFile, "gofmt -w "+rp.goFile+" && test -z \"$(gofmt -l "+rp.goFile+")\"")
			s.work("go list -m (the module builds only with the network: no go build)", "go list -m >/dev/null")
			// An Edit of a markdown file.
			md := s.firstLine(rp.mdFile, " ")
			s.row("Edit "+rp.mdFile, "quiet", s.editCall(rp.mdFile, md+"\n", md+"\n\nThe agent's note: nothing here changes behaviour.\n"))
			s.work("commit in the project's style", `git add -A && git commit -q -m "`+rp.subject+`"`)

			// A colleague pushes a change to a file with accepted findings.
			realColleague(s.player, rp.colleagueFile, "# a colleague's note\n")
			s.work("git pull --rebase over the colleague's push", "git pull -q --rebase")
			s.work("git push", "git push -q origin main")

			// A branch, a merge, an amend, a revert.
			s.work("a branch with a commit", `git switch -q -c agent-work && printf '\nMore notes.\n' >> `+rp.mdFile+` && git commit -q -am "`+rp.subject+` further"`)
			s.work("amend on the branch", `printf 'Still more.\n' >> `+rp.mdFile+` && git commit -q -a --amend --no-edit`)
			s.work("merge --no-ff into main", `git switch -q main && git merge -q --no-ff --no-edit agent-work && git branch -q -d agent-work`)
			s.work("revert of the merge", `git revert --no-edit -m 1 HEAD >/dev/null`)

			// A workflow edited, its pinned actions kept pinned.
			wfName := s.firstLine(rp.workflow, "name:")
			s.row("Edit "+rp.workflow, "quiet", s.editCall(rp.workflow, wfName+"\n", wfName+" (edited)\n"))
			if rp.pinned != "" {
				wf := string(readFile4(t, filepath.Join(s.dir, rp.workflow)))
				pin := s.firstLine(rp.workflow, rp.pinned)
				if !sha40.MatchString(pin) {
					t.Fatalf("%s: %q is not pinned by commit id", rp.workflow, pin)
				}
				old := uniqueBefore(wf, pin+"\n")
				s.row("Edit a pinned action's comment in "+rp.workflow, "quiet", s.editCall(rp.workflow, old, strings.TrimSuffix(old, "\n")+" kept pinned\n"))
			}
			// go.mod edited by go mod edit, offline.
			s.work("go mod edit of go.mod", `go mod edit -require=golang.org/x/text@v0.99.0 && go mod edit -droprequire=golang.org/x/text && go mod edit -fmt`)
			s.work("the project's own script", rp.script)
			s.work("commit of the workflow and go.mod", `git add -A && git commit -q -m "`+rp.subject+` in CI"`)
			// A second colleague push, then pull --rebase and push again.
			realColleague(s.player, rp.colleagueFile, "# another note\n")
			s.work("fetch, rebase and push over a second colleague push", "git fetch -q && git rebase -q origin/main && git push -q origin main")
			s.stopQuiet("ordinary work")
			// More everyday work on the real tree.
			cf := string(readFile4(t, filepath.Join(s.dir, rp.colleagueFile)))
			first := strings.SplitAfter(cf, "\n")
			head := first[0] + first[1]
			s.row("Edit of a file with accepted findings ("+rp.colleagueFile+")", "quiet", s.editCall(rp.colleagueFile, uniqueBefore(cf, head), uniqueBefore(cf, head)+"# The agent's note.\n"))
			s.work("commit of it", `git commit -q -am "`+rp.subject+` (ci note)"`)
			s.work("a script made executable, committed", `f=$(git ls-files '*.sh' ':!gate-sdk' | head -1); [ -n "$f" ] || f=`+rp.goFile+`; chmod +x "$f" && git add "$f" && git commit -q --allow-empty -m "`+rp.subject+` (mode)"`)
			// A new top-level directory: the root is governed, so the
			// placed hook names it; the help line's remedy runs.
			words, out, err := s.bashCall(`mkdir -p hack && printf '#!/bin/sh\nset -eu\necho "checking"\n' > hack/check.sh && chmod +x hack/check.sh && git add hack/check.sh && git commit -q -m "` + rp.subject + ` (script)"`)
			hook := words
			if err != nil && strings.Contains(out, "hack: tracked top-level entry is not on the root allowlist") && strings.Contains(out, "add its name (or a glob) to scripts/root-allowlist.list in the same commit") {
				hook = "refused by the git hook with check-root-tiering; the hooks: " + words
			}
			s.row("control: a new top-level directory hack/", "refused by the git hook with check-root-tiering; the hooks: quiet", hook)
			s.work("control remedy: hack added to the root allowlist in the same commit", `echo hack >> scripts/root-allowlist.list && git add scripts/root-allowlist.list hack/check.sh && git commit -q -m "`+rp.subject+` (script)"`)
			sh := string(readFile4(t, filepath.Join(s.dir, "hack/check.sh")))
			s.row("Edit of a shell script", "quiet", s.editCall("hack/check.sh", sh, sh+"echo \"done\"\n"))
			gomod := string(readFile4(t, filepath.Join(s.dir, "go.mod")))
			modLine := strings.SplitAfter(gomod, "\n")[0]
			s.row("Edit of go.mod", "quiet", s.editCall("go.mod", modLine, modLine+"\n// Tidied by the agent.\n"))
			s.work("stash and pop", `git stash -q && git stash pop -q`)
			s.work("fixup and autosquash", `git commit -q -am "fixup! `+rp.subject+` (script)" && GIT_SEQUENCE_EDITOR=true git rebase -q -i --autosquash HEAD~2`)
			renamed := strings.TrimSuffix(rp.colleagueFile, filepath.Ext(rp.colleagueFile)) + "-renamed" + filepath.Ext(rp.colleagueFile)
			s.work("a file with accepted findings renamed", `git mv `+rp.colleagueFile+` `+renamed+` && git commit -q -m "`+rp.subject+` (rename)"`)
			s.work("and renamed back", `git mv `+renamed+` `+rp.colleagueFile+` && git commit -q -m "`+rp.subject+` (rename back)"`)
			s.work("an annotated tag, pushed", `git tag -a v9.9.9 -m "Release v9.9.9" && git push -q origin main v9.9.9`)
			realColleague(s.player, "go.mod", "// a colleague's note\n")
			s.work("a diverged pull made a merge", `printf 'Local.\n' >> `+rp.mdFile+` && git commit -q -am "`+rp.subject+` (local)" && git pull -q --no-rebase --no-edit && git push -q origin main`)
			s.work("gofmt -l over the tree", `gofmt -l . >/dev/null`)
			s.stopQuiet("more work")
			// A colleague pushes a real finding (a home path in a doc of
			// theirs) past the hooks; the agent pulls it and works on.
			realColleagueNew(s.player, "docs-colleague.md", "Set up as in /ho"+"me/marta/setup.\n")
			s.work("pull of a colleague's red commit", "git pull -q --rebase")
			s.row("Edit after the pull", "quiet", s.editCall(rp.mdFile, md+"\n", md+"\n\nAfter the pull.\n"))
			s.stopQuiet("an unfinished edit on red upstream")
			// The placed pre-commit hook judges the tree the commit records,
			// the colleague's line with it: a documented limit (stop-gates
			// P), not the agent hook's word.
			words, out, err = s.bashCall(`git commit -q -am "` + rp.subject + ` (after pull)"`)
			if err != nil && strings.Contains(out, "docs-colleague.md:1:") && strings.Contains(out, "check-tree-terms failed") {
				words = "refused by the git hook for the colleague's line; the hooks: " + words
			}
			s.row("commit on the colleague's red commit", "refused by the git hook for the colleague's line; the hooks: quiet", words)
			realColleagueFix(s.player, "docs-colleague.md")
			s.work("pull of the colleague's fix with the edit stashed, then the commit", `git pull -q --rebase --autostash && git commit -q -am "`+rp.subject+` (after pull)"`)
			s.stopQuiet("after the colleague's fix")

			// Round three of everyday work.
			s.work("a commit with a body through a here-document, signed off", "git commit -q -s --allow-empty -F - <<'EOF'\n"+rp.subject+" (notes)\n\nThe `--flag` text in backticks, a path like ~/.config/app and\nC:\\\\Users\\\\me\\\\app stay as they are.\nEOF")
			s.row("Write of a new page under an existing directory", "quiet", s.writeCall(".github/NOTES.md", "# Notes\n\nRun the tests with `go test ./...`.\n"))
			s.row("Write of a new Go file", "quiet", s.writeCall(filepath.Join(filepath.Dir(rp.goFile), "real4_extra.go"), "package "+goPackage(goSrc)+"\n\n// realFive answers five.\nfunc realFive() int { return 5 }\n"))
			gi := string(readFile4(t, filepath.Join(s.dir, ".gitignore")))
			giLast := strings.SplitAfter(strings.TrimRight(gi, "\n")+"\n", "\n")
			giTail := uniqueTail(gi)
			_ = giLast
			s.row("Edit of .gitignore", "quiet", s.editCall(".gitignore", giTail, giTail+"/dist/\n"))
			s.work("an untracked scratch file at the root, ignored by nothing", `go version > scratch-notes.txt`)
			reason, refusal, other := words2(s.fire("Stop", "", map[string]any{"stop_hook_active": false}))
			s.row("an untracked scratch file at the root: Stop", "named check-root-tiering", namedAs(verdict(reason, refusal, other), "check-root-tiering"))
			s.work("scratch file removed, the rest committed", `rm scratch-notes.txt && git add -A && git commit -q -m "`+rp.subject+` (pages)"`)
			s.work("squash of the last two by reset --soft", `git reset -q --soft HEAD~2 && git commit -q -m "`+rp.subject+` (squashed)"`)
			s.work("push --force-with-lease after rewriting", `git push -q origin main || git push -q --force-with-lease origin main`)
			s.work("read-only looks", `git log -p -3 >/dev/null && git blame `+rp.mdFile+` >/dev/null && git shortlog -sn >/dev/null && git diff HEAD~1 --stat >/dev/null`)
			s.stopQuiet("round three")

			// Round four: the workflows' accepted findings, the project's
			// own battery, history edits.
			tagLine := regexp.MustCompile(`(?m)^.*uses: [A-Za-z0-9_./-]+@v([0-9]+)[^\n]*$`)
			for _, wfPath := range []string{rp.colleagueFile, rp.workflow} {
				body := string(readFile4(t, filepath.Join(s.dir, wfPath)))
				var bump, pin string
				for _, m := range tagLine.FindAllString(body, -1) {
					if strings.Count(body, m+"\n") != 1 {
						continue
					}
					if bump == "" {
						bump = m
					} else if pin == "" {
						pin = m
					}
				}
				if bump != "" {
					v := tagLine.FindStringSubmatch(bump)[1]
					s.row("a tag-pinned action's tag bumped in "+wfPath+" (an accepted finding)", "quiet", s.editCall(wfPath, bump+"\n", strings.Replace(bump, "@v"+v, "@v"+v+"9", 1)+"\n"))
				}
				if pin != "" {
					at := strings.Index(pin, "@")
					s.row("an accepted tag-pinned action pinned by id in "+wfPath, "quiet", s.editCall(wfPath, pin+"\n", pin[:at]+"@0123456789abcdef0123456789abcdef01234567 # "+pin[at+1:]+"\n"))
				}
			}
			s.work("commit of the workflow changes", `printf 'Actions.\n' >> `+rp.mdFile+` && git add -A && git commit -q -m "`+rp.subject+` (actions)"`)
			s.work("gates doctor", `bin/gates doctor >/dev/null 2>&1; true`)
			s.work("the battery, as init's next: line offers it", `bash gate-sdk/bin/run-gates.sh`)
			s.work("a reword by rebase -i", `GIT_SEQUENCE_EDITOR="sed -i '1s/^pick/reword/'" GIT_EDITOR="sed -i '1s/(actions)/(workflows)/'" git rebase -q -i HEAD~1`)
			s.work("a cherry-pick from a side branch", `git switch -q -c side HEAD~1 && printf 'Side.\n' > .github/SIDE.md && git add .github/SIDE.md && git commit -q -m "`+rp.subject+` (side)" && git switch -q main && git cherry-pick side >/dev/null && git branch -q -D side`)
			s.work("a workflow with accepted findings deleted, the deletion reverted", `git rm -q `+rp.colleagueFile+` && git commit -q -m "`+rp.subject+` (drop a workflow)" && git revert --no-edit HEAD >/dev/null`)
			s.work("push", `git push -q --force-with-lease origin main`)
			s.stopQuiet("round four")

			// Round five: commands that only mention a bypass, as text.
			s.work("a heredoc into a doc that mentions --no-verify", "cat >> "+rp.mdFile+" <<'EOF'\n\nContributors: never run `git commit --no-verify`; fix the hook's finding.\nEOF")
			s.work("grep for the words", `grep -rn -e "no-verify" -e "commit -n" `+rp.mdFile+` >/dev/null`)
			s.work("echo of a bypass as text", `echo "git commit -n skips hooks" >/dev/null && printf '%s\n' 'git push --no-verify' >/dev/null`)
			s.work("commit of the doc", `git commit -q -am "`+rp.subject+` (contributing)"`)
			s.stopQuiet("round five")

			// Round six: tools that move HEAD or rewrite the object store.
			s.work("bisect run over the last commits", `git bisect start HEAD HEAD~3 >/dev/null && git bisect run true >/dev/null && git bisect reset >/dev/null 2>&1`)
			s.work("a file restored from an older commit, committed", `git restore --source=HEAD~2 -- `+rp.mdFile+` && git commit -q -am "`+rp.subject+` (restored)" || true`)
			s.work("a note added", `git notes add -m "reviewed" HEAD`)
			s.work("gc and maintenance", `git gc -q && git maintenance run --task=commit-graph >/dev/null 2>&1; true`)
			s.work("gofmt -w over the whole tree, committed", `gofmt -w $(git ls-files '*.go' | head -200) && git add -A && { git diff --cached --quiet || git commit -q -m "`+rp.subject+` (gofmt)"; }`)
			s.stopQuiet("round six")

			// Control 1: a home path in a doc, named right after the Edit;
			// the agent takes it out again.
			s.leakAndTagControls(rp.mdFile, md, rp.workflow)

			// Control 3: a refused subject. A plain commit is refused by the
			// placed hook; landed past it, it is named by id, and the
			// remedy offered (an amend of HEAD) runs.
			refused := "Fix the build from /ho" + "me/marta/src"
			s.work("a change to commit", `printf 'More.\n' >> `+rp.mdFile+` && git add `+rp.mdFile)
			words, out, err = s.bashCall(`git commit -q -m "` + refused + `"`)
			switch {
			case strings.HasPrefix(words, "refused before it ran: ") && strings.Contains(words, "check-commit-msg"):
				words = "refused before it ran with check-commit-msg"
			case err != nil && strings.Contains(out, "check-commit-msg"):
				words = "refused by the git hook with check-commit-msg; the hooks: " + words
			}
			s.row("control: a refused subject, plain commit", "refused before it ran with check-commit-msg", words)
			words, _, _ = s.bashCall(`echo 'git commit -q -n -m "` + refused + `"' | sh`)
			s.row("control: a refused subject landed past the hook", "named check-commit-msg", namedAs(words, "check-commit-msg"))
			remedy := remedyOf(words)
			if !strings.HasPrefix(remedy, "git commit --amend") {
				s.row("control remedy offered", "git commit --amend ...", remedy)
			} else {
				s.work("control remedy: "+remedy, remedy)
			}
			s.stopQuiet("after the remedies")

			// Control 4: a tag pin written by sed, a plain commit: the placed
			// hook refuses it; the agent puts the file back.
			words, out, err = s.bashCall(`sed -i 's#^\(    steps:\)$#\1\n      - uses: actions/setup-python@v5#' ` + rp.workflow + ` && git commit -q -am "` + rp.subject + ` (python)"`)
			if err != nil && strings.Contains(out, "check-action-pinning") {
				words = "refused by the git hook with check-action-pinning; the hooks: " + words
			}
			s.row("control: a tag pin by sed, a plain commit", "refused by the git hook with check-action-pinning; the hooks: quiet", words)
			s.work("control remedy: the workflow put back", `git checkout -- `+rp.workflow)
			// Control 5: a home path in a Go comment landed past the hook
			// through sh: named by id right after; the remedy offered runs,
			// then the agent fixes the line and commits through the hooks.
			words, _, _ = s.bashCall(`printf '\n// Built in /ho` + `me/marta/go.\n' >> ` + rp.goFile + ` && echo 'git commit -q -n -am "` + rp.subject + ` (notes)"' | sh`)
			s.row("control: a home path in a Go comment landed past the hook", "named check-tree-terms", namedAs(words, "check-tree-terms"))
			remedy = remedyOf(words)
			s.work("control remedy: "+remedy, remedy)
			s.work("the line fixed and committed through the hooks", `sed -i 's#/ho`+`me/marta/go#the build directory#' `+rp.goFile+` && git commit -q -am "`+rp.subject+` (notes)"`)
			s.stopQuiet("after the last remedies")

			// Control 6: a quoted log line with a home path. The help line
			// offers `gates baseline`, which is the user's to take (an agent's
			// commit adding to the baseline is named as refused): the words
			// say so, and the agent fixes the line.
			words = s.writeCall(".github/LOG.md", "# A quoted log\n\n    open /ho"+"me/marta/.cache/x: permission denied\n")
			got := namedAs(words, "check-tree-terms")
			if strings.Contains(words, "gates baseline") && !strings.Contains(words, "that is the user's decision, not yours: fix the finding, or ask the user") {
				got = "offered `gates baseline` to the agent: " + words
			}
			s.row("control: a quoted log line with a home path", "named check-tree-terms", got)
			s.work("control remedy: the path in the log replaced, committed", `sed -i 's#/ho`+`me/marta/#$HOME/#' .github/LOG.md && git add -A && git commit -q -m "`+rp.subject+` (a quoted log)"`)
			s.stopQuiet("after the log fixed")
			if sub := strings.TrimSpace(s.git("log", "-1", "--format=%s")); strings.Contains(sub, "marta") {
				t.Errorf("the remedy left HEAD's subject %q", sub)
			}
		})
	}
}

// uniqueTail answers the shortest run of last lines of src that occurs
// once in it, for an Edit that appends after them.
func uniqueTail(src string) string {
	lines := strings.SplitAfter(strings.TrimRight(src, "\n")+"\n", "\n")
	for n := 1; n <= len(lines); n++ {
		tail := strings.Join(lines[len(lines)-n:], "")
		if strings.Count(src, tail) == 1 {
			return tail
		}
	}
	return src
}

// uniqueBefore answers the first occurrence of sub in src with as many
// whole lines before it as make it occur once, for an Edit's old_string.
func uniqueBefore(src, sub string) string {
	i := strings.Index(src, sub)
	start := i
	for strings.Count(src, src[start:i+len(sub)]) > 1 && start > 0 {
		start = strings.LastIndex(src[:start-1], "\n") + 1
	}
	return src[start : i+len(sub)]
}

// realName answers a module's short name (sops, not v3).
func realName(module string) string {
	return filepath.Base(regexp.MustCompile(`/v[0-9]+$`).ReplaceAllString(module, ""))
}

// namedAs answers "named <gate>" when the words name gate, else the words.
func namedAs(words, gate string) string {
	if strings.Contains(words, gate) {
		return "named " + gate
	}
	return words
}

// readFile4 answers a file's bytes or ends the test.
func readFile4(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// leakAndTagControls plays two of the red controls: a home path added to
// mdFile after its line, named right after the Edit and taken out again;
// an action pinned by tag added to workflow's first steps, named, and
// taken out again.
func (s *realSession) leakAndTagControls(mdFile, line, workflow string) {
	t := s.t
	leak := "Build notes live in /ho" + "me/marta/build."
	got := s.editCall(mdFile, line+"\n", line+"\n"+leak+"\n")
	s.row("control: a home path added to "+mdFile, "named check-tree-terms", namedAs(got, "check-tree-terms"))
	s.row("control remedy: the line taken out", "quiet", s.editCall(mdFile, line+"\n"+leak+"\n", line+"\n"))
	tagged := "      - uses: actions/setup-node@v4\n"
	wf := string(readFile4(t, filepath.Join(s.dir, workflow)))
	if !strings.Contains(wf, "\n    steps:\n") {
		t.Fatalf("%s: no steps: at four spaces", workflow)
	}
	steps := uniqueBefore(wf, "\n    steps:\n")
	got = s.editCall(workflow, steps, steps+tagged)
	s.row("control: an action pinned by tag in "+workflow, "named check-action-pinning", namedAs(got, "check-action-pinning"))
	s.row("control remedy: the step taken out", "quiet", s.editCall(workflow, steps+tagged, steps))
}
