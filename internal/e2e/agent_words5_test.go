package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 41's items 1, 4 and 6, played by someone who did not write the
// hook: what the model and the user are told must be true, and every
// remedy offered must run and leave the clone green with nothing of the
// user's lost (their uncommitted edits, an untracked file, a stash,
// another branch). Rows none of the earlier tables hold: remedies run
// over the user's own work, the status line after each scenario, the
// footing broken five new ways and restored, and odd payloads to every
// registered member.

// words5Limits are the rows this round could not make pass in time; each
// keeps its true expectation and is written as a limit in SPEC.md.
var words5Limits = map[string]string{}

// userWork leaves, before the session, what the person has that the
// agent must never lose: an edit to a tracked file (unstaged), an
// untracked file, a stash and a branch of their own one commit past
// main. userIntact checks each is still there.
func userWork(p *player) {
	p.t.Helper()
	p.git("switch", "-q", "-c", "mine")
	os.WriteFile(filepath.Join(p.dir, "docs/mine.md"), []byte("The user's own note.\n"), 0o644)
	p.git("add", "docs/mine.md")
	p.git("commit", "-q", "-m", "docs: the user's own note")
	p.git("switch", "-q", "main")
	os.WriteFile(filepath.Join(p.dir, "docs/stashed.md"), []byte("Stashed by the user.\n"), 0o644)
	p.git("stash", "push", "-q", "-u", "-m", "the user's stash")
	os.WriteFile(filepath.Join(p.dir, "README.md"), []byte("# a project\n\nThe user's edit, not committed.\n"), 0o644)
	os.WriteFile(filepath.Join(p.dir, "draft.txt"), []byte("The user's untracked draft.\n"), 0o644)
}

func userIntact(t *testing.T, p *player, name string) {
	t.Helper()
	if data, err := os.ReadFile(filepath.Join(p.dir, "README.md")); err != nil || !strings.Contains(string(data), "The user's edit, not committed.") {
		t.Errorf("%s: the user's uncommitted edit to README.md is lost (%v): %q", name, err, data)
	}
	if data, err := os.ReadFile(filepath.Join(p.dir, "draft.txt")); err != nil || !strings.Contains(string(data), "untracked draft") {
		t.Errorf("%s: the user's untracked draft.txt is lost (%v)", name, err)
	}
	if r := run(t, p.dir, p.env, "git", "stash", "list"); !strings.Contains(r.stdout, "the user's stash") {
		t.Errorf("%s: the user's stash is lost: %q", name, r.stdout)
	}
	if r := run(t, p.dir, p.env, "git", "log", "-1", "--format=%s", "refs/heads/mine"); r.code != 0 || strings.TrimSpace(r.stdout) != "docs: the user's own note" {
		t.Errorf("%s: the user's branch mine is lost or moved: %q %s", name, r.stdout, r.stderr)
	}
	if r := run(t, p.dir, p.env, "git", "diff", "--cached", "--name-only"); strings.Contains(r.stdout, "README.md") {
		t.Errorf("%s: the user's edit was staged by the remedy", name)
	}
	if r := run(t, p.dir, p.env, "git", "log", "--format=%s", "-20", "--all"); strings.Contains(r.stdout, "The user's edit") {
		t.Errorf("%s: the user's edit went into a commit", name)
	}
	if r := run(t, p.dir, p.env, "git", "grep", "-l", "The user's edit, not committed", "HEAD", "--", "README.md"); r.code == 0 {
		t.Errorf("%s: the user's uncommitted edit was committed by the remedy", name)
	}
}

// runWords5Rows plays rows over the user's work and checks it survived
// every remedy.
func runWords5Rows(t *testing.T, rows []plumbingRow) {
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			var p *player
			setup := r.setup
			r.setup = func(q *player) {
				p = q
				// An editor opened by a remedy fails rather than waits.
				q.env = append(q.env, "GIT_EDITOR=false")
				if setup != nil {
					setup(q)
				}
				userWork(q)
			}
			if why, ok := words5Limits[r.name]; ok {
				t.Logf("LIMIT %s: %s", r.name, why)
			}
			got, log := playPlumbingRow(t, r)
			t.Logf("WORDS5 | %s | %s | %s", r.name, r.expect, got)
			if r.expect == stUntouched && got != stUntouched || got > r.expect || got == stMissed {
				t.Errorf("%s: want %s, got %s\n%s", r.name, r.expect, got, log)
			}
			userIntact(t, p, r.name)
		})
	}
}

// Each remedy the words offer, run through the harness as the agent would,
// over a clone holding the user's own work.
func TestAgentWords5Remedies(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	green := `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `
	badMerge := `echo 'git merge -q --no-ff --no-verify -m "` + redSubject + `" side' | sh`
	fix := bashStep(`git rm -q -f --cached docs/leak.md 2>/dev/null; rm -f docs/leak.md`)
	rows := []plumbingRow{
		{name: "refused subject at HEAD over the user's edits", steps: []plumbingStep{bashStep(green + sh2(redSubject)), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "refused subject below HEAD over the user's edits", steps: []plumbingStep{bashStep(green + sh2(redSubject) + ` && printf 'Even more.\n' >> docs/more.md && git add docs/more.md && git commit -q -m "docs: even more"`), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "refused subject on a merge commit at HEAD", steps: []plumbingStep{bashStep(badMerge), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "refused subject on a merge commit below HEAD", steps: []plumbingStep{bashStep(badMerge + ` && ` + green + `git commit -q -m "docs: more to read"`), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "refused subject on a root commit below HEAD of an orphan branch", steps: []plumbingStep{bashStep(`git stash -q -u && git checkout -q --orphan fresh && git rm -q -r -f --cached . && printf 'Start.\n' > start.md && git add start.md && ` + sh2(redSubject) + ` && printf 'Next.\n' > next.md && git add next.md && git commit -q -m "docs: next"`), {remedy: true}, bashStep(`git checkout -q -f main && git clean -q -f start.md next.md && git stash pop -q`)}, expect: stAfter, gate: subj},
		{name: "refused subject at the tip of the user's branch, not checked out", steps: []plumbingStep{bashStep(`c=$(git commit-tree -p mine -m "` + redSubject + `" mine^{tree}) && git update-ref refs/heads/mine $c`), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "refused subject on a commit only an annotated tag reaches", steps: []plumbingStep{bashStep(`c=$(git commit-tree -p HEAD -m "` + redSubject + `" HEAD^{tree}) && git tag -a v7 -m "release 7" $c`), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "refused subject at a linked worktree's HEAD", steps: []plumbingStep{bashStep(`git worktree add -q -b feat ../wts && cd ../wts && ` + green + sh2(redSubject)), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "refused subject below a linked worktree's HEAD", steps: []plumbingStep{bashStep(`git worktree add -q -b feat ../wtb && cd ../wtb && ` + green + sh2(redSubject) + ` && printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more"`), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "two refused subjects in one command", steps: []plumbingStep{bashStep(green + sh2(redSubject) + ` && printf 'Even more.\n' >> docs/more.md && git add docs/more.md && ` + sh2(redSubject)), {remedy: true}, {remedy: true}}, expect: stAfter, gate: subj},
		{name: "a leak at HEAD of a detached HEAD", steps: []plumbingStep{bashStep(`git switch -q --detach && ` + leakCmd + sh2("docs: add notes")), {remedy: true}, fix, bashStep(`git switch -q main`)}, expect: stAfter, gate: tt},
		{name: "refused subject on a root commit at HEAD of an orphan branch", steps: []plumbingStep{bashStep(`git stash -q -u && git checkout -q --orphan fresh3 && git rm -q -r -f --cached . && printf 'Start.\n' > start.md && git add start.md && ` + sh2(redSubject)), {remedy: true}, bashStep(`git checkout -q -f main && git clean -q -f start.md && git stash pop -q`)}, expect: stAfter, gate: subj},
		{name: "refused subject below the tip of a branch the agent made, not checked out", steps: []plumbingStep{bashStep(`git worktree add -q -b topic ../wtt && cd ../wtt && ` + green + sh2(redSubject) + ` && printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more" && cd - >/dev/null && git worktree remove ../wtt`), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "refused subject on the agent's commit rebased onto a colleague's pushed work", setup: withOrigin, steps: []plumbingStep{bashStep(green + sh2(redSubject)), {user: colleague(2, false)}, bashStep(`git pull -q --rebase --autostash`), {remedy: true}}, from: 2, expect: stAfter, gate: subj},
		{name: "refused subject below a detached HEAD", steps: []plumbingStep{bashStep(`git switch -q --detach && ` + green + sh2(redSubject) + ` && printf 'Even more.\n' >> docs/more.md && git add docs/more.md && git commit -q -m "docs: even more"`), {remedy: true}, bashStep(`git switch -q main`)}, expect: stAfter, gate: subj},
		{name: "a leak in a root commit at HEAD of an orphan branch, over the user's edits", steps: []plumbingStep{bashStep(`git checkout -q --orphan fresh2 && ` + leakCmd + sh2("docs: add notes")), {remedy: true}, bashStep(`git rm -q -f --cached docs/leak.md; rm -f docs/leak.md; git checkout -q main`)}, expect: stAfter, gate: tt},
	}
	runWords5Rows(t, rows)
}

// Words after the fact where no command is the remedy: each names the
// commit and never offers a rewrite of a commit it does not mean.
func TestAgentWords5Named(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	green := `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `
	rows := []plumbingRow{
		{name: "a leak in an older commit, a green one on top", steps: []plumbingStep{bashStep(leakCmd + sh2("docs: add notes") + ` && ` + green + `git commit -q -m "docs: more to read"`)}, expect: stAfter, gate: tt},
		{name: "a leak, then a green commit rewording the same file", steps: []plumbingStep{bashStep(leakCmd + sh2("docs: add notes") + ` && printf 'Keep notes elsewhere.\n' > docs/leak.md && git add docs/leak.md && git commit -q -m "docs: notes elsewhere"`)}, expect: stAfter, gate: tt},
		{name: "a leak committed by a tool no Bash hook sees (an MCP git tool), the Stop next", steps: []plumbingStep{{user: func(p *player) {
			run(p.t, p.dir, p.env, "bash", "-c", leakCmd+`git commit -q -n -m "docs: add notes"`)
		}}, {stop: true}}, expect: stStop, gate: tt},
		{name: "a leak committed by a background job after the command", steps: []plumbingStep{bashStep(leakCmd + `(sleep 1; ` + sh2("docs: add notes") + `) >/dev/null 2>&1 &`), {bash: `sleep 3`}}, expect: stAfter, gate: tt},
	}
	runWords5Rows(t, rows)
}

// statusCase breaks or changes the clone, then reads the status line.
type statusCase struct {
	name  string
	steps []string // Bash calls through the harness
	// want are texts the line must hold, not are texts it must not.
	want, not []string
	setup     func(p *player)
}

func TestAgentWords5StatusLine(t *testing.T) {
	t.Parallel()
	red := leakCmd + sh2("docs: add notes")
	rows := []statusCase{
		{name: "a red commit on a branch the agent then deleted", steps: []string{`git switch -q -c tmp && ` + red, `git switch -q main && git branch -q -D tmp`}, want: []string{"hooks on"}, not: []string{"red commit"}},
		{name: "a red commit dropped by a rebase, the reflog still holding it", steps: []string{red + ` && ` + `printf 'More.\n' > docs/more.md && git add docs/more.md && ` + sh2("docs: more"), `git rebase -q --onto HEAD~2 HEAD~1`}, not: []string{"red commit"}},
		{name: "a red commit on a linked worktree's detached HEAD, the worktree removed", steps: []string{`git worktree add -q --detach ../wtr && cd ../wtr && ` + red, `git worktree remove --force ../wtr`}, not: []string{"red commit"}},
		{name: "a red commit kept by a tag, shown until the tag goes", steps: []string{`git switch -q -c tmp && ` + red + ` && git tag keep && git switch -q main && git branch -q -D tmp`}, want: []string{"1 red commit"}},
		{name: "a colleague's red commits fetched and merged", setup: withOrigin, steps: []string{"@colleague", `git pull -q --ff-only`}, want: []string{"hooks on"}, not: []string{"red commit", "not judged"}},
		{name: "a red commit, then gc with the branch deleted and the reflog expired", steps: []string{`git switch -q -c tmp && ` + red, `git switch -q main && git branch -q -D tmp && git reflog expire --expire=now --all && git gc -q --prune=now`}, not: []string{"red commit"}},
		{name: "a red commit amended green", steps: []string{red, `git rm -q --cached docs/leak.md && rm docs/leak.md && git commit -q --amend -m "docs: nothing to add" --allow-empty`}, want: []string{"hooks on"}, not: []string{"red commit"}},
		{name: "a colleague's red commits fetched, not merged", setup: withOrigin, steps: []string{"@colleague", `git fetch -q origin`}, not: []string{"red commit", "not judged"}},
		{name: "a red commit, the agent's branch reset to the fetched upstream", setup: withOrigin, steps: []string{red, "@colleague", `git fetch -q origin && git reset -q --hard origin/main`}, not: []string{"red commit", "not judged"}},
		{name: "placed hooks made non-executable", steps: []string{`chmod -x .git/gate-hooks/*`}, not: []string{"hooks on"}, want: []string{"hooks broken"}},
		{name: "placed hooks deleted", steps: []string{`rm -rf .git/gate-hooks`}, not: []string{"hooks on"}},
		{name: "core.hooksPath unset by the user's hand", steps: []string{`@user:git config --unset core.hooksPath`}, not: []string{"hooks on"}},
		{name: "core.hooksPath pointed at .git/hooks by the user's hand, a hook there", steps: []string{`@user:git config core.hooksPath .git/hooks && printf '#!/bin/sh\nexit 0\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`}, not: []string{"hooks on"}},
		{name: "the binary made non-executable", steps: []string{`chmod -x bin/gates`}, not: []string{"hooks on"}, want: []string{"bin/gates"}},
		{name: "the binary truncated", steps: []string{`: > bin/gates`}, not: []string{"hooks on"}, want: []string{"bin/gates"}},
		{name: "the knob redirect to a copy, the copy then swapped", steps: []string{`cp bin/gates ../t && printf 'GATE_SDK_NATIVE_BIN = %s/../t\n' "$PWD" > scripts/gate-sdk-config.local.knobs`, `printf '#!/bin/sh\nexit 0\n' > ../t`}, not: []string{"hooks on"}},
	}
	for _, c := range rows {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "w5 status "+c.name)
			p.env = append(p.env, "CLAUDECODE=1")
			if c.setup != nil {
				c.setup(p)
			}
			p.bashQuiet("git status --short")
			for _, s := range c.steps {
				if s == "@colleague" {
					colleague(3, true)(p)
					continue
				}
				if cmd, ok := strings.CutPrefix(s, "@user:"); ok {
					if r := run(t, p.dir, p.env, "bash", "-c", cmd); r.code != 0 {
						t.Fatalf("%q: %s%s", cmd, r.stdout, r.stderr)
					}
					continue
				}
				in := map[string]any{"tool_input": map[string]any{"command": s, "description": "x"}}
				if _, refusal, _ := words2(p.fire("PreToolUse", "Bash", in)); refusal != "" {
					t.Logf("refused before it ran: %s", refusal)
					break
				}
				cmd := exec.Command("bash", "-c", s)
				cmd.Dir, cmd.Env = p.dir, p.env
				if o, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%q: %v\n%s", s, err, o)
				}
				p.fire("PostToolUse", "Bash", in)
			}
			for _, sl := range []string{p.statusWith(), p.registeredStatusLine().stdout} {
				ok := true
				for _, w := range c.want {
					ok = ok && strings.Contains(sl, w)
				}
				for _, w := range c.not {
					ok = ok && !strings.Contains(sl, w)
				}
				t.Logf("STATUS | %s | %q", c.name, sl)
				if !ok {
					t.Errorf("%s: the status line reads %q; want %q, not %q", c.name, sl, c.want, c.not)
				}
			}
		})
	}
}

// The status line on odd input: quick, one line, no Go panic.
func TestAgentWords5StatusOdd(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w5 status odd")
	huge := `{"session_id": "x", "pad": "` + strings.Repeat("a", 5<<20) + `"}`
	gone := filepath.Join(t.TempDir(), "gone")
	os.MkdirAll(gone, 0o755)
	bare := filepath.Join(t.TempDir(), "bare.git")
	run(t, p.dir, p.env, "git", "init", "-q", "--bare", bare)
	outside := t.TempDir()
	cases := []struct{ name, dir, stdin string }{
		{"empty stdin", p.dir, ""},
		{"an empty object", p.dir, "{}"},
		{"an array", p.dir, "[]"},
		{"null", p.dir, "null"},
		{"a session id of the wrong type", p.dir, `{"session_id": 7}`},
		{"a session id with a path in it", p.dir, `{"session_id": "../../etc"}`},
		{"not JSON", p.dir, "\xff\xfe garbage"},
		{"five megabytes", p.dir, huge},
		{"a cwd outside the repository", outside, `{"session_id": "x"}`},
		{"a bare repository", bare, `{"session_id": "x"}`},
		{"inside the git directory", filepath.Join(p.dir, ".git"), `{"session_id": "x"}`},
		{"a cwd that is gone", gone, `{"session_id": "x"}`},
	}
	os.RemoveAll(gone)
	for _, c := range cases {
		for _, how := range []string{"binary", "registered"} {
			start := time.Now()
			var code int
			var out, errs string
			s := &scratch{t: t, dir: c.dir, env: p.env}
			if c.dir == gone {
				// The shell steps into the directory and removes it.
				os.MkdirAll(gone, 0o755)
				line := `"` + binPath + `" --statusline`
				if how == "registered" {
					var doc struct {
						StatusLine struct {
							Command string `json:"command"`
						} `json:"statusLine"`
					}
					data, _ := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
					json.Unmarshal(data, &doc)
					line = doc.StatusLine.Command
				}
				s.dir = filepath.Dir(gone)
				code, out, errs = s.runStreams("", []byte(c.stdin), []string{"CLAUDE_PROJECT_DIR=" + p.dir}, "sh", "-c", `cd gone && rmdir ../gone && `+line)
			} else if how == "binary" {
				code, out, errs = s.runStreams("", []byte(c.stdin), nil, binPath, "--statusline")
			} else {
				var doc struct {
					StatusLine struct {
						Command string `json:"command"`
					} `json:"statusLine"`
				}
				data, _ := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
				json.Unmarshal(data, &doc)
				code, out, errs = s.runStreams("", []byte(c.stdin), []string{"CLAUDE_PROJECT_DIR=" + p.dir}, "sh", "-c", doc.StatusLine.Command)
			}
			took := time.Since(start)
			t.Logf("STATUSODD | %s (%s) | %v | %q", c.name, how, took.Round(time.Millisecond), out)
			if code != 0 || strings.Contains(out+errs, "panic") || strings.Contains(out+errs, "goroutine ") {
				t.Errorf("%s (%s): exit %d\n%s%s", c.name, how, code, out, errs)
			}
			if n := strings.Count(strings.TrimRight(out, "\n"), "\n"); n != 0 || !strings.HasPrefix(out, "gates:") {
				t.Errorf("%s (%s): not one status line: %q", c.name, how, out)
			}
			if took > 3*time.Second {
				t.Errorf("%s (%s): took %v", c.name, how, took)
			}
		}
	}
}

// The footing broken in ways the earlier tables do not hold: every hook
// refuses the model's next call with the one restore command; that command,
// run through the harness, runs; then every hook works again: a plain
// commit of a leak is refused by the placed git hook, and the status line
// reads hooks on.
func TestAgentWords5Footing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, breakIt string }{
		{"git clean -fdx through sh", `echo 'git clean -q -fdx' | sh`},
		{"the binary truncated", `: > bin/gates`},
		{"the binary made non-executable", `chmod -x bin/gates`},
		{"the binary a directory", `rm bin/gates && mkdir bin/gates`},
		{"the bin directory removed", `rm -rf bin`},
		{"the placed hooks removed", `rm -rf .git/gate-hooks`},
		{"the placed hooks made non-executable", `chmod -x .git/gate-hooks/*`},
		{"the knob redirect to a copy, the copy then swapped", `cp bin/gates ../copy && printf 'GATE_SDK_NATIVE_BIN = %s/../copy\n' "$PWD" > scripts/gate-sdk-config.local.knobs && printf '#!/bin/sh\nexit 0\n' > ../copy`},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "w5 footing "+c.name)
			p.env = append(p.env, "CLAUDECODE=1")
			p.bashQuiet("git status --short")
			why, after := p.bash2(c.breakIt)
			if why != "" {
				t.Logf("FOOTING | %s | refused before it ran | %s", c.name, why)
				return
			}
			words := after
			if w, a := p.bash2("ls"); w != "" || a != "" {
				words += w + a
			}
			if words == "" {
				t.Fatalf("FOOTING | %s | a block with the restore | nothing said after it, nor at the next command", c.name)
			}
			if strings.Contains(words, "--no-verify") {
				t.Errorf("%s: the agent was told --no-verify:\n%s", c.name, words)
			}
			for range 3 {
				fix := remedyOf(words)
				if fix == "" {
					break
				}
				w, a := p.bash2(fix)
				if w != "" {
					t.Fatalf("FOOTING | %s | the restore runs | %q refused: %s", c.name, fix, w)
				}
				t.Logf("restore: %s", fix)
				words = a
				if w, a := p.bash2("ls"); w != "" || a != "" {
					words += w + a
				}
				if words == "" {
					break
				}
			}
			if words != "" {
				t.Fatalf("FOOTING | %s | whole again | still said:\n%s", c.name, words)
			}
			if sl := p.statusWith(); !strings.Contains(sl, "hooks on") {
				t.Errorf("%s: after the restore the status line reads %q", c.name, sl)
			}
			r := run(t, p.dir, p.env, "bash", "-c", leakCmd+`git commit -q -m "docs: add notes"`)
			if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "check-tree-terms") {
				t.Errorf("%s: after the restore a plain commit of a leak was not refused by the hook: exit %d\n%s%s", c.name, r.code, r.stdout, r.stderr)
			}
			t.Logf("FOOTING | %s | whole again | whole again", c.name)
		})
	}
}

// Odd payloads to every registered member: never a crash, never clean by
// mistake where the member cannot read what it needs, and a leak written
// through an odd path is still named.
func TestAgentWords5OddPayloads(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w5 odd payloads")
	p.env = append(p.env, "CLAUDECODE=1")
	p.bashQuiet("git status --short")
	type odd struct {
		name, event, tool string
		payload           map[string]any
		// speaks: the member cannot do its work, so it must say so (a
		// refusal, a block or an advice), never print nothing.
		speaks bool
	}
	cases := []odd{
		{"Bash with tool_input a string", "PreToolUse", "Bash", map[string]any{"tool_input": "git commit -n -m x"}, true},
		{"Bash with tool_input an array", "PreToolUse", "Bash", map[string]any{"tool_input": []any{"git", "commit"}}, true},
		{"Bash with command a number", "PreToolUse", "Bash", map[string]any{"tool_input": map[string]any{"command": 7}}, true},
		{"Bash with no tool_input", "PreToolUse", "Bash", map[string]any{}, true},
		{"Bash after with tool_input null (the audit reads the refs, not the input)", "PostToolUse", "Bash", map[string]any{"tool_input": nil}, false},
		{"Write with file_path a number", "PreToolUse", "Write", map[string]any{"tool_input": map[string]any{"file_path": 7, "content": "x"}}, true},
		{"Edit with no file_path", "PreToolUse", "Edit", map[string]any{"tool_input": map[string]any{"old_string": "a", "new_string": "b"}}, true},
		{"Edit after with no file_path", "PostToolUse", "Edit", map[string]any{"tool_input": map[string]any{"old_string": "a", "new_string": "b"}}, true},
		{"an unknown tool", "PreToolUse", "Teleport", map[string]any{"tool_input": map[string]any{"where": "x"}}, false},
		{"a Stop with stop_hook_active a string", "Stop", "", map[string]any{"stop_hook_active": "yes"}, true},
	}
	for _, c := range cases {
		as := p.fire(c.event, c.tool, c.payload)
		all := ""
		for _, a := range as {
			all += a.stdout + a.errs
			if a.code != 0 && a.code != 2 || strings.Contains(a.errs+a.stdout, "panic") || strings.Contains(a.errs, "goroutine ") {
				t.Errorf("%s: %v exit %d\n%s%s", c.name, a.argv, a.code, a.stdout, a.errs)
			}
		}
		t.Logf("ODD | %s | %d answers | %q", c.name, len(as), all)
		if c.speaks && len(as) > 0 && strings.TrimSpace(all) == "" {
			t.Errorf("%s: every member was silent (clean) though none could read the payload", c.name)
		}
	}
	// A Write of 5 MB ending in a leak, under a path with a newline, and a
	// NotebookEdit of a file that is not a notebook: the leak is named.
	big := strings.Repeat("A line of text.\n", 5<<20/16) + leakLine
	for _, c := range []struct{ name, tool, path, body string }{
		{"a Write of 5 MB ending in a leak", "Write", "docs/big.md", big},
		{"a Write under a name with a newline", "Write", "docs/two\nlines.md", leakLine},
		{"a NotebookEdit of a markdown file", "NotebookEdit", "docs/guide.md", leakLine},
	} {
		path := filepath.Join(p.dir, c.path)
		in := map[string]any{"tool_input": map[string]any{"file_path": path, "content": c.body}}
		if c.tool == "NotebookEdit" {
			in = map[string]any{"tool_input": map[string]any{"notebook_path": path, "new_source": c.body, "cell_id": "x"}}
		}
		_, refusal, _ := words2(p.fire("PreToolUse", c.tool, in))
		if refusal != "" {
			t.Logf("ODD | %s | refused before: %s", c.name, refusal)
			continue
		}
		if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		reason, refusal, other := words2(p.fire("PostToolUse", c.tool, in))
		t.Logf("ODD | %s | %v | %q %q %q", c.name, time.Since(start).Round(time.Millisecond), reason, refusal, other)
		if !strings.Contains(reason+refusal+other, "check-tree-terms") {
			t.Errorf("%s: the leak written was not named:\n%s%s%s", c.name, reason, refusal, other)
		}
		os.Remove(path)
		p.git("checkout", "-q", "--", ".")
	}
}

// A red commit a background job lands after the agent's last call: the
// status line must not read as if nothing landed, and once the next call
// judged it, it shows the red commit by id.
func TestAgentWords5StatusLineBackgroundCommit(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "w5 status background")
	p.env = append(p.env, "CLAUDECODE=1")
	p.bashQuiet("git status --short")
	if why, _ := p.bash2(leakCmd + `(sleep 1; ` + sh2("docs: add notes") + `) >/dev/null 2>&1 &`); why != "" {
		t.Fatalf("refused: %s", why)
	}
	deadline := time.Now().Add(20 * time.Second)
	for run(t, p.dir, p.env, "git", "log", "-1", "--format=%s").stdout != "docs: add notes\n" {
		if time.Now().After(deadline) {
			t.Fatal("the background commit never landed")
		}
		time.Sleep(200 * time.Millisecond)
	}
	id := p.git("rev-parse", "--short", "HEAD")
	sl := p.statusWith()
	t.Logf("STATUS | a background red commit, before the next call | %q", sl)
	if !strings.Contains(sl, "red commit") && !strings.Contains(sl, "not judged") {
		if why, ok := words5Limits["a background red commit, before the next call"]; ok {
			t.Logf("LIMIT: the status line reads %q: %s", sl, why)
		} else {
			t.Errorf("a red commit landed after the last call, and the status line reads %q", sl)
		}
	}
	p.bash2("ls")
	if sl := p.statusWith(); !strings.Contains(sl, "1 red commit") || !strings.Contains(sl, id) {
		t.Errorf("after the next call judged it, the status line reads %q", sl)
	}
}
