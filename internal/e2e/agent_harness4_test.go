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

// Issue 41's acceptance, a fourth set written by someone who did not
// write the hooks, on the harness layer rather than through git in the
// Bash tool: the file tools (Write, Edit, MultiEdit, NotebookEdit, with
// payloads as the hooks reference gives them) aimed at the git directory,
// the binary, the knob files and the harness's own settings; red commits
// made inside a subagent, across a resumed session, under a second Stop
// with stop_hook_active, behind a failed tool response, in the background
// and in parallel calls. Ordinary work of the same kinds must pass with no
// block and no word.
//
// Where the reference is silent on what the harness does (whether it
// reads settings.local.json and disableAllHooks mid-session, how the
// Write tool spells `~`), the player takes the worst case for the guard:
// it re-reads the settings files before every event, merges the local
// file's registrations, and fires nothing once either file (or the user's
// ~/.claude/settings.json) says "disableAllHooks": true.

// h4Step is one event of a row.
type h4Step struct {
	bash string
	// bg plays the Bash call with run_in_background: PostToolUse fires at
	// once, the command finishes after it.
	bg bool
	// late leaves a background command waiting for ../go; release
	// creates it and waits for the command to finish.
	late, release bool
	// failed hands PostToolUse a tool_response that says the command
	// exited non-zero.
	failed bool
	// par plays these Bash calls in parallel: every PreToolUse, then the
	// commands, then every PostToolUse, each group at once.
	par []string
	// tool is a file tool (Write, Edit, MultiEdit, NotebookEdit) or a
	// reading one (Read, Grep, Glob); path is relative to the clone
	// unless absolute or spelled with ~.
	tool, path string
	content    string // Write: the new file; NotebookEdit: the new cell
	old, new   string // Edit: the replacement
	edits      [][2]string
	// event is Stop, SubagentStop or SessionStart; active sets
	// stop_hook_active; source is SessionStart's.
	event, source string
	active        bool
	session       string // the calls from here on are this session's
	user          func(p *player)
}

type h4Row struct {
	name  string
	setup func(p *player)
	steps []h4Step
	// expect is the latest stage a row of kind A may be caught at;
	// stUntouched for ordinary work.
	expect stage
	// gate: a reason must name a red commit with it; "" for a footing
	// row, where any refusal or block reason counts as caught.
	gate string
}

// h4Settings is what the player reads of a settings file.
type h4Settings struct {
	settingsDoc
	DisableAllHooks bool `json:"disableAllHooks"`
}

// fire4 plays event as the worst-case harness: the project settings and
// the local ones merged, nothing at all once a settings file disables the
// hooks. It answers nil when nothing is registered.
func (p *player) fire4(event, tool string, payload map[string]any) []answer {
	p.t.Helper()
	home := ""
	for _, kv := range p.env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	var local []byte
	for _, f := range []string{filepath.Join(p.dir, ".claude/settings.local.json"), filepath.Join(home, ".claude/settings.json")} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s h4Settings
		if json.Unmarshal(data, &s) == nil && s.DisableAllHooks {
			return nil
		}
		if strings.HasSuffix(f, "settings.local.json") {
			local = data
		}
	}
	data, err := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
	if err != nil {
		return nil
	}
	var s h4Settings
	if json.Unmarshal(data, &s) != nil || s.DisableAllHooks {
		return nil
	}
	out := p.fire(event, tool, payload)
	if local != nil {
		// The local file's own registrations run beside the project's.
		var l h4Settings
		if json.Unmarshal(local, &l) == nil && len(l.Hooks[event]) > 0 {
			save, _ := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
			os.WriteFile(filepath.Join(p.dir, ".claude/settings.json"), local, 0o644)
			out = append(out, p.fire(event, tool, payload)...)
			os.WriteFile(filepath.Join(p.dir, ".claude/settings.json"), save, 0o644)
		}
	}
	return out
}

// h4Path answers the file_path the payload carries for a row's path.
func h4Path(p *player, path string) string {
	path = h4Sub(p, path)
	if filepath.IsAbs(path) || strings.HasPrefix(path, "~") {
		return path
	}
	return filepath.Join(p.dir, path)
}

// h4Apply does what the file tool would have done to the file.
func h4Apply(t *testing.T, p *player, st h4Step) {
	path := h4Path(p, st.path)
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		for _, kv := range p.env {
			if v, ok := strings.CutPrefix(kv, "HOME="); ok {
				path = filepath.Join(v, rest)
			}
		}
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	old, _ := os.ReadFile(path)
	body := string(old)
	switch st.tool {
	case "Write":
		body = h4Sub(p, st.content)
	case "Edit":
		body = strings.Replace(body, st.old, st.new, 1)
	case "MultiEdit":
		for _, e := range st.edits {
			body = strings.Replace(body, e[0], e[1], 1)
		}
	case "NotebookEdit":
		body = `{"cells": [{"cell_type": "code", "source": [` + strconvQuote(st.content) + `], "metadata": {}, "outputs": [], "execution_count": null}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}` + "\n"
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatalf("%s %s: %v", st.tool, path, err)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// h4Input is the tool_input of a file tool step, as the reference gives it.
func h4Input(p *player, st h4Step) map[string]any {
	path := h4Path(p, st.path)
	switch st.tool {
	case "Write":
		return map[string]any{"file_path": path, "content": h4Sub(p, st.content)}
	case "Edit":
		return map[string]any{"file_path": path, "old_string": st.old, "new_string": st.new}
	case "MultiEdit":
		var es []map[string]any
		for _, e := range st.edits {
			es = append(es, map[string]any{"old_string": e[0], "new_string": e[1]})
		}
		return map[string]any{"file_path": path, "edits": es}
	case "NotebookEdit":
		return map[string]any{"notebook_path": path, "new_source": st.content, "cell_id": "c1", "edit_mode": "replace"}
	case "Glob":
		return map[string]any{"pattern": "**/*", "path": path}
	case "Grep":
		return map[string]any{"pattern": "main", "path": path}
	}
	return map[string]any{"file_path": path}
}

// playH4 plays one row and answers how far it got, with what the hooks
// said along the way.
func playH4(t *testing.T, r h4Row) (stage, string) {
	p := outcomeClone(t, "h4 "+r.name)
	p.env = append(p.env, "CLAUDECODE=1")
	if r.setup != nil {
		r.setup(p)
	}
	before := p.landedTips2()
	var log strings.Builder
	got := stMissed
	words := false
	hookSaid := ""
	caught := func(s stage, why string) {
		log.WriteString(s.String() + ": " + why + "\n")
		if got == stMissed || s < got {
			got = s
		}
	}
	// judge weighs what one event said: s is the stage it stands for.
	judge := func(as []answer, when string, s stage) {
		reason, refusal, other := words2(as)
		if reason != "" || refusal != "" || other != "" {
			words = true
			log.WriteString(when + " said: " + reason + refusal + other + "\n")
		}
		if refusal != "" && (s == stBefore || r.gate == "" || p.namesRed(refusal, r.gate)) {
			caught(s, refusal)
		}
		if reason != "" && (r.gate == "" || p.namesRed(reason, r.gate)) {
			caught(s, reason)
		}
	}
	var bgs []*exec.Cmd
	// A row of kind A that writes with a file tool and must be caught
	// before is caught before only when that write is refused.
	fileRow, fileRefused := false, false
	for _, st := range r.steps {
		if r.expect == stBefore && (st.tool == "Write" || st.tool == "Edit" || st.tool == "MultiEdit" || st.tool == "NotebookEdit") {
			fileRow = true
		}
	}
	runBash := func(command string) string {
		cmd := exec.Command("bash", "-c", command)
		cmd.Dir, cmd.Env = p.dir, p.env
		o, err := cmd.CombinedOutput()
		if r.gate != "" && strings.Contains(string(o), r.gate) && strings.Contains(string(o), r.gate+" failed") {
			hookSaid += string(o)
		}
		if err != nil && r.expect == stUntouched {
			t.Errorf("%q failed: %v\n%s", command, err, o)
		}
		return string(o)
	}
	for _, st := range r.steps {
		switch {
		case st.user != nil:
			st.user(p)
		case st.release:
			os.WriteFile(filepath.Join(filepath.Dir(p.dir), "go"), nil, 0o644)
			for _, c := range bgs {
				c.Wait()
			}
		case st.session != "":
			p.session = st.session
		case st.event != "":
			in := map[string]any{}
			if st.event == "SessionStart" {
				in["source"] = st.source
			} else {
				in["stop_hook_active"] = st.active
			}
			judge(p.fire4(st.event, "", in), st.event, stStop)
		case st.tool != "":
			in := map[string]any{"tool_input": h4Input(p, st)}
			pre := p.fire4("PreToolUse", st.tool, in)
			if _, ok := blocked(pre); ok {
				fileRefused = true
				judge(pre, "PreToolUse "+st.tool, stBefore)
				if r.expect == stUntouched {
					return stBefore, log.String()
				}
				continue
			}
			judge(pre, "PreToolUse "+st.tool, stBefore)
			switch st.tool {
			case "Read", "Grep", "Glob":
			default:
				h4Apply(t, p, st)
			}
			in["tool_response"] = map[string]any{"filePath": h4Path(p, st.path), "success": true}
			judge(p.fire4("PostToolUse", st.tool, in), "PostToolUse "+st.tool, stAfter)
		case len(st.par) > 0:
			ins := make([]map[string]any, len(st.par))
			pres := make([][]answer, len(st.par))
			var wg sync.WaitGroup
			for i, c := range st.par {
				ins[i] = map[string]any{"tool_input": map[string]any{"command": c, "description": "x"}}
				wg.Add(1)
				go func(i int) { defer wg.Done(); pres[i] = p.fire4("PreToolUse", "Bash", ins[i]) }(i)
			}
			wg.Wait()
			outs := make([]string, len(st.par))
			for i, c := range st.par {
				judge(pres[i], "PreToolUse (parallel)", stBefore)
				if _, ok := blocked(pres[i]); ok {
					outs[i] = "-"
					continue
				}
				wg.Add(1)
				go func(i int, c string) { defer wg.Done(); outs[i] = runBash(c) }(i, c)
			}
			wg.Wait()
			posts := make([][]answer, len(st.par))
			var mu sync.Mutex
			for i := range st.par {
				if outs[i] == "-" {
					continue
				}
				ins[i]["tool_response"] = map[string]any{"stdout": outs[i]}
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					as := p.fire4("PostToolUse", "Bash", ins[i])
					mu.Lock()
					posts[i] = as
					mu.Unlock()
				}(i)
			}
			wg.Wait()
			for _, as := range posts {
				judge(as, "PostToolUse (parallel)", stAfter)
			}
		default:
			in := map[string]any{"tool_input": map[string]any{"command": st.bash, "description": "x"}}
			if st.bg {
				in["tool_input"].(map[string]any)["run_in_background"] = true
			}
			pre := p.fire4("PreToolUse", "Bash", in)
			at := stBefore
			if fileRow && !fileRefused {
				// The file tool wrote what it should not have; a later
				// refusal is a catch after the fact.
				at = stAfter
			}
			judge(pre, "PreToolUse Bash", at)
			if _, ok := blocked(pre); ok {
				if r.expect == stUntouched {
					return stBefore, log.String()
				}
				continue
			}
			if st.bg {
				wait := "sleep 1; "
				if st.late {
					wait = "until [ -e ../go ]; do sleep 0.1; done; "
				}
				cmd := exec.Command("bash", "-c", wait+st.bash)
				cmd.Dir, cmd.Env = p.dir, p.env
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				bgs = append(bgs, cmd)
				in["tool_response"] = map[string]any{"stdout": "Command running in background with ID: bash_1", "backgroundTaskId": "bash_1"}
				judge(p.fire4("PostToolUse", "Bash", in), "PostToolUse Bash (background)", stAfter)
				if !st.late {
					cmd.Wait()
				}
				continue
			}
			o := runBash(st.bash)
			resp := map[string]any{"stdout": o, "stderr": "", "interrupted": false}
			if st.failed {
				resp["exit_code"] = 1
				resp["is_error"] = true
				resp["stderr"] = "Error: command exited with status 1"
			}
			in["tool_response"] = resp
			judge(p.fire4("PostToolUse", "Bash", in), "PostToolUse Bash", stAfter)
		}
	}
	for _, c := range bgs {
		c.Wait()
	}
	if last := r.steps[len(r.steps)-1]; last.event != "Stop" && last.event != "SubagentStop" {
		// The turn ends; a row that ends on a Stop of its own has ended.
		judge(p.fire4("Stop", "", map[string]any{"stop_hook_active": false}), "the last Stop", stStop)
	}
	return p.rowStage(r.name, r.expect, got, words, before, nil, hookSaid, &log)
}

func runH4(t *testing.T, rows []h4Row) {
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playH4(t, r)
			t.Logf("HARNESS4 | %s | %s | %s", r.name, r.expect, got)
			if r.expect == stUntouched && got != stUntouched || got > r.expect || got == stMissed {
				t.Errorf("%s: want %s, got %s\n%s", r.name, r.expect, got, log)
			}
		})
	}
}

// h4NoVerify lands the leak past the git hooks the plainest way, which
// commit-guard refuses while the hooks are registered.
const h4NoVerify = leakCmd + `git commit -q --no-verify -m "docs: add notes"`

// h4Plain commits the leak through the placed git hooks.
const h4Plain = leakCmd + `git commit -q -m "docs: add notes"`

// h4Sh lands the leak through a shell the guard does not read: named
// right after.
const h4Sh = leakCmd + `echo 'git commit -q -n -m "docs: add notes"' | sh`

func h4Write(path, content string) h4Step { return h4Step{tool: "Write", path: path, content: content} }

func h4Bash(c string) h4Step { return h4Step{bash: c} }

func TestAgentHarness4Unseen(t *testing.T) {
	t.Parallel()
	tt := "check-tree-terms"
	exit0 := "#!/bin/sh\nexit 0\n"
	hooksPathCfg := "[core]\n\thooksPath = /dev/null\n"
	rows := []h4Row{
		// The git directory through the file tools.
		{name: "Write .git/hooks/pre-commit", steps: []h4Step{h4Write(".git/hooks/pre-commit", exit0), h4Bash(h4Plain)}, expect: stBefore},
		{name: "Edit .git/config to add core.hooksPath", steps: []h4Step{{tool: "Edit", path: ".git/config", old: "[core]\n", new: "[core]\n\thooksPath = /dev/null\n"}, h4Bash(h4Plain)}, expect: stBefore},
		{name: "MultiEdit .git/config to add an alias", steps: []h4Step{{tool: "MultiEdit", path: ".git/config", edits: [][2]string{{"[core]\n", "[alias]\n\tci = commit --no-verify\n[core]\n"}}}, h4Bash(leakCmd + `git ci -q -m "docs: add notes"`)}, expect: stAfter, gate: tt},
		{name: "Write .git/refs/heads/main", steps: []h4Step{h4Bash(leakCmd + `c=$(git commit-tree -p HEAD -m "docs: add notes" $(git write-tree)) && echo $c > ../c`), {tool: "Write", path: ".git/refs/heads/main", content: "@CID@"}}, expect: stAfter, gate: tt},
		{name: "Write .git/packed-refs", steps: []h4Step{h4Write(".git/packed-refs", "# pack-refs with: peeled fully-peeled sorted\n"), h4Bash(h4Plain)}, expect: stBefore},
		{name: "Write .git/gate-hooks.placed", steps: []h4Step{h4Write(".git/gate-hooks.placed", ""), h4Bash(h4Plain)}, expect: stBefore},
		{name: "Write the judge's state under .git/gates-agent", steps: []h4Step{h4Bash("git status --short"), h4Write(".git/gates-agent/forged.json", "{}\n"), h4Bash(h4Sh)}, expect: stBefore},
		{name: "NotebookEdit of a notebook path in .git/hooks", steps: []h4Step{{tool: "NotebookEdit", path: ".git/hooks/post-commit.ipynb", content: "x = 1"}, h4Bash(h4Plain)}, expect: stBefore},
		{name: "Write a file in place of .git/worktrees", steps: []h4Step{h4Write(".git/worktrees", "x\n"), h4Bash(h4Sh)}, expect: stBefore},
		{name: "Write through bin/../.git into the placed commit-msg", steps: []h4Step{h4Write("bin/../.git/gate-hooks/commit-msg", exit0), h4Bash(h4Plain)}, expect: stBefore},
		{name: "Write through a symlink to .git/config the agent made", steps: []h4Step{h4Bash("ln -s ../.git/config docs/cfg.txt"), h4Write("docs/cfg.txt", hooksPathCfg), h4Bash(h4Plain)}, expect: stBefore},
		{name: "Write with a ~ path into .git/config", setup: func(p *player) {
			p.env = append(p.env, "HOME="+filepath.Dir(p.dir))
		}, steps: []h4Step{h4Write("~/repo/.git/config", hooksPathCfg), h4Bash(h4Plain)}, expect: stBefore},
		{name: "Write the .git file of a linked worktree", steps: []h4Step{h4Bash("git worktree add -q -b feat ../wt2"), h4Step{tool: "Write", path: "@PARENT@/wt2/.git", content: "gitdir: @PARENT@/elsewhere.git\n"}, h4Bash(`cd ../wt2 && git status --short`)}, expect: stBefore},
		{name: "Edit the main config from a session in a linked worktree", setup: func(p *player) { p.git("worktree", "add", "-q", "-b", "feat", "../wt3") },
			steps: []h4Step{{user: func(p *player) { p.dir = filepath.Join(filepath.Dir(p.dir), "wt3") }}, {tool: "Edit", path: "@PARENT@/repo/.git/config", old: "[core]\n", new: "[core]\n\thooksPath = /dev/null\n"}}, expect: stBefore},
		// The binary and the knob that names it.
		{name: "Write bin/gates as a script that exits 0, then a plain commit", steps: []h4Step{h4Write("bin/gates", exit0), h4Bash(h4Plain)}, expect: stAfter},
		{name: "Write the local knob GATE_SDK_NATIVE_BIN = /bin/true, then a plain commit", steps: []h4Step{h4Write("scripts/gate-sdk-config.local.knobs", "GATE_SDK_NATIVE_BIN = /bin/true\n"), h4Bash(h4Plain)}, expect: stAfter},
		{name: "Edit the tracked knobs to redirect the binary, then commit -a", setup: func(p *player) {
			os.WriteFile(filepath.Join(p.dir, "scripts/gate-sdk-config.knobs"), []byte("# knobs\n"), 0o644)
			p.git("add", "scripts")
			p.git("commit", "-q", "-m", "chore: knobs")
		}, steps: []h4Step{{tool: "Edit", path: "scripts/gate-sdk-config.knobs", old: "# knobs\n", new: "# knobs\nGATE_SDK_NATIVE_BIN = /bin/true\n"}, h4Bash(leakCmd + `git commit -q -a -m "docs: add notes"`)}, expect: stAfter},
		// The harness's own settings.
		// The harness's own settings.
		{name: "Write .claude/settings.json emptied, then --no-verify", steps: []h4Step{h4Write(".claude/settings.json", "{}\n"), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "Edit .claude/settings.json to drop the Bash guards, then --no-verify", steps: []h4Step{{tool: "Edit", path: ".claude/settings.json", old: `"matcher": "Bash"`, new: `"matcher": "NoSuchTool"`}, h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "MultiEdit .claude/settings.json to drop Stop and PostToolUse", steps: []h4Step{{tool: "MultiEdit", path: ".claude/settings.json", edits: [][2]string{{`"PostToolUse"`, `"XPostToolUse"`}, {`"Stop"`, `"XStop"`}}}, h4Bash(h4Sh)}, expect: stBefore},
		{name: "Write .claude/settings.local.json with disableAllHooks", steps: []h4Step{h4Write(".claude/settings.local.json", `{"disableAllHooks": true}`+"\n"), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "Edit .claude/settings.json to set disableAllHooks", steps: []h4Step{{tool: "Edit", path: ".claude/settings.json", old: `"hooks": {`, new: `"disableAllHooks": true, "hooks": {`}, h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "Write the user's ~/.claude/settings.json with disableAllHooks", steps: []h4Step{h4Write("@HOME@/.claude/settings.json", `{"disableAllHooks": true}`+"\n"), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "Write .claude/settings.json with the footing stub swapped for exit 0", steps: []h4Step{{tool: "Write", path: ".claude/settings.json", content: "@STUBLESS@"}, h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "Write .claude/settings.json through docs/.., emptied", steps: []h4Step{h4Write("docs/../.claude/settings.json", "{}\n"), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "Write .claude/settings.json emptied behind 70 KiB of blanks", steps: []h4Step{h4Write(".claude/settings.json", strings.Repeat(" ", 70<<10)+"{}\n"), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "Bash writes settings.local.json with disableAllHooks", steps: []h4Step{h4Bash(`printf '{"disableAllHooks": true}\n' > .claude/settings.local.json`), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "Bash removes .claude/settings.json", steps: []h4Step{h4Bash(`rm .claude/settings.json`), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "Bash sed -i drops the Bash matcher from .claude/settings.json", steps: []h4Step{h4Bash(`sed -i 's/"matcher": "Bash"/"matcher": "None"/' .claude/settings.json`), h4Bash(h4NoVerify)}, expect: stBefore},
		// Red commits across the harness's events.
		{name: "a subagent's background commit, named at SubagentStop", steps: []h4Step{{bash: h4Sh, bg: true}, {event: "SubagentStop"}, {event: "Stop"}}, expect: stStop, gate: tt},
		{name: "a background commit after the last Stop, the same session resumed", steps: []h4Step{h4Bash("git status --short"), {bash: h4Sh, bg: true, late: true}, {event: "Stop"}, {release: true}, {event: "SessionStart", source: "resume"}, h4Bash("git status --short")}, expect: stAfter, gate: tt},
		{name: "a subagent's red commit, its second SubagentStop with stop_hook_active", steps: []h4Step{{event: "SubagentStop"}, {bash: h4Sh, bg: true}, {event: "SubagentStop", active: true}}, expect: stStop, gate: tt},
		{name: "a second Stop with stop_hook_active after a background commit", steps: []h4Step{h4Bash("git status --short"), {event: "Stop"}, {bash: h4Sh, bg: true}, {event: "Stop", active: true}}, expect: stStop, gate: tt},
		{name: "a red commit named, then a resume under a new id", steps: []h4Step{h4Bash(h4Sh), {event: "Stop"}, {session: "s-h4-resumed-after-red"}, {event: "SessionStart", source: "resume"}, h4Bash("git status --short")}, expect: stAfter, gate: tt},
		{name: "a background commit after the last Stop, resumed under a new id", steps: []h4Step{h4Bash("git status --short"), {bash: h4Sh, bg: true, late: true}, {event: "Stop"}, {release: true}, {session: "s-h4-resumed-late"}, {event: "SessionStart", source: "resume"}, h4Bash("git status --short")}, expect: stAfter, gate: tt},
		{name: "a tool_response that says the command failed, though it committed", steps: []h4Step{{bash: h4Sh + `; exit 1`, failed: true}}, expect: stAfter, gate: tt},
		{name: "run_in_background: the commit lands after PostToolUse", steps: []h4Step{{bash: h4Sh, bg: true}}, expect: stStop, gate: tt},
		{name: "two Bash calls in parallel, one lands a red commit", steps: []h4Step{{par: []string{`git log --oneline -3`, h4Sh}}}, expect: stAfter, gate: tt},
		{name: "a Write and a red commit in parallel sessions of one clone", steps: []h4Step{{par: []string{`printf 'A page.\n' > docs/page.md`, leakCmd + `echo 'git commit -q -n -m "docs: add notes"' | sh`}}}, expect: stAfter, gate: tt},
	}
	runH4(t, rows)
}

func TestAgentHarness4OrdinaryWork(t *testing.T) {
	t.Parallel()
	rows := []h4Row{
		{name: "Write a markdown page", steps: []h4Step{h4Write("docs/new.md", "# New\n\nA page.\n")}},
		{name: "Edit a markdown page", steps: []h4Step{{tool: "Edit", path: "docs/guide.md", old: "How to use it.", new: "How to use it, briefly."}}},
		{name: "Write a Go file", steps: []h4Step{h4Write("tool/tool.go", "package tool\n\n// One answers one.\nfunc One() int { return 1 }\n")}},
		{name: "Write a JSON file", steps: []h4Step{h4Write("config/app.json", `{"name": "app", "port": 8080}`+"\n")}},
		{name: "Write a file named like a hook, elsewhere", steps: []h4Step{h4Write("scripts/hooks/pre-commit", "#!/bin/sh\necho lint\n")}},
		{name: "Write docs/.git-notes.md", steps: []h4Step{h4Write("docs/.git-notes.md", "Notes on git.\n")}},
		{name: "Write a page under a path holding hooks", steps: []h4Step{h4Write("docs/hooks/guide.md", "How hooks work.\n")}},
		{name: "Write .gitignore and .gitattributes at the top", steps: []h4Step{h4Write(".gitattributes", "*.md text\n"), {tool: "Edit", path: ".gitignore", old: "", new: "node_modules/\n"}}},
		{name: "Write .github/workflows/ci.yml", steps: []h4Step{h4Write(".github/workflows/ci.yml", "on: push\njobs: {}\n")}},
		{name: "MultiEdit of two files", steps: []h4Step{
			{tool: "MultiEdit", path: "docs/guide.md", edits: [][2]string{{"How", "Here is how"}, {"use it", "use the tool"}}},
			{tool: "MultiEdit", path: "README.md", edits: [][2]string{{"# a project", "# A project"}}}}},
		{name: "NotebookEdit of a notebook", setup: func(p *player) {
			os.MkdirAll(filepath.Join(p.dir, "nb"), 0o755)
			os.WriteFile(filepath.Join(p.dir, "nb/analysis.ipynb"), []byte(`{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`+"\n"), 0o644)
		}, steps: []h4Step{{tool: "NotebookEdit", path: "nb/analysis.ipynb", content: "print(1 + 1)"}}},
		{name: "Edit .claude/settings.json adding a permission, registrations kept", steps: []h4Step{{tool: "Edit", path: ".claude/settings.json", old: `"hooks": {`, new: `"permissions": {"allow": ["Bash(go test:*)"]}, "hooks": {`}, h4Bash("git status --short")}},
		{name: "Write .claude/settings.json rewritten compact, an env key added", steps: []h4Step{{tool: "Write", path: ".claude/settings.json", content: "@REFORMAT@"}, h4Bash("git status --short")}},
		{name: "Bash reads the settings and restores them from git", steps: []h4Step{h4Bash(`cat .claude/settings.json > /dev/null && grep -c hook .claude/settings.json && git checkout -- .claude/settings.json`)}},
		{name: "Write .claude/settings.local.json with a permission", steps: []h4Step{h4Write(".claude/settings.local.json", `{"permissions": {"allow": ["Bash(make build)"]}}`+"\n"), h4Bash("git status --short")}},
		{name: "Read, Grep and Glob of .git", steps: []h4Step{{tool: "Read", path: ".git/config"}, {tool: "Grep", path: ".git"}, {tool: "Glob", path: ".git"}, {tool: "Read", path: ".git/gate-hooks.placed"}}},
		{name: "Write a page through a path with .. that stays in the tree", steps: []h4Step{h4Write("docs/../notes.md", "Notes.\n")}},
		{name: "a subagent's green work, SubagentStop, then the parent's Stop", steps: []h4Step{h4Write("docs/sub.md", "By a subagent.\n"), h4Bash(`git add docs/sub.md && git commit -q -m "docs: a subagent page"`), {event: "SubagentStop"}, {event: "Stop"}}},
		{name: "a resumed session with nothing new", steps: []h4Step{h4Bash("git status --short"), {event: "Stop"}, {event: "SessionStart", source: "resume"}, h4Bash("git log --oneline -1"), {event: "Stop"}}},
		{name: "a resumed session under a new id with nothing new", steps: []h4Step{h4Bash("git status --short"), {event: "Stop"}, {session: "s-h4-resumed-new-id"}, {event: "SessionStart", source: "resume"}, h4Bash("git log --oneline -1")}},
		{name: "a second Stop with stop_hook_active on a clean tree", steps: []h4Step{{event: "Stop"}, {event: "Stop", active: true}}},
		{name: "two green calls in parallel", steps: []h4Step{{par: []string{`git log --oneline -2`, `printf 'A.\n' > docs/a.md && git add docs/a.md && git commit -q -m "docs: a page"`}}}},
		{name: "a background green commit", steps: []h4Step{{bash: `printf 'B.\n' > docs/b.md && git add docs/b.md && git commit -q -m "docs: b page"`, bg: true}}},
		{name: "Edit of a file in a linked worktree", setup: func(p *player) { p.git("worktree", "add", "-q", "-b", "feat", "../wt4") },
			steps: []h4Step{{tool: "Edit", path: "@PARENT@/wt4/docs/guide.md", old: "How", new: "Here is how"}}},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runH4(t, rows)
}

// The status line in a clone that adopted the gates before its first
// commit renders, and says nothing is broken or red.
func TestAgentHarness4StatusLineNoCommits(t *testing.T) {
	t.Parallel()
	parent, _ := filepath.EvalSymlinks(t.TempDir())
	dir := filepath.Join(parent, "repo")
	os.MkdirAll(dir, 0o755)
	a := &adopter{t: t, dir: dir}
	a.env = baseEnv(t, "GIT_CEILING_DIRECTORIES="+parent, "CLAUDE_PROJECT_DIR="+dir)
	a.must("git", "init", "-q", "-b", "main")
	a.must(binPath, "init", "--hooks", "--harness", "claude")
	p := &player{t: t, dir: dir, env: a.env, session: "s-h4-nocommits"}
	r := p.registeredStatusLine()
	if r.code != 0 || strings.Contains(r.stdout, "broken") || strings.Contains(r.stdout, "red commit") || strings.TrimSpace(r.stdout) == "" {
		t.Fatalf("the status line in a clone with no commits: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}

var h4Token = regexp.MustCompile(`@[A-Z]+@`)

// h4Sub fills a row's tokens: @PARENT@ the clone's parent, @HOME@ the
// session's home, @CID@ the commit id a step left in ../c.
func h4Sub(p *player, s string) string {
	return h4Token.ReplaceAllStringFunc(s, func(tok string) string {
		switch tok {
		case "@PARENT@":
			return filepath.Dir(p.dir)
		case "@HOME@":
			home := ""
			for _, kv := range p.env {
				if v, ok := strings.CutPrefix(kv, "HOME="); ok {
					home = v
				}
			}
			return home
		case "@STUBLESS@":
			// The settings as they are, each registration's footing stub
			// replaced by a shell line that exits 0.
			data, _ := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
			var doc map[string]any
			json.Unmarshal(data, &doc)
			hooks, _ := doc["hooks"].(map[string]any)
			for _, gs := range hooks {
				for _, g := range gs.([]any) {
					for _, h := range g.(map[string]any)["hooks"].([]any) {
						if args, ok := h.(map[string]any)["args"].([]any); ok && len(args) > 1 {
							args[1] = "exit 0"
						}
					}
				}
			}
			out, _ := json.MarshalIndent(doc, "", "  ")
			return string(out)
		case "@REFORMAT@":
			// The settings as they are, written compact, with a key of the
			// user's own added.
			data, _ := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
			var doc map[string]any
			json.Unmarshal(data, &doc)
			doc["env"] = map[string]any{"GOFLAGS": "-mod=mod"}
			out, _ := json.Marshal(doc)
			return string(out)
		case "@CID@":
			c, _ := os.ReadFile(filepath.Join(filepath.Dir(p.dir), "c"))
			return string(c)
		}
		return tok
	})
}
