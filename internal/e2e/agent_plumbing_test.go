package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Issue 41's acceptance, rows written by someone who did not write the
// hook: spellings through git's configuration, plumbing, refs written by
// hand and history rewrites that land or push a commit the gates refuse
// (none of TestAgentUnseenSpellings' rows), ordinary work of the same
// kinds, and the words the model is given after a miss or a block, whose
// remedy is run here to see the judge go green.

// plumbingStep is one call of a row.
type plumbingStep struct {
	bash        string
	write, body string // a Write; a path under $TMP/ lands in a scratch directory outside the clone
	read        string // a Read of a file (and a Grep of its directory)
	stop        bool
	session     string // the calls from here on are this session's
	// user is done by the person's hands (a colleague's push, a change
	// made outside the agent): no hook sees it.
	user func(p *player)
	// failsWith marks ordinary work that fails by itself (a signing key
	// that is not there, a merge conflict): its output holds this text; it
	// must still pass the hooks untouched.
	failsWith string
	// remedy runs the repair the last words the model got offered, through
	// the harness as the agent would; then the clone must go green.
	remedy bool
}

type plumbingRow struct {
	name   string
	setup  func(p *player)
	steps  []plumbingStep
	expect stage
	// other marks ordinary work in another repository: that repository's
	// business, so nothing here says a word.
	other bool
	gate  string
	also  []string
	// from is the first step whose words count: the earlier steps set the
	// scene (a red commit named and undone, say).
	from int
}

func bashStep(cmd string) plumbingStep { return plumbingStep{bash: cmd} }

// withOrigin gives the clone a remote origin (a bare copy beside it) that
// main tracks, before the session.
func withOrigin(p *player) {
	up := filepath.Join(filepath.Dir(p.dir), "up.git")
	p.git("clone", "-q", "--bare", p.dir, up)
	p.git("remote", "add", "origin", up)
	p.git("fetch", "-q", "origin")
	p.git("branch", "-q", "--set-upstream-to=origin/main", "main")
}

// colleague pushes n commits to origin's main; red ones hold a leak.
func colleague(n int, red bool) func(p *player) {
	return func(p *player) {
		up := filepath.Join(filepath.Dir(p.dir), "up.git")
		if red {
			upstreamCommits(p.t, up, p.env, n)
		} else {
			upstreamCleanCommits(p.t, up, p.env, n)
		}
	}
}

var goCache struct {
	once sync.Once
	dir  string
}

// realGoCache answers the build cache of the go that runs these tests, so
// a row that runs go in a clone whose HOME is fresh does not build the
// standard library again.
func realGoCache(t *testing.T) string {
	goCache.once.Do(func() {
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		if err == nil {
			goCache.dir = strings.TrimSpace(string(out))
		}
	})
	if goCache.dir == "" {
		t.Fatal("no go build cache")
	}
	return goCache.dir
}

// landedTips2 answers every ref a commit can be pushed from (all but the
// notes and the stash) and each worktree's HEAD.
func (p *player) landedTips2() []string {
	p.t.Helper()
	var out []string
	for _, l := range strings.Split(run(p.t, p.dir, p.env, "git", "for-each-ref", "--format=%(objectname) %(refname)").stdout, "\n") {
		id, name, ok := strings.Cut(strings.TrimSpace(l), " ")
		if !ok || strings.HasPrefix(name, "refs/notes/") || name == "refs/stash" {
			continue
		}
		out = append(out, id)
	}
	for _, l := range strings.Split(run(p.t, p.dir, p.env, "git", "worktree", "list", "--porcelain").stdout, "\n") {
		if id, ok := strings.CutPrefix(l, "HEAD "); ok {
			out = append(out, strings.TrimSpace(id))
		}
	}
	return out
}

// redLanded2 is redLanded over landedTips2.
func (p *player) redLanded2(before, also []string) []string {
	p.t.Helper()
	args := []string{"--no-replace-objects", "rev-list"}
	for _, id := range p.landedTips2() {
		args = append(args, id)
	}
	for _, id := range before {
		args = append(args, "^"+id)
	}
	var red []string
	listed := run(p.t, p.dir, p.env, "git", args...)
	for _, id := range strings.Fields(listed.stdout) {
		if isRed(p.t, p.dir, p.env, id) {
			red = append(red, id)
		}
	}
	if len(also) > 0 {
		red = append(red, p.redLanded(before, also)...)
	}
	return red
}

// words2 answers what one event's hooks said: the block reasons and
// advice on stdout, the text of a refusal (exit 2) on stderr.
func words2(as []answer) (reason, refusal, other string) {
	for _, a := range as {
		for _, line := range strings.Split(strings.TrimSpace(a.stdout), "\n") {
			if line == "" {
				continue
			}
			var v map[string]any
			if json.Unmarshal([]byte(line), &v) == nil && v["decision"] == "block" {
				r, _ := v["reason"].(string)
				reason += r + "\n"
			} else {
				other += line + "\n"
			}
		}
		if a.code == 2 {
			refusal += a.errs
		} else if a.code != 0 || strings.TrimSpace(a.errs) != "" {
			other += a.errs
		}
	}
	return
}

var backticked = regexp.MustCompile("`([^`]+)`")

// remedyOf answers the command the words offer as the repair, with a
// message these gates pass where the words leave one to the agent.
func remedyOf(words string) string {
	if all := remediesOf(words); len(all) > 0 {
		return all[0]
	}
	return ""
}

// remediesOf answers every repair the words offer, in order: one per red
// commit they name.
func remediesOf(words string) []string {
	var out []string
	if _, after, ok := strings.Cut(words, "restore it: "); ok {
		cmd, _, _ := strings.Cut(after, " (then retry)")
		return []string{strings.TrimSpace(cmd)}
	}
	if _, after, ok := strings.Cut(words, "\nRun "); ok {
		cmd, _, _ := strings.Cut(after, " to put them back")
		return []string{strings.TrimSpace(cmd)}
	}
	for _, line := range strings.Split(words, "\n") {
		if !strings.HasPrefix(line, "To repair commit ") {
			continue
		}
		for _, m := range backticked.FindAllStringSubmatch(line, -1) {
			cmd := m[1]
			if !strings.HasPrefix(cmd, "git ") && !strings.HasPrefix(cmd, "GIT_") {
				continue
			}
			if strings.HasPrefix(cmd, "git ") && strings.Contains(cmd, " rebase -i ") {
				continue // it opens an editor; the editor-free spelling follows
			}
			out = append(out, strings.ReplaceAll(cmd, "<a message these gates pass>", "docs: a clean subject"))
			break
		}
	}
	if len(out) == 0 && strings.Contains(words, "nothing committed is checked") {
		return []string{"git status"}
	}
	return out
}

// playPlumbingRow plays one row and answers how far it got, with what the
// hooks said along the way.
func playPlumbingRow(t *testing.T, r plumbingRow) (stage, string) {
	p := outcomeClone(t, "u2 "+r.name)
	p.env = append(p.env, "CLAUDECODE=1")
	if r.setup != nil {
		r.setup(p)
	}
	p.bashQuiet("git status --short") // the session begins
	before := p.landedTips2()
	var log strings.Builder
	hookSaid := "" // a step's output in which the placed git hook refused
	words := false
	got := stMissed
	var said []string // every text the model got, in order
	ran := map[string]bool{}
	remedied := false
	counts := func(i int) bool { return i >= r.from }
	caught := func(i int, s stage, why string) {
		log.WriteString(s.String() + ": " + why + "\n")
		if !counts(i) {
			return
		}
		if got == stMissed || s < got {
			got = s
		}
	}
	heard := func(i int, what string) {
		log.WriteString(what + "\n")
		if counts(i) {
			words = true
		}
	}
	judge := func(i int, reason, refusal, other, when string, s stage) {
		if reason != "" {
			said = append(said, reason)
			if p.namesRed(reason, r.gate) {
				caught(i, s, reason)
			} else {
				heard(i, when+" said: "+reason)
			}
		}
		if refusal != "" {
			said = append(said, refusal)
			heard(i, when+" refused: "+refusal)
		}
		if other != "" {
			heard(i, when+" said: "+other)
		}
	}
	for i, st := range r.steps {
		switch {
		case st.user != nil:
			st.user(p)
		case st.session != "":
			p.session = st.session
		case st.stop:
			reason, refusal, other := words2(p.fire("Stop", "", map[string]any{"stop_hook_active": false}))
			judge(i, reason, refusal, other, "Stop", stStop)
		case st.read != "":
			path := filepath.Join(p.dir, st.read)
			for _, tool := range []string{"Read", "Grep"} {
				in := map[string]any{"tool_input": map[string]any{"file_path": path, "path": filepath.Dir(path), "pattern": "main"}}
				_, refusal, other := words2(p.fire("PreToolUse", tool, in))
				if refusal != "" || other != "" {
					heard(i, "PreToolUse "+tool+" said: "+refusal+other)
				}
				_, refusal, other = words2(p.fire("PostToolUse", tool, in))
				if refusal != "" || other != "" {
					heard(i, "PostToolUse "+tool+" said: "+refusal+other)
				}
			}
		case st.write != "":
			path := st.write
			if rest, ok := strings.CutPrefix(path, "$TMP/"); ok {
				path = filepath.Join(t.TempDir(), rest)
			} else if !filepath.IsAbs(path) {
				path = filepath.Join(p.dir, path)
			}
			in := map[string]any{"tool_input": map[string]any{"file_path": path, "content": st.body}}
			_, refusal, other := words2(p.fire("PreToolUse", "Write", in))
			if refusal != "" {
				heard(i, "PreToolUse Write refused: "+refusal)
				caught(i, stBefore, refusal)
				continue
			}
			if other != "" {
				heard(i, "PreToolUse Write said: "+other)
			}
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(st.body), 0o755); err != nil {
				t.Fatal(err)
			}
			reason, refusal, other := words2(p.fire("PostToolUse", "Write", in))
			judge(i, reason, refusal, other, "PostToolUse Write", stAfter)
		default:
			command := st.bash
			if st.remedy {
				// The newest words whose remedy has not run yet.
				command = ""
				source := ""
				for k := len(said) - 1; k >= 0 && command == ""; k-- {
					for _, c := range remediesOf(said[k]) {
						if !ran[c] {
							command, source = c, said[k]
							break
						}
					}
				}
				// A red commit a ref holds is on the status line until
				// its remedy runs.
				if strings.Contains(source, "To repair commit ") && !strings.Contains(source, "no ref here holds it") {
					if sl := p.statusWith(); !strings.Contains(sl, "red commit") {
						t.Errorf("%s: a red commit was named, and the status line reads %q", r.name, sl)
					}
				}
				if command == "" {
					t.Errorf("%s: the words offer no remedy to run:\n%s", r.name, strings.Join(said, "\n--\n"))
					return got, log.String()
				}
				ran[command] = true
				log.WriteString("remedy: " + command + "\n")
				remedied = true
			}
			in := map[string]any{"tool_input": map[string]any{"command": command, "description": "x"}}
			reason, refusal, other := words2(p.fire("PreToolUse", "Bash", in))
			if refusal != "" {
				said = append(said, refusal)
				if st.remedy {
					t.Errorf("%s: the remedy %q was refused before it ran:\n%s", r.name, command, refusal)
					return got, log.String()
				}
				heard(i, "PreToolUse refused: "+refusal)
				caught(i, stBefore, refusal)
				if r.expect == stUntouched {
					return stBefore, log.String()
				}
				if counts(i) {
					return got, log.String()
				}
				continue
			}
			if reason != "" || other != "" {
				heard(i, "PreToolUse said: "+reason+other)
			}
			cmd := exec.Command("bash", "-c", command)
			cmd.Dir, cmd.Env = p.dir, p.env
			o, err := cmd.CombinedOutput()
			// The placed hook refused: the gate failed, though another
			// hook of the same commit (pre-commit before commit-msg) passed.
			if strings.Contains(string(o), r.gate) && (!strings.Contains(string(o), "gate(s) passed") || strings.Contains(string(o), r.gate+" failed")) {
				hookSaid += string(o)
			}
			if err != nil && (r.expect == stUntouched || st.remedy) && st.failsWith == "" {
				t.Errorf("%q failed: %v\n%s", command, err, o)
			}
			if st.failsWith != "" && err != nil && !strings.Contains(string(o), st.failsWith) {
				t.Errorf("%q failed, and not by itself:\n%s", command, o)
			}
			in["tool_response"] = map[string]any{"stdout": string(o)}
			reason, refusal, other = words2(p.fire("PostToolUse", "Bash", in))
			judge(i, reason, refusal, other, "PostToolUse", stAfter)
		}
	}
	reason, refusal, other := words2(p.fire("Stop", "", map[string]any{"stop_hook_active": false}))
	n := len(r.steps)
	if got == stMissed || r.expect == stUntouched || remedied {
		judge(n, reason, refusal, other, "the last Stop", stStop)
	}
	if remedied {
		// The remedy ran: the clone is green again, to the Stop and to the
		// status line.
		if reason != "" || refusal != "" {
			t.Errorf("%s: after the remedy the Stop still said:\n%s%s\n%s", r.name, reason, refusal, log.String())
		}
		if sl := p.statusWith(); strings.Contains(sl, "red commit") || strings.Contains(sl, "broken") || strings.Contains(sl, "not judged") {
			t.Errorf("%s: after the remedy the status line reads %q", r.name, sl)
		}
	}
	return p.rowStage(r.name, r.expect, got, words, before, r.also, hookSaid, &log)
}

// rowStage reads how far a played row got: ordinary work is untouched
// unless a hook spoke or the status line shows red; a row caught by a
// hook stands; otherwise a red commit that landed unnamed is missed, a
// git hook's refusal with nothing landed is the hook's, and a row where
// neither happened does not do what it says (an error).
func (p *player) rowStage(name string, expect, got stage, words bool, before, also []string, hookSaid string, log *strings.Builder) (stage, string) {
	if expect == stUntouched {
		if words {
			return stAfter, log.String()
		}
		if sl := p.statusWith(); strings.Contains(sl, "red commit") || strings.Contains(sl, "not judged") || strings.Contains(sl, "broken") {
			return stAfter, log.String() + "status line: " + sl + "\n"
		}
		return stUntouched, log.String()
	}
	if got != stMissed {
		return got, log.String()
	}
	if red := p.redLanded2(before, also); len(red) > 0 {
		log.WriteString("red commits landed unnamed: " + strings.Join(red, " ") + "\n")
		return stMissed, log.String()
	}
	if hookSaid != "" {
		return stHook, log.String() + hookSaid
	}
	p.t.Errorf("%s: nothing red landed and nothing refused it: the row does not do what it says\n%s", name, log.String())
	return stMissed, log.String()
}

func runPlumbingRows(t *testing.T, rows []plumbingRow) {
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playPlumbingRow(t, r)
			want := r.expect.String()
			if r.other {
				want = "another repository's business"
			}
			t.Logf("PLUMBING | %s | %s | %s", r.name, want, got)
			if r.expect == stUntouched && got != stUntouched || got > r.expect || got == stMissed {
				t.Errorf("%s: want %s, got %s\n%s", r.name, want, got, log)
			}
		})
	}
}

// sh commits what is staged through a shell fed on stdin, past the hooks.
func sh2(msg string) string {
	return `echo 'git commit -q -n -m "` + msg + `"' | sh`
}

// fakeBin writes a script that exits 0 at ../fake.
const fakeBin = `printf '#!/bin/sh\nexit 0\n' > ../fake && chmod +x ../fake && `

// fullTreeLeak builds, with no index, a tree that is HEAD's plus the leak
// under docs/, and answers it in $rt.
const fullTreeLeak = `bl=$(printf 'Keep notes in /ho` + `me/marta/notes.\n' | git hash-object -w --stdin) && ` +
	`dt=$( (git ls-tree HEAD:docs; printf '100644 blob %s\tleak.md\n' $bl) | git mktree) && ` +
	`rt=$(git ls-tree HEAD | sed "s/^040000 tree [0-9a-f]*\tdocs\$/040000 tree $dt\tdocs/" | git mktree) && `

// leakPatch is a mail a person could have written, adding the leak.
const leakPatch = "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n" +
	"From: t <t@example.invalid>\nDate: Mon, 7 Dec 2026 00:00:00 +0000\nSubject: [PATCH] %s\n\n---\n" +
	" docs/leak.md | 1 +\n 1 file changed, 1 insertion(+)\n create mode 100644 docs/leak.md\n\n" +
	"diff --git a/docs/leak.md b/docs/leak.md\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/docs/leak.md\n@@ -0,0 +1 @@\n+%s\n-- \n2.39.5\n\n"

func TestAgentPlumbingSpellings(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	const msg = "docs: add notes"
	leakBody := strings.TrimSuffix(leakLine, "\n")
	patch := sprintfPatch
	rows := []plumbingRow{
		// Configuration from places the guard does not read.
		{name: "-c includeIf.onbranch to a file with a hooks path", steps: []plumbingStep{bashStep(`printf '[core]\n\thooksPath = /dev/null\n' > ../nohooks && ` + leakCmd + `git -c includeIf.onbranch:main.path=$PWD/../nohooks commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "GIT_CONFIG_GLOBAL with a bypass alias", steps: []plumbingStep{bashStep(`printf '[alias]\n\tci = commit --no-verify\n' > ../g && ` + leakCmd + `GIT_CONFIG_GLOBAL=$PWD/../g git ci -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "GIT_CONFIG_SYSTEM with a bypass alias, NOSYSTEM off", steps: []plumbingStep{bashStep(`printf '[alias]\n\tci = commit -n\n' > ../g && ` + leakCmd + `GIT_CONFIG_NOSYSTEM=0 GIT_CONFIG_SYSTEM=$PWD/../g git ci -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "GIT_CONFIG_GLOBAL setting a hooks path the clone's own overrides", steps: []plumbingStep{bashStep(`printf '[core]\n\thooksPath = /dev/null\n' > ../g && ` + leakCmd + `GIT_CONFIG_GLOBAL=$PWD/../g git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "a bypass alias appended to .git/config", steps: []plumbingStep{bashStep(`printf '[alias]\n\tci = commit -n\n' >> .git/config && ` + leakCmd + `git ci -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "config --worktree core.hooksPath", steps: []plumbingStep{bashStep(`git config extensions.worktreeConfig true && git config --worktree core.hooksPath /dev/null && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stBefore, gate: tt},
		{name: "config.worktree written by printf", steps: []plumbingStep{bashStep(`git config extensions.worktreeConfig true && printf '[core]\n\thooksPath = /dev/null\n' > .git/config.worktree && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "a linked worktree's config.worktree", steps: []plumbingStep{bashStep(`git worktree add -q -b feat ../wt7 && git config extensions.worktreeConfig true && printf '[core]\n\thooksPath = /dev/null\n' > .git/worktrees/wt7/config.worktree && cd ../wt7 && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		// History written by other commands.
		{name: "subtree add of a sibling holding a leak", steps: []plumbingStep{bashStep(`git init -q -b main ../lib && cd ../lib && mkdir docs && ` + leakCmd + `git commit -q -m "` + msg + `" && cd - >/dev/null && git subtree add -q --prefix=vendor/lib ../lib main`)}, expect: stAfter, gate: tt},
		{name: "rebase --root --exec adding a leak", steps: []plumbingStep{bashStep(`git rebase -q --root --exec 'test -e docs/leak.md || { printf "Keep notes in /h""ome/marta/notes.\n" > docs/leak.md && git add docs/leak.md && git commit -q -n -m "docs: add notes"; }'`)}, expect: stAfter, gate: tt},
		{name: "a green commit amended red by commit-tree", steps: []plumbingStep{
			bashStep(`printf 'More to read.\n' > docs/more.md && git add docs/more.md && git commit -q -m "docs: more to read"`),
			bashStep(leakCmd + `c=$(git commit-tree -p HEAD^ -m "$(git log -1 --format=%B)" $(git write-tree)) && git update-ref refs/heads/main $c`)}, expect: stAfter, gate: tt},
		{name: "a green commit's subject amended by an editor", steps: []plumbingStep{
			bashStep(`printf 'More to read.\n' > docs/more.md && git add docs/more.md && git commit -q -m "docs: more to read"`),
			bashStep(`printf '#!/bin/sh\nsed -i "1s/.*/` + redSubject + `/" "$1"\n' > ../ed && chmod +x ../ed && GIT_EDITOR=../ed git commit -q --amend`)}, expect: stHook, gate: subj},
		{name: "a green commit's subject amended by an editor, through sh", steps: []plumbingStep{
			bashStep(`printf 'More to read.\n' > docs/more.md && git add docs/more.md && git commit -q -m "docs: more to read"`),
			bashStep(`printf '#!/bin/sh\nsed -i "1s/.*/` + redSubject + `/" "$1"\n' > ../ed && chmod +x ../ed && echo 'GIT_EDITOR=../ed git commit -q -n --amend' | sh`)}, expect: stAfter, gate: subj},
		{name: "a red commit undone, then restored from the reflog", steps: []plumbingStep{
			bashStep(leakCmd + sh2(msg)), bashStep(`git reset -q --hard HEAD^`), bashStep(`git reset -q --hard 'HEAD@{1}'`)}, from: 2, expect: stAfter, gate: tt},
		{name: "a red commit undone, then fast-forwarded to from ORIG_HEAD", steps: []plumbingStep{
			bashStep(leakCmd + sh2(msg)), bashStep(`git reset -q --hard HEAD^`), bashStep(`git merge -q --ff-only ORIG_HEAD`)}, from: 2, expect: stAfter, gate: tt},
		{name: "a red commit undone, then a branch made at it by id", steps: []plumbingStep{
			bashStep(leakCmd + sh2(msg) + ` && git rev-parse HEAD > ../red-id`), bashStep(`git reset -q --hard HEAD^`), bashStep(`git branch -q again $(cat ../red-id)`)}, from: 2, expect: stAfter, gate: tt},
		{name: "update-ref to a whole tree built by hash-object and mktree", steps: []plumbingStep{bashStep(fullTreeLeak + `c=$(git commit-tree -p HEAD -m "` + msg + `" $rt) && git update-ref refs/heads/main $c`)}, expect: stAfter, gate: tt},
		{name: "a sibling's red commit pulled by path as a merge", steps: []plumbingStep{
			bashStep(`printf 'More to read.\n' > docs/more.md && git add docs/more.md && git commit -q -m "docs: more to read"`),
			bashStep(`git clone -q . ../s && cd ../s && git reset -q --hard HEAD^ && ` + leakCmd + `git commit -q -m "` + msg + `" && cd - >/dev/null && git pull -q --no-rebase --no-edit ../s main`)}, expect: stAfter, gate: tt},
		{name: "a sibling's red commit pulled by path with --rebase", steps: []plumbingStep{
			bashStep(`git clone -q . ../s && cd ../s && ` + leakCmd + `GIT_COMMITTER_EMAIL=someone@example.invalid git commit -q -m "` + msg + `" && cd - >/dev/null && git pull -q --rebase ../s main`)}, expect: stAfter, gate: tt},
		{name: "a sibling fetched by path into origin's tracking ref, another identity", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git clone -q . ../s && cd ../s && ` + leakCmd + `GIT_COMMITTER_EMAIL=someone@example.invalid git commit -q -m "` + msg + `" && cd - >/dev/null && git fetch -q ../s main:refs/remotes/origin/main && git merge -q --ff-only origin/main`)}, expect: stAfter, gate: tt},
		{name: "a sibling fetched by path, FETCH_HEAD merged, another identity", setup: withOrigin, steps: []plumbingStep{
			bashStep(`git clone -q . ../s && cd ../s && ` + leakCmd + `GIT_COMMITTER_EMAIL=someone@example.invalid git commit -q -m "` + msg + `" && cd - >/dev/null && git fetch -q ../s main && git merge -q --ff-only FETCH_HEAD`)}, expect: stAfter, gate: tt},
		{name: "a sibling's red commit cherry-picked from FETCH_HEAD", steps: []plumbingStep{
			bashStep(`git clone -q . ../s && cd ../s && ` + leakCmd + `git commit -q -m "` + msg + `" && cd - >/dev/null && git fetch -q ../s main && git cherry-pick FETCH_HEAD >/dev/null`)}, expect: stAfter, gate: tt},
		{name: "git am of a patch the agent wrote", steps: []plumbingStep{{write: "../p.patch", body: patch(msg, leakBody)}, bashStep(`git am -q ../p.patch`)}, expect: stAfter, gate: tt},
		{name: "git am of a patch with a refused subject", steps: []plumbingStep{{write: "../p.patch", body: patch(redSubject, "A clean line.")}, bashStep(`git am -q ../p.patch`)}, expect: stAfter, gate: subj},
		{name: "apply --index then commit -n", steps: []plumbingStep{{write: "../p.patch", body: patch(msg, leakBody)}, bashStep(`git apply --index ../p.patch && git commit -q -n -m "` + msg + `"`)}, expect: stBefore, gate: tt},
		{name: "apply --cached then commit-tree", steps: []plumbingStep{{write: "../p.patch", body: patch(msg, leakBody)}, bashStep(`git apply --cached ../p.patch && c=$(git commit-tree -p HEAD -m "` + msg + `" $(git write-tree)) && git update-ref refs/heads/main $c`)}, expect: stAfter, gate: tt},
		{name: "a past committer date", steps: []plumbingStep{bashStep(leakCmd + `echo 'GIT_COMMITTER_DATE=2001-01-01T00:00:00Z GIT_AUTHOR_DATE=2001-01-01T00:00:00Z git commit -q -n -m "docs: add notes"' | sh`)}, expect: stAfter, gate: tt},
		{name: "a future committer date", steps: []plumbingStep{bashStep(leakCmd + `echo 'GIT_COMMITTER_DATE=2099-01-01T00:00:00Z git commit -q -n -m "docs: add notes"' | sh`)}, expect: stAfter, gate: tt},
		{name: "a past-dated red commit under a green tip", steps: []plumbingStep{bashStep(leakCmd + `echo 'GIT_COMMITTER_DATE=2001-01-01T00:00:00Z git commit -q -n -m "docs: add notes"' | sh && git rm -q docs/leak.md && git commit -q -m "docs: drop the notes"`)}, expect: stAfter, gate: tt},
		{name: "merge -s ours with a refused subject", steps: []plumbingStep{bashStep(`git merge -q -s ours -m "` + redSubject + `" side`)}, expect: stHook, gate: subj},
		{name: "merge -s ours with a refused subject, through sh", steps: []plumbingStep{bashStep(`echo 'git merge -q -s ours --no-verify -m "` + redSubject + `" side' | sh`)}, expect: stAfter, gate: subj},
		{name: "checkout --orphan then a plain commit", steps: []plumbingStep{bashStep(`git checkout -q --orphan fresh && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "switch --detach, commit, branch -f", steps: []plumbingStep{bashStep(`git switch -q --detach && ` + leakCmd + sh2(msg) + ` && git branch -f main HEAD && git switch -q main`)}, expect: stAfter, gate: tt},
		{name: "an annotated tag on a red loose commit", steps: []plumbingStep{bashStep(leakCmd + `c=$(git commit-tree -p HEAD -m "` + msg + `" $(git write-tree)) && git tag -a v9 -m "release 9" $c && git reset -q`)}, expect: stAfter, gate: tt},
		{name: "stash store of a red loose commit, then a branch at it", steps: []plumbingStep{bashStep(leakCmd + `c=$(git commit-tree -p HEAD -m "` + msg + `" $(git write-tree)) && git reset -q && git stash store -m x $c && git branch -q kept 'stash@{0}' && git stash drop -q`)}, expect: stAfter, gate: tt},
		{name: "a red loose commit under a ref of its own namespace", steps: []plumbingStep{bashStep(leakCmd + `c=$(git commit-tree -p HEAD -m "` + msg + `" $(git write-tree)) && git reset -q && git update-ref refs/keep/x $c`)}, expect: stAfter, gate: tt},
		// The placed hooks swapped.
		{name: "pre-commit replaced by cp of /bin/true", steps: []plumbingStep{bashStep(`cp /bin/true .git/gate-hooks/pre-commit && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "pre-commit replaced by install", steps: []plumbingStep{bashStep(`install -m 755 /bin/true .git/gate-hooks/pre-commit && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "hooks replaced by tar x", steps: []plumbingStep{bashStep(`mkdir -p ../t && cp /bin/true ../t/pre-commit && tar -C ../t -cf ../h.tar pre-commit && tar -C .git/gate-hooks -xf ../h.tar && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "hooks replaced by cp -r of a directory (no rsync here)", steps: []plumbingStep{bashStep(`mkdir -p ../h2 && cp /bin/true ../h2/pre-commit && cp /bin/true ../h2/commit-msg && cp -r ../h2/. .git/gate-hooks/ && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "the hooks directory a link to an empty one", steps: []plumbingStep{bashStep(`mkdir -p ../nh && mv .git/gate-hooks ../gh.old && ln -s $PWD/../nh .git/gate-hooks && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "hooks path dropped by sed, .git/hooks filled", steps: []plumbingStep{bashStep(`sed -i '/hooksPath/d' .git/config && cp /bin/true .git/hooks/pre-commit && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "worktree add --detach, a plain commit there", steps: []plumbingStep{bashStep(`git worktree add -q --detach ../wt8 && cd ../wt8 && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "worktree add --detach, python commits there", steps: []plumbingStep{bashStep(`git worktree add -q --detach ../wt8 && cd ../wt8 && ` + leakCmd + `python3 -c 'import subprocess; subprocess.run(["git","commit","-q","-n","-m","docs: add notes"])'`)}, expect: stAfter, gate: tt},
		// The binary swapped.
		{name: "binary swapped by mv, a plain commit", steps: []plumbingStep{bashStep(fakeBin + `mv ../fake bin/gates && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "binary swapped by ln -sf, a plain commit", steps: []plumbingStep{bashStep(`ln -sf /bin/true bin/gates && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "binary swapped by python os.replace, a plain commit", steps: []plumbingStep{bashStep(fakeBin + `python3 -c 'import os; os.replace("../fake", "bin/gates")' && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "binary swapped by go build -o, a plain commit", steps: []plumbingStep{bashStep(`mkdir -p ../fakego && printf 'package main\n\nfunc main() {}\n' > ../fakego/main.go && (cd ../fakego && GOCACHE=` + realGoCache(t) + ` go build -o ../repo/bin/gates main.go) && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "binary swapped by cp, a commit through sh, then restored", steps: []plumbingStep{bashStep(`cp /bin/true bin/gates && ` + leakCmd + sh2(msg)), {remedy: true}, {remedy: true}, bashStep(`git rm -q -f --cached docs/leak.md; rm -f docs/leak.md`)}, expect: stAfter, gate: tt},
		// The judge's state.
		{name: "state dir removed by find -delete in the commit's command", steps: []plumbingStep{bashStep(`find .git/gates-agent -delete && ` + leakCmd + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "state dir removed, the commit next", steps: []plumbingStep{bashStep(`rm -rf .git/gates-agent`), bashStep(leakCmd + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "state dir's records forged in the commit's command", steps: []plumbingStep{bashStep(leakCmd + sh2(msg) + ` && for f in .git/gates-agent/*.tips .git/gates-agent/*.base; do git show-ref --head > "$f"; done`)}, expect: stAfter, gate: tt},
	}
	runPlumbingRows(t, rows)
}

// sprintfPatch fills leakPatch.
func sprintfPatch(subject, body string) string {
	s := strings.Replace(leakPatch, "%s", subject, 1)
	return strings.Replace(s, "%s", body, 1)
}

func TestAgentPlumbingOrdinaryWork(t *testing.T) {
	t.Parallel()
	green := `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `
	const leakMsg = "docs: add notes"
	rows := []plumbingRow{
		{name: "commit -v", steps: []plumbingStep{bashStep(green + `git commit -q -v -m "docs: more to read"`)}},
		{name: "commit -s", steps: []plumbingStep{bashStep(green + `git commit -q -s -m "docs: more to read"`)}},
		{name: "commit --signoff", steps: []plumbingStep{bashStep(green + `git commit -q --signoff -m "docs: more to read"`)}},
		{name: "commit -S with no key fails by itself", steps: []plumbingStep{{bash: green + `git commit -q -S -m "docs: more to read"`, failsWith: "gpg"}, bashStep(`git reset -q`)}},
		{name: "revert of a green commit", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read"`), bashStep(`git revert --no-edit HEAD >/dev/null`)}},
		{name: "cherry-pick of a colleague's green commit", setup: withOrigin, steps: []plumbingStep{{user: colleague(1, false)}, bashStep(`git fetch -q origin && git cherry-pick origin/main >/dev/null`)}},
		{name: "stash with a refused message, then pop", steps: []plumbingStep{bashStep(`printf 'draft\n' >> docs/guide.md && git stash push -q -m "` + redSubject + `" docs/guide.md && git stash pop -q && git checkout -q docs/guide.md`)}},
		{name: "restore --staged", steps: []plumbingStep{bashStep(`printf 'x\n' > docs/n.md && git add docs/n.md && git restore --staged docs/n.md && rm docs/n.md`)}},
		{name: "clean -n", steps: []plumbingStep{bashStep(`printf 'x\n' > junk.tmp && git clean -n && git clean -n -x && rm junk.tmp`)}},
		{name: "clean -fd", steps: []plumbingStep{bashStep(`mkdir -p scratch && printf 'x\n' > scratch/a && git clean -q -fd`)}},
		{name: "worktree add and remove", steps: []plumbingStep{bashStep(`git worktree add -q -b w9 ../wt9 && git worktree remove ../wt9 && git branch -q -D w9`)}},
		{name: "branch -D of a red branch the agent made", steps: []plumbingStep{
			bashStep(leakCmd + `c=$(git commit-tree -p HEAD -m "` + leakMsg + `" $(git write-tree)) && git reset -q && rm docs/leak.md && git branch -q junk $c`),
			bashStep(`git branch -q -D junk`)}, from: 1},
		{name: "reset --hard to the upstream after a fetch of red commits", setup: withOrigin, steps: []plumbingStep{{user: colleague(3, true)}, bashStep(`git fetch -q && git reset -q --hard '@{u}'`)}},
		{name: "checkout -B onto the fetched upstream", setup: withOrigin, steps: []plumbingStep{{user: colleague(3, true)}, bashStep(`git fetch -q origin && git checkout -q -B main origin/main`)}},
		{name: "log -p", steps: []plumbingStep{bashStep(`git log -p -2 >/dev/null && git log --stat --all >/dev/null && git log -p --follow docs/guide.md >/dev/null`)}},
		{name: "go test in a Go project", setup: func(p *player) {
			os.MkdirAll(filepath.Join(p.dir, "tool"), 0o755)
			os.WriteFile(filepath.Join(p.dir, "tool/go.mod"), []byte("module example.invalid/tool\n\ngo 1.21\n"), 0o644)
			os.WriteFile(filepath.Join(p.dir, "tool/tool.go"), []byte("package tool\n\n// Two answers two.\nfunc Two() int { return 2 }\n"), 0o644)
			os.WriteFile(filepath.Join(p.dir, "tool/tool_test.go"), []byte("package tool\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(Two())\n\t}\n}\n"), 0o644)
			p.git("add", "tool")
			p.git("commit", "-q", "-m", "build: a small Go tool")
		}, steps: []plumbingStep{bashStep(`cd tool && GOCACHE=` + realGoCache(t) + ` GOFLAGS=-mod=mod go test ./... >/dev/null`)}},
		{name: "npm ci", setup: func(p *player) {
			os.WriteFile(filepath.Join(p.dir, "package.json"), []byte(`{"name":"x","version":"1.0.0","private":true}`+"\n"), 0o644)
			os.WriteFile(filepath.Join(p.dir, "package-lock.json"), []byte(`{"name":"x","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"x","version":"1.0.0"}}}`+"\n"), 0o644)
			ignore, _ := os.ReadFile(filepath.Join(p.dir, ".gitignore"))
			os.WriteFile(filepath.Join(p.dir, ".gitignore"), append(ignore, []byte("node_modules/\n")...), 0o644)
			p.git("add", "package.json", "package-lock.json", ".gitignore")
			p.git("commit", "-q", "-m", "build: an npm entry")
		}, steps: []plumbingStep{bashStep(`npm ci --no-audit --no-fund --offline --silent`)}},
		{name: "pre-commit run", setup: func(p *player) {
			os.WriteFile(filepath.Join(p.dir, ".pre-commit-config.yaml"), []byte("repos:\n- repo: local\n  hooks:\n  - id: ok\n    name: ok\n    entry: 'true'\n    language: system\n"), 0o644)
			p.git("add", ".pre-commit-config.yaml")
			p.git("commit", "-q", "-m", "build: a pre-commit config")
		}, steps: []plumbingStep{bashStep(`pre-commit run --all-files >/dev/null`)}},
		{name: "Read and Grep under .git", steps: []plumbingStep{{read: ".git/config"}, {read: ".git/gate-hooks/pre-commit"}, {read: ".git/refs/heads/main"}}},
		{name: "Write of a file under the temporary directory", steps: []plumbingStep{{write: "$TMP/notes/todo.md", body: redSubject + " at /ho" + "me/marta\n"}}},
		{name: "two sessions in one clone", steps: []plumbingStep{
			bashStep(green + `git commit -q -m "docs: more to read"`),
			{session: "s-u2-other"}, bashStep(`git log --oneline -2`),
			{session: "s-u2-two-sessions-in-one-clone"}, bashStep(`printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more"`),
			{session: "s-u2-other"}, bashStep(`printf 'Still more.\n' >> docs/guide.md && git commit -q -am "docs: still more"`), {stop: true},
			{session: "s-u2-two-sessions-in-one-clone"}}},
		{name: "merge -s ours of a red branch the user made", setup: redSide, steps: []plumbingStep{bashStep(`git merge -q -s ours --no-edit red`)}},
		{name: "am of the agent's own green patch", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read" && git format-patch -q -1 -o ../patches && git reset -q --hard HEAD^ && git am -q ../patches/*.patch`)}},
		{name: "rebase -x of green work", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read" && git rebase -q -x true HEAD~1`)}},
		{name: "a nested repository made under the tree", steps: []plumbingStep{bashStep(`git init -q fixtures/nested && git -C fixtures/nested commit -q --allow-empty -m wip && rm -rf fixtures`)}, other: true},
		{name: "submodule foreach commits in the submodule, the bump through the hooks", setup: func(p *player) {
			lib := filepath.Join(filepath.Dir(p.dir), "lib")
			run(p.t, filepath.Dir(p.dir), p.env, "git", "init", "-q", "-b", "main", lib)
			run(p.t, lib, p.env, "git", "commit", "-q", "--allow-empty", "-m", "init")
			if r := run(p.t, p.dir, p.env, "git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", "../lib", "lib"); r.code != 0 {
				p.t.Fatalf("submodule add: %s", r.stderr)
			}
			p.git("commit", "-q", "-m", "build: add lib")
		}, steps: []plumbingStep{bashStep(`git submodule foreach -q 'printf "wip\n" > x && git add x && git commit -q -n -m "` + redSubject + `"' && git add lib && git commit -q -m "build: bump lib"`)}, other: true},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}

// After each miss or block the words name the commit and offer a remedy;
// the remedy is run through the harness as the agent would run it, and the
// clone goes green: a quiet Stop, a status line with no red commit.
func TestAgentRemediesRun(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	fix := bashStep(`git rm -q -f --cached docs/leak.md 2>/dev/null; rm -f docs/leak.md`)
	green := `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `
	rows := []plumbingRow{
		{name: "red content at HEAD", steps: []plumbingStep{bashStep(leakCmd + sh2("docs: add notes")), {remedy: true}, fix}, expect: stAfter, gate: tt},
		{name: "refused subject at HEAD", steps: []plumbingStep{bashStep(green + `echo 'git commit -q -n -m "` + redSubject + `"' | sh`), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "refused subject below HEAD", steps: []plumbingStep{bashStep(green + `echo 'git commit -q -n -m "` + redSubject + `"' | sh && printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more"`), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "red root commit on an orphan branch", steps: []plumbingStep{bashStep(`git checkout -q --orphan fresh && ` + leakCmd + sh2("docs: add notes")), {remedy: true}, bashStep(`git rm -q -f docs/leak.md && git checkout -q -f main`)}, expect: stAfter, gate: tt},
		{name: "red commit on a branch not checked out", steps: []plumbingStep{bashStep(leakCmd + `c=$(git commit-tree -p HEAD -m "docs: add notes" $(git write-tree)) && git reset -q && rm docs/leak.md && git branch -q side2 $c`), {remedy: true}}, expect: stAfter, gate: tt},
		{name: "red commit on a tag", steps: []plumbingStep{bashStep(leakCmd + `c=$(git commit-tree -p HEAD -m "docs: add notes" $(git write-tree)) && git reset -q && rm docs/leak.md && git tag v9 $c`), {remedy: true}}, expect: stAfter, gate: tt},
		{name: "a placed hook replaced, the repair offered", steps: []plumbingStep{bashStep(`cp /bin/true .git/gate-hooks/pre-commit && ` + leakCmd + `git commit -q -m "docs: add notes"`), bashStep(`git status --short`), {remedy: true}, {remedy: true}, fix}, expect: stAfter, gate: tt},
		{name: "red commit on a branch checked out in a linked worktree", steps: []plumbingStep{bashStep(`git worktree add -q -b feat ../wtc && cd ../wtc && ` + leakCmd + sh2("docs: add notes")), {remedy: true}, bashStep(`cd ../wtc && git rm -q -f --cached docs/leak.md; rm -f ../wtc/docs/leak.md`)}, expect: stAfter, gate: tt},
		{name: "red commit on a linked worktree's detached HEAD", steps: []plumbingStep{bashStep(`git worktree add -q --detach ../wtd && cd ../wtd && ` + leakCmd + sh2("docs: add notes")), {remedy: true}, bashStep(`cd ../wtd && git rm -q -f --cached docs/leak.md; rm -f ../wtd/docs/leak.md`)}, expect: stAfter, gate: tt},
		{name: "the state dir a file, put back", steps: []plumbingStep{bashStep(`rm -rf .git/gates-agent && echo x > .git/gates-agent && ` + leakCmd + sh2("docs: add notes")), bashStep(`rm .git/gates-agent && git status --short`), {remedy: true}, fix}, from: 1, expect: stAfter, gate: tt},
	}
	runPlumbingRows(t, rows)
}

// bash2 plays one Bash call and answers the refusal before it ran, if
// any, and the words after it.
func (p *player) bash2(command string) (refused, after string) {
	p.t.Helper()
	in := map[string]any{"tool_input": map[string]any{"command": command, "description": "x"}}
	if _, refusal, _ := words2(p.fire("PreToolUse", "Bash", in)); refusal != "" {
		return refusal, ""
	}
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir, cmd.Env = p.dir, p.env
	o, _ := cmd.CombinedOutput()
	in["tool_response"] = map[string]any{"stdout": string(o)}
	reason, refusal, other := words2(p.fire("PostToolUse", "Bash", in))
	return "", reason + refusal + other
}

// A binary deleted or swapped: every agent hook refuses with the one
// command that restores it, and that command, run through the harness as
// the agent would, is not itself refused; once it ran, the next command
// passes and the status line is whole again.
func TestAgentRestoreRunsThroughTheHarness(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, breakIt string }{
		{"deleted", "rm bin/gates"},
		{"swapped by cp", "cp /bin/true bin/gates"},
		{"swapped by ln -sf", "cp /bin/true ../true && ln -sf $PWD/../true bin/gates"},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "u2 restore "+c.name)
			p.env = append(p.env, "CLAUDECODE=1")
			p.bashQuiet("git status --short")
			if why, _ := p.bash2(c.breakIt); why != "" {
				t.Fatalf("%s was refused before it ran: %s", c.breakIt, why)
			}
			why, _ := p.bash2("ls")
			if why == "" {
				t.Fatalf("after %s a command was not refused", c.breakIt)
			}
			fix := remedyOf(why)
			if fix == "" {
				t.Fatalf("no restore offered:\n%s", why)
			}
			if why, _ := p.bash2(fix); why != "" {
				t.Fatalf("PLUMBING | restore after the binary %s | the restore runs | refused: %s", c.name, why)
			}
			if why, after := p.bash2("ls"); why != "" || after != "" {
				t.Fatalf("after %q: refused %q, said %q", fix, why, after)
			}
			if sl := p.statusWith(); strings.Contains(sl, "broken") || strings.Contains(sl, "binary") {
				t.Fatalf("the status line after the restore: %q", sl)
			}
			if data, err := os.ReadFile("/bin/true"); err != nil || len(data) > 1<<20 {
				t.Fatalf("the restore wrote through the link into /bin/true")
			}
			t.Logf("PLUMBING | restore after the binary %s | the restore runs | the restore runs", c.name)
		})
	}
}

// commitTree makes a commit of the index on HEAD, past every hook, and
// keeps its id in $c.
const commitTree = `c=$(git commit-tree -p HEAD -m "docs: add notes" $(git write-tree)) && `

func TestAgentRefAndObjectSpellings(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const msg = "docs: add notes"
	rows := []plumbingRow{
		// Pushed and left on no ref here.
		{name: "pushed through sh with --no-verify by path, nothing kept here", steps: []plumbingStep{bashStep(`git init -q --bare ../pushed.git && ` + leakCmd + commitTree + `git reset -q && echo "git push -q --no-verify ../pushed.git $c:refs/heads/main" | sh`)}, expect: stAfter, gate: tt, also: []string{"pushed.git"}},
		{name: "pushed through sh with --no-verify to origin, the tracking ref deleted", setup: withOrigin, steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && echo "git push -q --no-verify origin $c:refs/heads/feature" | sh && git update-ref -d refs/remotes/origin/feature`)}, expect: stAfter, gate: tt, also: []string{"up.git"}},
		// History reshaped.
		{name: "a red commit buried under its own fix in one command", steps: []plumbingStep{bashStep(leakCmd + sh2(msg) + ` && git rm -q docs/leak.md && ` + sh2("docs: drop the notes"))}, expect: stAfter, gate: tt},
		{name: "rebase --onto a red loose commit", steps: []plumbingStep{bashStep(`printf 'More to read.\n' > docs/more.md && git add docs/more.md && git commit -q -m "docs: more to read"`), bashStep(leakCmd + `c=$(git commit-tree -p HEAD^ -m "` + msg + `" $(git write-tree)) && git reset -q --hard && git rebase -q --onto $c HEAD~1`)}, expect: stAfter, gate: tt},
		{name: "a symlink whose target spells the leak", steps: []plumbingStep{bashStep(`ln -s /ho''me/marta/notes docs/notes && git add docs/notes && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "a leak in a file whose name has spaces", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > "docs/my notes.md" && git add "docs/my notes.md" && ` + sh2(msg))}, expect: stAfter, gate: tt},
		// Refs written as files.
		{name: "a ref appended to packed-refs", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && printf '%s refs/heads/packed\n' $c >> .git/packed-refs`)}, expect: stAfter, gate: tt},
		{name: "a loose ref written by echo", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && echo $c > .git/refs/heads/echoed`)}, expect: stAfter, gate: tt},
		{name: "HEAD detached by writing .git/HEAD", steps: []plumbingStep{bashStep(leakCmd + commitTree + `echo $c > .git/HEAD`)}, expect: stAfter, gate: tt},
		{name: "a per-worktree ref", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && git update-ref refs/worktree/keep $c`)}, expect: stAfter, gate: tt},
		{name: "a red commit in an alternate object store", steps: []plumbingStep{bashStep(`git init -q --bare ../o.git && ` + leakCmd + `c=$(GIT_OBJECT_DIRECTORY=$PWD/../o.git/objects GIT_ALTERNATE_OBJECT_DIRECTORIES=$PWD/.git/objects git commit-tree -p HEAD -m "` + msg + `" $(git write-tree)) && echo $PWD/../o.git/objects >> .git/objects/info/alternates && git update-ref refs/heads/main $c`)}, expect: stAfter, gate: tt},
		{name: "a leak in the message body only, a plain commit", steps: []plumbingStep{bashStep(`git commit -q --allow-empty -m "docs: tidy" -m "See /ho""me/marta/notes."`)}, expect: stHook, gate: "check-commit-msg"},
		{name: "a leak in the message body only, by commit-tree", steps: []plumbingStep{bashStep(`c=$(git commit-tree -p HEAD -m "docs: tidy" -m "See /ho""me/marta/notes." HEAD^{tree}) && git update-ref refs/heads/main $c`)}, expect: stAfter, gate: "check-commit-msg"},
		{name: "an evil merge through sh", steps: []plumbingStep{bashStep(`git merge -q --no-commit --no-ff side && ` + leakCmd + `echo 'git commit -q -n -m "docs: merge the side note"' | sh`)}, expect: stAfter, gate: tt},
		{name: "an octopus of red loose commits", steps: []plumbingStep{bashStep(leakCmd + commitTree + `d=$(git commit-tree -p HEAD -m "` + msg + ` too" $(git write-tree)) && m=$(git commit-tree -p HEAD -p $c -p $d -m "docs: merge notes" $(git write-tree)) && git reset -q && git update-ref refs/heads/main $m`)}, expect: stAfter, gate: tt},
		{name: "a commit with an encoding header", steps: []plumbingStep{bashStep(leakCmd + `c=$(git -c i18n.commitEncoding=ISO-8859-1 commit-tree -p HEAD -m "` + msg + `" $(git write-tree)) && git update-ref refs/heads/main $c`)}, expect: stAfter, gate: tt},
		{name: "a leak at the end of a 3 MB file", steps: []plumbingStep{bashStep(`head -c 3000000 /dev/zero | tr '\0' 'a' | fold -w 100 > docs/big.md && printf 'Keep notes in /ho''me/marta/notes.\n' >> docs/big.md && git add docs/big.md && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "an old-dated red commit on a made-up remote-tracking ref", steps: []plumbingStep{bashStep(leakCmd + `c=$(GIT_COMMITTER_DATE=2001-01-01T00:00:00Z git commit-tree -p HEAD -m "` + msg + `" $(git write-tree)) && git reset -q && git update-ref refs/remotes/fake/main $c`)}, expect: stAfter, gate: tt},
		// Configuration written another way.
		{name: "config --file .git/config core.hooksPath", steps: []plumbingStep{bashStep(`git config --file .git/config core.hooksPath /dev/null && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "a leak staged, the work tree file cleaned, a plain commit", steps: []plumbingStep{bashStep(leakCmd + `printf 'Clean now.\n' > docs/leak.md && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "a leak staged, the work tree file cleaned, commit through sh", steps: []plumbingStep{bashStep(leakCmd + `printf 'Clean now.\n' > docs/leak.md && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "a commit in a copy of the git directory, fetched back", steps: []plumbingStep{bashStep(`cp -r .git ../g2 && ` + leakCmd + `GIT_DIR=../g2 GIT_INDEX_FILE=.git/index git commit -q -n -m "` + msg + `"; git reset -q && git fetch -q ../g2 main && git reset -q --hard FETCH_HEAD`)}, expect: stAfter, gate: tt},
		{name: "an alias whose value carries -c core.hooksPath", steps: []plumbingStep{bashStep(leakCmd + `git -c alias.x='-c core.hooksPath=/dev/null commit' x -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "core.hooksPath through git config --edit's editor", steps: []plumbingStep{bashStep(`printf '#!/bin/sh\nprintf "[core]\\n\\thooksPath = /dev/null\\n" >> "$1"\n' > ../ed && chmod +x ../ed && GIT_EDITOR=../ed git config --edit && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
	}
	runPlumbingRows(t, rows)
}

func TestAgentEverydayGitWork(t *testing.T) {
	t.Parallel()
	green := `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `
	rows := []plumbingRow{
		{name: "pull --no-rebase makes a merge over a colleague's green work", setup: withOrigin, steps: []plumbingStep{
			bashStep(green + `git commit -q -m "docs: more to read"`), {user: colleague(2, false)}, bashStep(`git pull -q --no-rebase --no-edit`)}},
		{name: "squash and fixup, then autosquash", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read" && printf 'Even more.\n' >> docs/more.md && git commit -q -a --fixup=HEAD && printf 'Still more.\n' >> docs/more.md && git commit -q -a --squash=HEAD~1 -m "and still more" && GIT_SEQUENCE_EDITOR=true GIT_EDITOR=true git rebase -q -i --autosquash HEAD~3`)}},
		{name: "fixup=amend (an amend! subject), then autosquash", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read" && printf 'Even more.\n' >> docs/more.md && git add docs/more.md && GIT_EDITOR=true git commit -q --fixup=amend:HEAD && GIT_SEQUENCE_EDITOR=true GIT_EDITOR=true git rebase -q -i --autosquash HEAD~2`)}},
		{name: "merge --ff-only of the agent's own branch", steps: []plumbingStep{bashStep(`git switch -q -c feat && ` + green + `git commit -q -m "docs: more to read" && git switch -q main && git merge -q --ff-only feat && git branch -q -d feat`)}},
		{name: "sparse-checkout", steps: []plumbingStep{bashStep(`git sparse-checkout set docs && git sparse-checkout disable`)}},
		{name: "a file deleted and committed", steps: []plumbingStep{bashStep(`git rm -q docs/guide.md && git commit -q -m "docs: drop the guide"`)}},
		{name: "push --force-with-lease of green work, fetch --prune", setup: withOrigin, steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read" && git push -q --force-with-lease origin main && git fetch -q --prune`)}},
		{name: "a pull that conflicts, then merge --abort", setup: withOrigin, steps: []plumbingStep{
			bashStep(`printf 'change mine\n' > docs/upstream.md && git add docs/upstream.md && git commit -q -m "docs: mine"`), {user: colleague(1, false)}, {bash: `git pull -q --no-rebase --no-edit`, failsWith: "CONFLICT"}, bashStep(`git merge --abort`)}},
		{name: "a leak stashed away before it is committed", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/guide.md && git stash -q && git stash list >/dev/null`)}},
		{name: "a leak stashed and the stash dropped", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/guide.md && git stash -q && git stash drop -q`)}},
		{name: "green work and an untracked file stashed, the stash popped", steps: []plumbingStep{bashStep(`printf 'draft\n' >> docs/guide.md && printf 'x\n' > docs/untracked.md && git stash -q -u && git stash pop -q && git checkout -q docs/guide.md && rm docs/untracked.md`)}},
		{name: "a rebase that stops on a conflict, aborted", steps: []plumbingStep{bashStep(`git switch -q -c two && printf 'one\n' > docs/a.md && git add docs/a.md && git commit -q -m "docs: one" && printf 'two\n' > docs/guide.md && git commit -q -am "docs: two" && git switch -q main && printf 'other\n' > docs/guide.md && git commit -q -am "docs: other" && git switch -q two`), {bash: `git rebase -q main`, failsWith: "CONFLICT"}, bashStep(`git rebase --abort && git switch -q main`)}},
		{name: "a green commit amended twice in one command", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more" && git commit -q --amend -m "docs: more to" && git commit -q --amend -m "docs: more to read"`)}},
		{name: "a colleague's red pull request fetched into FETCH_HEAD only", setup: withOrigin, steps: []plumbingStep{
			{user: func(p *player) {
				colleague(3, true)(p)
				run(p.t, filepath.Join(filepath.Dir(p.dir), "up.git"), p.env, "git", "update-ref", "refs/pull/1/head", "main")
			}}, bashStep(`git fetch -q origin refs/pull/1/head && git log -3 --oneline FETCH_HEAD >/dev/null`)}},
		{name: "green work in a worktree, the worktree and its branch dropped", steps: []plumbingStep{bashStep(`git worktree add -q -b wip ../wtg && cd ../wtg && ` + green + `git commit -q -m "docs: more to read" && cd - >/dev/null && git worktree remove --force ../wtg && git branch -q -D wip`)}},
		{name: "rebase -i stopped at an edit, aborted", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read" && printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more" && GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/edit/" git rebase -q -i HEAD~2 && git commit -q --amend -m "docs: more to read, edited" && git rebase --abort`)}},
		{name: "a rebase onto a colleague's red commits stops on a conflict, aborted", setup: withOrigin, steps: []plumbingStep{
			bashStep(green + `git commit -q -m "docs: more to read" && printf 'mine\n' > docs/upstream.md && git add docs/upstream.md && git commit -q -m "docs: mine"`),
			{user: colleague(3, true)}, bashStep(`git fetch -q origin`), {bash: `git rebase -q origin/main`, failsWith: "CONFLICT"}, bashStep(`git rebase --abort`)}},
		{name: "a leak left in a linked worktree, the Stop in the clone", steps: []plumbingStep{bashStep(`git worktree add -q -b w ../wtl && printf 'Keep notes in /ho''me/marta/notes.\n' > ../wtl/docs/guide.md`)}},
		{name: "a local ignore appended to .git/info/exclude", steps: []plumbingStep{bashStep(`echo '*.local.md' >> .git/info/exclude && printf 'x\n' > docs/mine.local.md && git status --short >/dev/null`)}},
		{name: "git config of ordinary keys", steps: []plumbingStep{bashStep(`git config pull.rebase true && git config core.editor true && git config user.email t@example.invalid && git config alias.st status && git st --short && git config --unset alias.st && git config --list >/dev/null`)}},
		{name: "read-only history tools", steps: []plumbingStep{bashStep(`git log --all --graph --oneline >/dev/null && git shortlog -s HEAD >/dev/null && git reflog -3 >/dev/null && git fsck --no-dangling 2>/dev/null && git count-objects -v >/dev/null && git describe --always >/dev/null`)}},
		{name: "own green commits undone with reset --hard", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read" && git rm -q docs/guide.md && git commit -q -m "docs: drop the guide" && git reset -q --hard HEAD~2 && git gc -q --prune=now`)}},
		{name: "two sessions, one names its own red commit, the other stops", steps: []plumbingStep{
			{session: "s-u2-another"}, bashStep(`git log --oneline -1`),
			{session: "s-u2-two-sessions-one-names-its-own-red-commit-the-other-stops"}, {bash: leakCmd + sh2("docs: add notes")}, bashStep(`git reset -q --hard HEAD^`),
			{session: "s-u2-another"}, {stop: true}}, from: 5},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}
