package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The agent hook judges outcomes: each spelling of a way past the gates
// the issue lists is played through the harness as Claude Code plays it,
// against the .claude/settings.json `init --harness claude` writes, and
// must be blocked before it runs, named by its commit id right after it
// runs, or named at Stop; the hooks never undo what the command did.

// settingsDoc is the part of .claude/settings.json the player reads.
type settingsDoc struct {
	Hooks map[string][]struct {
		Matcher *string `json:"matcher"`
		Hooks   []struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"hooks"`
	} `json:"hooks"`
}

// answer is one registered command's reply.
type answer struct {
	argv         []string
	code         int
	stdout, errs string
}

// player plays the harness in one clone.
type player struct {
	t       *testing.T
	dir     string
	env     []string
	session string
	// loaded, when set, is the settings text the session loaded its hooks
	// from: a harness that kept a settings change out of the session
	// fires these, whatever the file now says.
	loaded []byte
	// project, when set, is the session's project directory where it is
	// not dir, the directory the calls run in (a session that entered a
	// worktree): the hooks are registered there and $CLAUDE_PROJECT_DIR
	// names it.
	project string
}

// leakLine is a line check-tree-terms refuses (a home path).
const leakLine = "Keep notes in /ho" + "me/marta/notes.\n"

var outcomeTemplate struct {
	once sync.Once
	dir  string
	err  string
}

// outcomeClone answers a fresh copy of one adopter that ran `init --hooks
// --harness claude`, with a small battery (a content gate and the two
// message gates) committed through its own hooks.
func outcomeClone(t *testing.T, name string) *player {
	t.Helper()
	outcomeTemplate.once.Do(func() {
		dir, err := os.MkdirTemp("", "gates-outcome-template-")
		if err != nil {
			outcomeTemplate.err = err.Error()
			return
		}
		dir, _ = filepath.EvalSymlinks(dir)
		outcomeTemplate.dir = filepath.Join(dir, "repo")
		a := &adopter{t: t, dir: outcomeTemplate.dir}
		os.MkdirAll(a.dir, 0o755)
		a.env = baseEnv(t, "GIT_CEILING_DIRECTORIES="+dir)
		a.must("git", "init", "-q", "-b", "main")
		a.write("README.md", "# a project\n")
		a.write("docs/guide.md", "How to use it.\n")
		a.must("git", "add", "-A")
		a.must("git", "commit", "-q", "-m", "initial")
		a.must(binPath, "init", "--hooks", "--harness", "claude")
		a.write("scripts/gates.list", "check-tree-terms\ncheck-commit-subject\ncheck-commit-msg\n")
		a.write("scripts/root-allowlist.list", "*\n.*\n")
		a.must("git", "add", "-A")
		a.must("git", "commit", "-q", "-m", "chore: vendor gate-sdk")
		// A side branch made through the hooks, for the merge spelling.
		a.must("git", "checkout", "-q", "-b", "side")
		a.write("docs/side.md", "A side note.\n")
		a.must("git", "add", "docs/side.md")
		a.must("git", "commit", "-q", "-m", "docs: side note")
		a.must("git", "checkout", "-q", "main")
	})
	if outcomeTemplate.err != "" || outcomeTemplate.dir == "" {
		t.Fatalf("the template clone: %s", outcomeTemplate.err)
	}
	parent := t.TempDir()
	parent, _ = filepath.EvalSymlinks(parent)
	dir := filepath.Join(parent, "repo")
	if out, err := exec.Command("cp", "-a", outcomeTemplate.dir, dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the template: %v\n%s", err, out)
	}
	freshPlacedRecord(t, dir)
	p := &player{t: t, dir: dir, session: "s-" + regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(name, "-")}
	p.env = baseEnv(t, "GIT_CEILING_DIRECTORIES="+parent, "CLAUDE_PROJECT_DIR="+dir)
	return p
}

// freshPlacedRecord answers for a copied clone as an install after the
// build would: the copy gave every file a new inode and change time, so
// the records --install-hooks writes are written again with the copied
// files' own stat fields (the placed hooks' digests are the template's,
// the bytes being copied whole), the hooks touched after the binary as
// the install copies them after the build, and the clock is let pass the
// next whole second. The footing stub then skips the digest for the
// binary copied here, and takes it for any binary a test writes later;
// the launcher knows from stats alone that the binary is the hooks' own
// bytes, as in a clone that ran the install itself.
func freshPlacedRecord(t *testing.T, dir string) {
	t.Helper()
	rec := filepath.Join(dir, ".git/gate-hooks.placed")
	body, err := os.ReadFile(rec)
	if err != nil {
		t.Fatalf("read the placed-hooks record: %v", err)
	}
	// The source record names the binary the hooks were copied from, in
	// the template: the clone's own copy at the same place under its top.
	srcRec := filepath.Join(dir, ".git/gate-hooks.source")
	src := ""
	if data, err := os.ReadFile(srcRec); err == nil {
		if lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"); len(lines) == 3 {
			if was, err := strconv.Unquote(lines[2]); err == nil {
				parts := strings.Split(filepath.ToSlash(was), "/")
				for k := len(parts) - 1; k > 0 && src == ""; k-- {
					if fi, err := os.Stat(filepath.Join(dir, filepath.Join(parts[k:]...))); err == nil && fi.Mode().IsRegular() {
						src = filepath.Join(dir, filepath.Join(parts[k:]...))
					}
				}
			}
		}
	}
	touch := func(p string) os.FileInfo {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatalf("stat %s: %v", p, err)
		}
		// A chmod to the same mode sets the change time to now.
		if err := os.Chmod(p, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
		if fi, err = os.Stat(p); err != nil {
			t.Fatal(err)
		}
		return fi
	}
	key := func(fi os.FileInfo) []string {
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			t.Fatalf("no stat fields for %s", fi.Name())
		}
		return []string{strconv.FormatInt(fi.Size(), 10), strconv.FormatInt(fi.ModTime().UnixNano(), 10),
			strconv.FormatInt(st.Ctim.Sec*1e9+st.Ctim.Nsec, 10), strconv.FormatUint(st.Ino, 10)}
	}
	var srcKey []string
	if src != "" {
		srcKey = key(touch(src))
	}
	var last time.Time
	lines := strings.Split(string(body), "\n")
	for i, l := range lines {
		// name digest size mtime ctime inode
		if f := strings.Fields(l); len(f) == 6 {
			fi := touch(filepath.Join(dir, ".git/gate-hooks", f[0]))
			lines[i] = strings.Join(append(f[:2:2], key(fi)...), " ")
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				if c := time.Unix(st.Ctim.Sec, st.Ctim.Nsec); c.After(last) {
					last = c
				}
			}
		}
	}
	if err := os.Remove(rec); err != nil || os.WriteFile(rec, []byte(strings.Join(lines, "\n")), 0o644) != nil {
		t.Fatalf("rewrite the placed-hooks record: %v", err)
	}
	if src != "" {
		body := "gates hook source v1\n" + strings.Join(srcKey, " ") + "\n" + strconv.Quote(src) + "\n"
		if err := os.Remove(srcRec); err != nil || os.WriteFile(srcRec, []byte(body), 0o644) != nil {
			t.Fatalf("rewrite the hooks' source record: %v", err)
		}
	}
	if now := time.Now(); last.Before(now) {
		last = now
	}
	time.Sleep(time.Until(time.Unix(last.Unix()+1, 0)) + 5*time.Millisecond)
}

func (p *player) git(args ...string) string {
	p.t.Helper()
	r := run(p.t, p.dir, p.env, "git", args...)
	if r.code != 0 {
		p.t.Fatalf("git %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return strings.TrimSpace(r.stdout)
}

// fire runs every command registered for event whose matcher matches tool
// (exec form as written, $CLAUDE_PROJECT_DIR expanded) with the payload on
// stdin, as the harness does.
func (p *player) fire(event, tool string, payload map[string]any) []answer {
	p.t.Helper()
	proj := p.dir
	if p.project != "" {
		proj = p.project
	}
	data, err := os.ReadFile(filepath.Join(proj, ".claude/settings.json"))
	if p.loaded != nil {
		data, err = p.loaded, nil
	}
	if err != nil {
		p.t.Fatal(err)
	}
	var doc settingsDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		p.t.Fatal(err)
	}
	base := map[string]any{"session_id": p.session, "transcript_path": "/dev/null", "cwd": p.dir, "hook_event_name": event}
	for k, v := range payload {
		base[k] = v
	}
	if tool != "" {
		base["tool_name"] = tool
	}
	stdin, _ := json.Marshal(base)
	var out []answer
	for _, g := range doc.Hooks[event] {
		if g.Matcher != nil && *g.Matcher != "" && *g.Matcher != "*" && !regexp.MustCompile("^(?:"+*g.Matcher+")$").MatchString(tool) {
			continue
		}
		for _, h := range g.Hooks {
			if h.Type != "command" || h.Args == nil {
				p.t.Fatalf("a registration not in exec form: %+v", h)
			}
			cmd := strings.ReplaceAll(h.Command, "$CLAUDE_PROJECT_DIR", proj)
			s := &scratch{t: p.t, dir: p.dir, env: p.env}
			code, o, e := s.runStreams("", stdin, nil, cmd, h.Args...)
			argv := h.Args
			if len(argv) > 4 && argv[0] == "-c" {
				argv = argv[4:] // through the footing stub: the member's operands
			}
			out = append(out, answer{argv: argv, code: code, stdout: o, errs: e})
		}
	}
	return out
}

// blocked reports a PreToolUse answer that stops the call.
func blocked(as []answer) (string, bool) {
	for _, a := range as {
		if a.code == 2 {
			return a.errs, true
		}
	}
	return "", false
}

// reasons answers every decision:block reason among the answers.
func reasons(t *testing.T, as []answer) string {
	var b strings.Builder
	for _, a := range as {
		if a.code != 0 {
			t.Errorf("%v exited %d: %s", a.argv, a.code, a.errs)
		}
		for _, line := range strings.Split(strings.TrimSpace(a.stdout), "\n") {
			if line == "" {
				continue
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Errorf("%v: stdout is not JSON: %q", a.argv, a.stdout)
				continue
			}
			if v["decision"] == "block" {
				r, _ := v["reason"].(string)
				b.WriteString(r + "\n")
			}
		}
	}
	return b.String()
}

// state is what the hooks must leave as the command left it.
func (p *player) state() string {
	p.t.Helper()
	refs := run(p.t, p.dir, p.env, "git", "show-ref", "--head").stdout
	st := run(p.t, p.dir, p.env, "git", "status", "--porcelain", "--untracked-files=all").stdout
	idx := run(p.t, p.dir, p.env, "git", "ls-files", "-s", "-z").stdout
	return refs + "\n" + st + "\n" + idx
}

// bash plays one Bash tool call: PreToolUse, the command if allowed, and
// PostToolUse. It answers whether it was blocked, and the PostToolUse
// reasons.
func (p *player) bash(command string) (blockedWhy string, wasBlocked bool, post string) {
	p.t.Helper()
	in := map[string]any{"tool_input": map[string]any{"command": command, "description": "x"}}
	pre := p.fire("PreToolUse", "Bash", in)
	if why, ok := blocked(pre); ok {
		return why, true, ""
	}
	if r := reasons(p.t, pre); r != "" {
		p.t.Errorf("PreToolUse gave a block reason on stdout: %s", r)
	}
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = p.dir
	cmd.Env = p.env
	outb, _ := cmd.CombinedOutput()
	left := p.state()
	in["tool_response"] = map[string]any{"stdout": string(outb)}
	post = reasons(p.t, p.fire("PostToolUse", "Bash", in))
	if got := p.state(); got != left {
		p.t.Errorf("the PostToolUse hooks changed the tree the command left:\nbefore %s\nafter %s", left, got)
	}
	return "", false, post
}

// stop plays a Stop and answers its block reasons.
func (p *player) stop(active bool) string {
	p.t.Helper()
	left := p.state()
	r := reasons(p.t, p.fire("Stop", "", map[string]any{"stop_hook_active": active}))
	if got := p.state(); got != left {
		p.t.Errorf("the Stop hooks changed the tree")
	}
	return r
}

// newCommits answers the short ids of the commits on any ref now that no
// ref held before.
func (p *player) newCommits(before string) []string {
	p.t.Helper()
	var excl []string
	for _, l := range strings.Split(strings.TrimSpace(before), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			excl = append(excl, "^"+f[0])
		}
	}
	args := append([]string{"rev-list", "--all", "--abbrev-commit"}, excl...)
	out := p.git(args...)
	if out == "" {
		return nil
	}
	return strings.Fields(out)
}

// spelling is one way past the gates: setup commands the agent ran first
// (through the harness too), then the commit itself.
type spelling struct {
	name  string
	steps []string
	// gate is the member a landed commit must be named with.
	gate string
}

func TestAgentOutcomeEverySpellingIsCaught(t *testing.T) {
	t.Parallel()
	leak := `printf '` + strings.TrimSuffix(leakLine, "\n") + `\n' > docs/leak.md && git add docs/leak.md && `
	msg := `-q -m "docs: add notes"`
	other := t.TempDir()
	spellings := []spelling{
		{"alias via -c", []string{leak + `git -c alias.ci="commit --no-verify" ci ` + msg}, "check-tree-terms"},
		{"alias via git config", []string{`git config alias.c "commit -n"`, leak + `git c ` + msg}, "check-tree-terms"},
		{"brace-group function", []string{leak + `f() { git commit -n ` + msg + `; }; f`}, "check-tree-terms"},
		{"time -p", []string{leak + `time -p git commit -n ` + msg}, "check-tree-terms"},
		{"env -S", []string{leak + `env -S 'git commit --no-verify -q -m docs:notes'`}, "check-tree-terms"},
		{"coproc", []string{leak + `coproc git commit -n ` + msg + `; wait`}, "check-tree-terms"},
		{"builtin exec", []string{leak + `builtin exec git commit -n ` + msg}, "check-tree-terms"},
		{"dashed git-commit", []string{leak + `"$(git --exec-path)/git-commit" -n ` + msg}, "check-tree-terms"},
		{"echo into sh", []string{leak + `echo 'git commit -n -q -m "docs: add notes"' | sh`}, "check-tree-terms"},
		{"bash here-string", []string{leak + `bash <<< 'git commit -n -q -m "docs: add notes"'`}, "check-tree-terms"},
		{"find -exec", []string{leak + `find . -maxdepth 0 -exec git commit -n ` + msg + ` \;`}, "check-tree-terms"},
		{"script -qc", []string{leak + `script -qc 'git commit -n -q -m "docs: add notes"' /dev/null`}, "check-tree-terms"},
		{"expansion in the command word", []string{leak + `g=git; $g commit -n ` + msg}, "check-tree-terms"},
		{"hooksPath appended to .git/config", []string{`printf '[core]\n\thooksPath = /dev/null\n' >> .git/config && ` + leak + `git commit ` + msg}, "check-tree-terms"},
		{"hooksPath appended, commit next", []string{`printf '[core]\n\thooksPath = /dev/null\n' >> .git/config`, leak + `git commit ` + msg}, "check-tree-terms"},
		{"hooksPath by sed -i", []string{`sed -i 's#hooksPath = .*#hooksPath = /nonexistent#' .git/config && ` + leak + `git commit ` + msg}, "check-tree-terms"},
		{"hooksPath by include.path", []string{`printf '[core]\n\thooksPath = /nonexistent\n' > .git/nohooks && git config include.path nohooks && ` + leak + `git commit ` + msg}, "check-tree-terms"},
		{"hook removed", []string{`rm .git/gate-hooks/pre-commit`, leak + `git commit ` + msg}, "check-tree-terms"},
		{"hook removed, same command", []string{`rm .git/gate-hooks/pre-commit && ` + leak + `git commit ` + msg}, "check-tree-terms"},
		{"hook made non-executable", []string{`chmod -x .git/gate-hooks/pre-commit`, leak + `git commit ` + msg}, "check-tree-terms"},
		{"hook replaced", []string{`printf '#!/bin/sh\nexit 0\n' > .git/gate-hooks/pre-commit && ` + leak + `git commit ` + msg}, "check-tree-terms"},
		{"hooks moved", []string{`mv .git/gate-hooks .git/gate-hooks.off`, leak + `git commit ` + msg}, "check-tree-terms"},
		{"git merge --no-verify", []string{`git merge --no-verify --no-ff -q -m "merged stuff" side`}, "check-commit-subject"},
		{"commit-tree and update-ref", []string{leak + `c=$(git commit-tree -p HEAD -m "docs: add notes" $(git write-tree)) && git update-ref refs/heads/main $c`}, "check-tree-terms"},
		{"a scratch clone fast-forwarded in", []string{`rm -rf ` + other + `/c && git clone -q . ` + other + `/c && cd ` + other + `/c && ` + leak + `git commit ` + msg + ` && cd - >/dev/null && git pull -q --ff-only ` + other + `/c main`}, "check-tree-terms"},
		{"a commit pushed from no local ref", []string{`git init -q --bare ` + other + `/r.git && git remote add o ` + other + `/r.git && ` + leak + `c=$(git commit-tree -p HEAD -m "docs: add notes" $(git write-tree)) && git push -q o $c:refs/heads/main`}, "check-tree-terms"},
		{"an unstaged edit of gates.list", []string{`sed -i 's/^check-tree-terms/# check-tree-terms/' scripts/gates.list && ` + leak + `git commit ` + msg}, "check-tree-terms"},
	}
	for _, sp := range spellings {
		sp := sp
		t.Run(sp.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, sp.name)
			before := run(t, p.dir, p.env, "git", "show-ref", "--head").stdout
			var caught []string
			for i, step := range sp.steps {
				why, wasBlocked, post := p.bash(step)
				if wasBlocked {
					if i == 0 && len(sp.steps) > 1 {
						// A setup step blocked: nothing of the bypass ran.
					}
					caught = append(caught, "blocked before it ran: "+why)
					break
				}
				if post != "" {
					for _, id := range p.newCommits(before) {
						if strings.Contains(post, "Commit "+id) && strings.Contains(post, sp.gate) {
							caught = append(caught, "named after it ran: "+id)
						}
					}
					if len(caught) == 0 {
						t.Errorf("step %d: a PostToolUse reason that names no new commit with %s:\n%s", i, sp.gate, post)
					}
					if strings.Contains(post, "--no-verify") && !strings.Contains(post, "never use --no-verify") {
						t.Errorf("the reason suggests a bypass:\n%s", post)
					}
				}
			}
			stop := p.stop(false)
			landed := p.newCommits(before)
			for _, id := range landed {
				if strings.Contains(stop, "Commit "+id) {
					caught = append(caught, "named at Stop: "+id)
				}
			}
			if len(caught) == 0 && len(landed) == 0 {
				// The placed git hook refused the commit itself (it reads
				// the registry the index records, so an unstaged edit of
				// gates.list disarms nothing): no commit landed at all.
				caught = append(caught, "refused by the git hook: nothing landed")
			}
			if len(caught) == 0 {
				// Nothing blocked or named: then nothing red may have landed.
				t.Fatalf("%q was neither blocked, named after it ran, nor named at Stop; new commits %v\nstop: %s", sp.name, landed, stop)
			}
			t.Logf("%s: %s", sp.name, strings.Join(caught, "; "))
			// The ratchet holds one turn, not every turn.
			if again := p.stop(false); strings.Contains(again, "Commit ") {
				t.Errorf("a second Stop named the same commits again:\n%s", again)
			}
		})
	}
}

// A red commit made where no PostToolUse saw it (a background job, a
// second terminal) still holds the end of the turn, by id; the loop guard
// lets the next stop through; nothing is reset.
func TestAgentOutcomeStopIsARatchet(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "ratchet")
	if _, b, post := p.bash("git status"); b || post != "" {
		t.Fatalf("git status: blocked %v, post %q", b, post)
	}
	if err := os.WriteFile(filepath.Join(p.dir, "docs/leak.md"), []byte(leakLine), 0o644); err != nil {
		t.Fatal(err)
	}
	p.git("add", "docs/leak.md")
	p.git("commit", "-q", "--no-verify", "-m", "docs: add notes")
	id := p.git("rev-parse", "--short", "HEAD")
	// Even a Stop with stop_hook_active names a red commit no Stop has
	// reported yet, once; the next one is let through (the loop guard).
	r := p.stop(true)
	if !strings.Contains(r, "Commit "+id) || !strings.Contains(r, "check-tree-terms") || !strings.Contains(r, "git reset --soft") {
		t.Fatalf("the Stop does not name the red commit %s:\n%s", id, r)
	}
	if r := p.stop(true); r != "" {
		t.Fatalf("stop_hook_active must let the second stop through: %s", r)
	}
	if r := p.stop(false); r != "" {
		t.Fatalf("a commit reported at a Stop holds no later one: %s", r)
	}
	if got := p.git("rev-parse", "--short", "HEAD"); got != id {
		t.Fatalf("HEAD moved from %s to %s", id, got)
	}
}

// git status passes untouched; an Edit of .git/config (or of a placed
// hook, under any spelling of the path) is refused before it runs.
func TestAgentOutcomeGitDirIsNotEdited(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "gitdir")
	pre := p.fire("PreToolUse", "Bash", map[string]any{"tool_input": map[string]any{"command": "git status"}})
	for _, a := range pre {
		if a.code != 0 || strings.Contains(a.stdout, "block") {
			t.Fatalf("git status: %v exit %d %q %q", a.argv, a.code, a.stdout, a.errs)
		}
	}
	if err := os.Symlink(filepath.Join(p.dir, ".git"), filepath.Join(p.dir, "gitlink")); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		filepath.Join(p.dir, ".git/config"),
		filepath.Join(p.dir, ".git/gate-hooks/pre-commit"),
		filepath.Join(p.dir, "docs/../.git/HEAD"),
		filepath.Join(p.dir, "gitlink/refs/heads/main"),
		".git/index",
	} {
		for _, tool := range []string{"Edit", "Write", "MultiEdit"} {
			as := p.fire("PreToolUse", tool, map[string]any{"tool_input": map[string]any{"file_path": path, "old_string": "a", "new_string": "b", "content": "x"}})
			why, ok := blocked(as)
			if !ok || !strings.Contains(why, "git-dir-guard") {
				t.Errorf("%s of %s was not refused: %+v", tool, path, as)
			}
		}
	}
	as := p.fire("PreToolUse", "Edit", map[string]any{"tool_input": map[string]any{"file_path": filepath.Join(p.dir, "docs/guide.md")}})
	if _, ok := blocked(as); ok {
		t.Fatalf("an edit of the work tree was refused: %+v", as)
	}
}

// A clone moved to another directory keeps its hooks: a plain commit of a
// leak is refused by the pre-commit hook, and doctor is clean about the
// hooks path. An absolute path left behind by a move is an error doctor
// names and --install-hooks repairs.
func TestAgentOutcomeMovedCloneKeepsItsHooks(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "moved")
	moved := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Rename(p.dir, moved); err != nil {
		t.Fatal(err)
	}
	p.dir = moved
	// The harness sets $CLAUDE_PROJECT_DIR to the root the session starts
	// in: a session in the moved clone hears the new place.
	for i, kv := range p.env {
		if strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=") {
			p.env[i] = "CLAUDE_PROJECT_DIR=" + moved
		}
	}
	if err := os.WriteFile(filepath.Join(p.dir, "docs/leak.md"), []byte(leakLine), 0o644); err != nil {
		t.Fatal(err)
	}
	p.git("add", "docs/leak.md")
	head := p.git("rev-parse", "HEAD")
	r := run(t, p.dir, p.env, "git", "commit", "-q", "-m", "docs: add notes")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "check-tree-terms") {
		t.Fatalf("the moved clone let the leak commit: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := p.git("rev-parse", "HEAD"); got != head {
		t.Fatal("a commit landed")
	}
	// Through the harness too, in the moved clone.
	why, wasBlocked, post := p.bash(`git commit -q -m "docs: add notes"`)
	if wasBlocked || post != "" || p.git("rev-parse", "HEAD") != head {
		t.Fatalf("the harness in the moved clone: blocked %v (%s) post %q", wasBlocked, why, post)
	}
	// An absolute value left behind by a move: doctor says so, the
	// pre-tool check blocks naming the repair, and --install-hooks repairs.
	p.git("config", "core.hooksPath", "/nonexistent/old/.git/gate-hooks")
	d := run(t, p.dir, p.env, filepath.Join(p.dir, "bin/gates"), "doctor")
	if d.code != 1 || !strings.Contains(d.stdout+d.stderr, "resolves to") {
		t.Fatalf("doctor over a hooks path that resolves to nothing: exit %d\n%s%s", d.code, d.stdout, d.stderr)
	}
	why, wasBlocked, _ = p.bash("ls")
	if !wasBlocked || !strings.Contains(why, "--install-hooks") {
		t.Fatalf("a broken opted-in clone was not blocked with the repair: %q", why)
	}
	if why, wasBlocked, _ := p.bash("bin/gates --install-hooks"); wasBlocked {
		t.Fatalf("the repair itself was blocked: %s", why)
	}
	if v := p.git("config", "core.hooksPath"); v != ".git/gate-hooks" {
		t.Fatalf("--install-hooks left core.hooksPath at %q", v)
	}
	if _, wasBlocked, _ := p.bash("ls"); wasBlocked {
		t.Fatal("still blocked after the repair")
	}
}

// A clone that never opted in is told so once per session and never
// blocked.
func TestAgentOutcomeNotOptedInIsToldOnce(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "optout")
	if r := run(t, p.dir, p.env, filepath.Join(p.dir, "bin/gates"), "--install-hooks", "--restore"); r.code != 0 {
		t.Fatalf("restore: %d %s", r.code, r.stderr)
	}
	in := map[string]any{"tool_input": map[string]any{"command": "ls"}}
	first := p.fire("PreToolUse", "Bash", in)
	if _, ok := blocked(first); ok {
		t.Fatal("a clone that never opted in was blocked")
	}
	said := ""
	for _, a := range first {
		said += a.stdout
	}
	if !strings.Contains(said, "not opted in") || !strings.Contains(said, "additionalContext") {
		t.Fatalf("no advise envelope: %q", said)
	}
	second := p.fire("PreToolUse", "Bash", in)
	for _, a := range second {
		if a.stdout != "" || a.code != 0 {
			t.Fatalf("told twice: %+v", a)
		}
	}
}
