package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 41's acceptance, a sixth set of spellings by someone who did not
// write the hook: the harness settings rewritten by programs no guard
// reads the spelling of (node, jq, python, tar, unzip, perl, git
// checkout of an older commit, git stash, git apply), a symlink swapped in
// for the settings, the user's own settings and CLAUDE_CONFIG_DIR's,
// a matcher, a timeout or the command changed, a file with comments, a
// BOM or a huge size, each judged from the file: kept out of the session
// by ConfigChange, told after the command and on the status line. Then
// the workflow gates over a staged tree: a commit is judged by what it
// holds, whatever the disk has beside it (each row puts the disk back
// after its commit: what is left uncommitted is the Stop's to name).
// Controls of the same kinds (the user's own settings edits, an
// upgrade's init, ordinary workflow work) pass with no word.

// limits6 are the rows whose miss is written as a limit in SPEC.md: the
// row keeps its honest expectation, and the miss is reported, not hidden.
var limits6 = map[string]string{}

// set6Row is one settings row: cmd runs as one Bash call of a session
// whose hooks were loaded from the settings as they stood before it.
type set6Row struct {
	name  string
	setup func(p *player)
	cmd   string
	// cut: the command takes the gates' hooks away, so it must be refused
	// before it runs, or told after it, kept out by ConfigChange and shown
	// on the status line. A control (cut false) passes with no word.
	cut bool
	// red: the command also lands a red commit, which must be refused or
	// named after it.
	red bool
	// next runs as the following Bash call and lands a red commit, which
	// the hooks the session kept must refuse or name.
	next string
}

// set6Py runs a Python program over the project settings d (parsed),
// written back as JSON; p is the path.
func set6Py(body string) string {
	return `python3 -c 'import json,os; p=".claude/settings.json"; d=json.load(open(p)); ` + body + `; json.dump(d, open(p,"w"), indent=2)'`
}

// set6Each runs stmt for every gates hook h of every group g.
func set6Each(stmt string) string {
	return set6Py(`[` + stmt + ` for ev in d["hooks"].values() for g in ev for h in g["hooks"]]`)
}

func playSettings6(t *testing.T, r set6Row) (miss bool, log string) {
	p := outcomeClone(t, "set6 "+r.name)
	p.env = append(p.env, "CLAUDECODE=1")
	home := ""
	for _, kv := range p.env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	if r.setup != nil {
		r.setup(p)
	}
	user := filepath.Join(home, ".claude/settings.json")
	for _, kv := range p.env {
		if v, ok := strings.CutPrefix(kv, "CLAUDE_CONFIG_DIR="); ok {
			user = filepath.Join(v, "settings.json")
		}
	}
	var err error
	if p.loaded, err = os.ReadFile(filepath.Join(p.dir, ".claude/settings.json")); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	// The session begins: its first command records the settings.
	if why, blk, post := p.bash("git status --short"); blk || post != "" {
		t.Fatalf("the first command: blocked %v %q, after %q", blk, why, post)
	}
	before := p.git("rev-parse", "HEAD")
	why, blk, post := p.bash(r.cmd)
	b.WriteString("before: " + why + "\nafter: " + post + "\n")
	kept := false
	for src, f := range map[string]string{"project_settings": filepath.Join(p.dir, ".claude/settings.json"), "local_settings": filepath.Join(p.dir, ".claude/settings.local.json"), "user_settings": user} {
		for _, a := range p.fire("ConfigChange", src, map[string]any{"source": src, "file_path": f}) {
			if a.code == 2 {
				kept = true
			}
			if a.code != 0 || a.errs != "" {
				b.WriteString("ConfigChange " + src + ": " + a.errs + "\n")
			}
		}
	}
	if r.next != "" {
		head := p.git("rev-parse", "HEAD")
		why, blk, post := p.bash(r.next)
		b.WriteString("next, before: " + why + "\nnext, after: " + post + "\n")
		if !blk && !p.namesRed(post, "check-tree-terms") && p.git("rev-parse", "HEAD") != head {
			b.WriteString("the next command's red commit was not named\n")
			miss = true
		}
	}
	sl := p.statusline()
	stop := p.stop(false)
	b.WriteString("status line: " + sl + "\nstop: " + stop + "\n")
	if !r.cut {
		return miss || blk || post != "" || kept || stop != "" || strings.Contains(sl, "broken"), b.String()
	}
	if r.red && !blk && !p.namesRed(post, "check-tree-terms") && p.git("rev-parse", "HEAD") != before {
		b.WriteString("the red commit was not named after the command\n")
		miss = true
	}
	if blk {
		return miss, b.String()
	}
	told := strings.Contains(post, "lost the gates' hooks")
	if !told || !kept || !strings.Contains(sl, "lost the gates' hooks") {
		miss = true
	}
	return miss, b.String()
}

func runSettings6(t *testing.T, rows []set6Row) {
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			miss, log := playSettings6(t, r)
			t.Logf("UNSEEN6 | %s | cut %v | missed %v", r.name, r.cut, miss)
			reportLimited(t, "UNSEEN6", limits6, r.name, miss, "missed\n"+log)
		})
	}
}

func TestAgentUnseen6Settings(t *testing.T) {
	t.Parallel()
	const sh6 = ` && ` + leakCmd + `echo 'git commit -q -n -m "docs: add notes"' | sh`
	// ../old.json: the settings with the Bash guards dropped, made
	// outside the clone.
	const old = `python3 -c 'import json; d=json.load(open(".claude/settings.json")); d["hooks"]["PreToolUse"]=[g for g in d["hooks"]["PreToolUse"] if g.get("matcher")!="Bash"]; json.dump(d, open("../old.json","w"), indent=2)' && `
	// cutCommit commits a cut settings file before the session, then puts
	// the whole one back, so an older commit holds the cut.
	cutCommit := func(p *player) {
		sf := filepath.Join(p.dir, ".claude/settings.json")
		whole, _ := os.ReadFile(sf)
		os.WriteFile(sf, []byte("{}\n"), 0o644)
		p.git("commit", "-q", "-am", "chore: settings emptied")
		os.WriteFile(sf, whole, 0o644)
		p.git("commit", "-q", "-am", "chore: settings back")
	}
	userOwn := func(p *player) {
		for _, kv := range p.env {
			if v, ok := strings.CutPrefix(kv, "HOME="); ok {
				os.MkdirAll(filepath.Join(v, ".claude"), 0o755)
				os.WriteFile(filepath.Join(v, ".claude/settings.json"), []byte(`{"model": "sonnet"}`+"\n"), 0o644)
			}
		}
	}
	configDir := func(p *player) {
		d := filepath.Join(filepath.Dir(p.dir), "cfg")
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "settings.json"), []byte(`{"model": "sonnet"}`+"\n"), 0o644)
		p.env = append(p.env, "CLAUDE_CONFIG_DIR="+d)
	}
	rows := []set6Row{
		{name: "node rewrites the settings without the Bash guards", cut: true, cmd: `node -e 'const f=require("fs"),p=".claude/settings.json",d=JSON.parse(f.readFileSync(p));d.hooks.PreToolUse=d.hooks.PreToolUse.filter(g=>g.matcher!=="Bash");f.writeFileSync(p,JSON.stringify(d,null,2))'`},
		{name: "jq into a temporary file, then sponge-like cat back through python", cut: true, cmd: `jq 'del(.hooks.PostToolUse)' .claude/settings.json > ../s.json && python3 -c 'import shutil; shutil.copyfile("../s.json", ".claude/settings.json")'`},
		{name: "a tar of an older cut settings file extracted over the clone", cut: true, cmd: `mkdir -p ../t/.claude && printf '{}\n' > ../t/.claude/settings.json && tar -C ../t -cf ../t.tar .claude && tar -xf ../t.tar`},
		{name: "unzip -o of a cut settings file", cut: true, cmd: `mkdir -p ../z/.claude && printf '{"hooks": {}}\n' > ../z/.claude/settings.json && (cd ../z && python3 -m zipfile -c ../z.zip .claude) && unzip -qo ../z.zip`},
		{name: "perl File::Copy of a cut settings file into .claude", cut: true, cmd: old + `perl -MFile::Copy -e 'copy("../old.json", ".claude/settings.json") or die'`},
		{name: "git checkout of an older commit's settings", setup: cutCommit, cut: true, cmd: `git checkout HEAD~1 -- .claude/settings.json`},
		{name: "git restore --source of an older commit's settings", setup: cutCommit, cut: true, cmd: `git restore --source=HEAD~1 .claude/settings.json`},
		{name: "git stash of the whole settings then stash pop of a cut", cut: true, cmd: old + `python3 -c 'import shutil; shutil.copyfile("../old.json", ".claude/settings.json")' && git stash -q && git stash pop -q`},
		{name: "git apply of a patch that cuts the settings", cut: true, cmd: old + `git diff --no-index .claude/settings.json ../old.json | sed 's#b/\.\./old\.json#b/.claude/settings.json#; s#a/\.claude#a/.claude#' > ../cut.patch; git apply ../cut.patch`},
		{name: "a symlink to a cut copy swapped in for settings.json by python", cut: true, cmd: old + `python3 -c 'import os; os.remove(".claude/settings.json"); os.symlink(os.path.abspath("../old.json"), ".claude/settings.json")'`},
		{name: "the .claude directory renamed away and a symlink to a bare one swapped in", cut: true, cmd: `mkdir -p ../c2 && printf '{}\n' > ../c2/settings.json && python3 -c 'import os; os.rename(".claude", "../c1"); os.symlink(os.path.abspath("../c2"), ".claude")'`},
		{name: "python writes disableAllHooks into the user's settings", setup: userOwn, cut: true, cmd: `python3 -c 'import json,os; p=os.path.expanduser("~/.claude/settings.json"); d=json.load(open(p)); d["disableAllHooks"]=True; json.dump(d, open(p,"w"))'`},
		{name: "python writes disableAllHooks into CLAUDE_CONFIG_DIR's settings", setup: configDir, cut: true, cmd: `python3 -c 'import json,os; p=os.environ["CLAUDE_CONFIG_DIR"]+"/settings.json"; d=json.load(open(p)); d["disableAllHooks"]=True; json.dump(d, open(p,"w"))'`},
		{name: "settings.local.json created by node with disableAllHooks", cut: true, cmd: `node -e 'require("fs").writeFileSync(".claude/settings.local.json", JSON.stringify({disableAllHooks: true}))'`},
		{name: "the Bash matcher renamed Bash2 by python", cut: true, cmd: set6Py(`[g.__setitem__("matcher", "Bash2") for ev in d["hooks"].values() for g in ev if g.get("matcher")=="Bash"]`)},
		{name: "every gates hook given a timeout of 1 second", cut: true, cmd: set6Each(`h.__setitem__("timeout", 1)`)},
		{name: "every gates hook given a timeout of 0", cut: true, cmd: set6Each(`h.__setitem__("timeout", 0)`)},
		{name: "the hook command changed to a fake sh elsewhere", cut: true, cmd: `mkdir -p ../fake && printf '#!/bin/sh\nexit 0\n' > ../fake/sh && chmod +x ../fake/sh && ` + set6Each(`h.__setitem__("command", os.path.abspath("../fake/sh"))`)},
		{name: "the binary path in the args changed to /bin/true", cut: true, cmd: set6Each(`h["args"].__setitem__(-3, "/bin/true")`)},
		{name: "the settings given a comment line", cut: true, cmd: `python3 -c 'p=".claude/settings.json"; s=open(p).read(); open(p,"w").write("// settings\n"+s)'`},
		{name: "the settings cut with the size and change time kept", cut: true, cmd: `python3 -c 'import os; p=".claude/settings.json"; st=os.stat(p); s=open(p).read().replace("\"matcher\": \"Bash\"", "\"matcher\": \"Bask\""); open(p,"w").write(s); os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))'`},
		{name: "a 20 MiB settings file without the gates' hooks", cut: true, cmd: `python3 -c 'import json; json.dump({"env": {"X": "x"*(20<<20)}}, open(".claude/settings.json","w"))'`},
		{name: "python cuts the settings and lands a red commit in the same command", cut: true, red: true, cmd: set6Py(`d["hooks"].pop("PreToolUse")`) + sh6},
		{name: "node writes disableAllHooks locally and lands a red commit in the same command", cut: true, red: true, cmd: `node -e 'require("fs").writeFileSync(".claude/settings.local.json", "{\"disableAllHooks\": true}")'` + sh6},
		{name: "the settings given a BOM by python", cut: true, cmd: `python3 -c 'p=".claude/settings.json"; s=open(p,encoding="utf-8").read(); open(p,"w",encoding="utf-8-sig").write(s)'`},
		{name: "jq drops the Bash guards, then --no-verify of a leak in the next command", cut: true, next: h4NoVerify, cmd: `jq '.hooks.PreToolUse |= map(select(.matcher != "Bash"))' .claude/settings.json > ../s.json && python3 -c 'import shutil; shutil.copyfile("../s.json", ".claude/settings.json")'`},
		{name: "python writes disableAllHooks locally, then a red commit through sh in the next command", cut: true, next: leakCmd + `echo 'git commit -q -n -m "docs: add notes"' | sh`, cmd: `python3 -c 'import json; json.dump({"disableAllHooks": True}, open(".claude/settings.local.json","w"))'`},
		{name: "the timeouts cut to 1, then --no-verify of a leak in the next command", cut: true, next: h4NoVerify, cmd: set6Each(`h.__setitem__("timeout", 1)`)},
		// Controls.
		{name: "control: a gates registration duplicated by python", cmd: set6Py(`d["hooks"]["PreToolUse"].append(d["hooks"]["PreToolUse"][0])`)},
		{name: "control: a permission added by node", cmd: `node -e 'const f=require("fs"),p=".claude/settings.json",d=JSON.parse(f.readFileSync(p));d.permissions={allow:["Bash(npm test:*)"]};f.writeFileSync(p,JSON.stringify(d,null,2))'`},
		{name: "control: an env and a model set by jq through python", cmd: `jq '.env={"GOFLAGS":"-mod=mod"} | .model="opus"' .claude/settings.json > ../s.json && python3 -c 'import shutil; shutil.copyfile("../s.json", ".claude/settings.json")'`},
		{name: "control: the user's own statusLine set in their settings", setup: userOwn, cmd: `python3 -c 'import json,os; p=os.path.expanduser("~/.claude/settings.json"); d=json.load(open(p)); d["statusLine"]={"type":"command","command":"echo hi"}; json.dump(d, open(p,"w"))'`},
		{name: "control: a local settings file with a permission, by python", cmd: `python3 -c 'import json; json.dump({"permissions": {"allow": ["Read"]}}, open(".claude/settings.local.json","w"))'`},
		{name: "control: every gates hook given a longer timeout", cmd: set6Each(`h.__setitem__("timeout", 120)`)},
		{name: "control: the settings written back the same, reformatted", cmd: set6Py(`None`)},
		{name: "control: an upgrade's init --harness claude", cmd: `bin/gates init --harness claude >/dev/null`},
		{name: "control: CLAUDE_CONFIG_DIR's settings given a model", setup: configDir, cmd: `python3 -c 'import json,os; p=os.environ["CLAUDE_CONFIG_DIR"]+"/settings.json"; json.dump({"model": "opus"}, open(p,"w"))'`},
	}
	runSettings6(t, rows)
}

// wf6 commits, before the session, check-action-pinning registered and a
// green workflow (its action pinned by digest).
func wf6(p *player) {
	p.t.Helper()
	wf := filepath.Join(p.dir, ".github/workflows/ci.yml")
	os.MkdirAll(filepath.Dir(wf), 0o755)
	os.WriteFile(wf, []byte(wf6Green), 0o644)
	f, _ := os.OpenFile(filepath.Join(p.dir, "scripts/gates.list"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("check-action-pinning\n")
	f.Close()
	p.git("add", "-A")
	p.git("commit", "-q", "-m", "ci: a workflow")
}

const wf6Green = "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11 # v4.1.1\n"

// wf6Red writes a workflow pinned by tag to the path in $w.
const wf6Red = `printf 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n' > "$w" && `

// wf6Doc makes a green change to commit.
const wf6Doc = `printf 'More.\n' >> docs/guide.md && git add docs/guide.md && `

func TestAgentUnseen6Workflows(t *testing.T) {
	t.Parallel()
	const ap = "check-action-pinning"
	const msg = "docs: more"
	rows := []plumbingRow{
		// Held by the commit: named.
		{name: "a red workflow staged, then deleted on disk, committed", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/new.yml && ` + wf6Red + `git add "$w" && rm "$w" && git commit -q -m "ci: a new workflow"`)}, expect: stHook, gate: ap},
		{name: "a red workflow staged, then deleted on disk, committed through sh", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/new.yml && ` + wf6Red + `git add "$w" && rm "$w" && echo 'git commit -q -n -m "ci: a new workflow"' | sh`)}, expect: stAfter, gate: ap},
		{name: "the green workflow made red and renamed, committed through sh", setup: wf6, steps: []plumbingStep{bashStep(`git mv .github/workflows/ci.yml .github/workflows/build.yml && w=.github/workflows/build.yml && ` + wf6Red + `git add "$w" && echo 'git commit -q -n -m "ci: rename the workflow"' | sh`)}, expect: stAfter, gate: ap},
		{name: "a red workflow staged, the disk copy made green, committed through sh", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/ci.yml && ` + wf6Red + `git add "$w" && git show HEAD:"$w" > "$w" && echo 'git commit -q -n -m "ci: pin by tag"' | sh`)}, expect: stAfter, gate: ap},
		{name: "a red workflow in the index by update-index --cacheinfo, skip-worktree set, committed", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/ci.yml && ` + wf6Red + `git add "$w" && git show HEAD:"$w" > "$w" && git update-index --skip-worktree "$w" && git commit -q -m "ci: pin by tag"`)}, expect: stHook, gate: ap},
		// Not held by the commit: it passes.
		{name: "an untracked red workflow beside a green commit", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/new.yml && ` + wf6Red + wf6Doc + `git commit -q -m "` + msg + `" && rm "$w"`)}, expect: stUntouched},
		{name: "an ignored red workflow beside a green commit", setup: wf6, steps: []plumbingStep{bashStep(`printf 'scratch.yml\n' > .github/workflows/.gitignore && git add .github/workflows/.gitignore && w=.github/workflows/scratch.yml && ` + wf6Red + wf6Doc + `git commit -q -m "` + msg + `"`)}, expect: stUntouched},
		{name: "a skip-worktree workflow made red on disk beside a green commit", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/ci.yml && git update-index --skip-worktree "$w" && ` + wf6Red + wf6Doc + `git commit -q -m "` + msg + `"`)}, expect: stUntouched},
		{name: "an assume-unchanged workflow made red on disk beside a green commit", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/ci.yml && git update-index --assume-unchanged "$w" && ` + wf6Red + wf6Doc + `git commit -q -m "` + msg + `"`)}, expect: stUntouched},
		{name: "a red workflow added with intent-to-add beside a green commit", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/new.yml && ` + wf6Red + `git add -N "$w" && ` + wf6Doc + `git commit -q -m "` + msg + `" && git rm -qf "$w"`)}, expect: stUntouched},
		{name: "a red workflow on disk outside a sparse cone beside a green commit", setup: wf6, steps: []plumbingStep{bashStep(`git sparse-checkout set --no-cone '/docs/' '/scripts/' '/bin/' '/.claude/' '/*' && mkdir -p .github/workflows && w=.github/workflows/ci.yml && ` + wf6Red + wf6Doc + `git commit -q -m "` + msg + `" && rm "$w" && git sparse-checkout disable`)}, expect: stUntouched},
		{name: "a red workflow modified on disk, not staged, beside a green commit", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/ci.yml && ` + wf6Red + wf6Doc + `git commit -q -m "` + msg + `" && git checkout -- "$w"`)}, expect: stUntouched},
		{name: "a red workflow staged, a commit of another path only, the workflow unstaged after", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/new.yml && ` + wf6Red + `git add "$w" && printf 'More.\n' >> docs/guide.md && git commit -q -m "` + msg + `" -- docs/guide.md && git rm -qf "$w"`)}, expect: stUntouched},
		{name: "a red workflow committed by commit -a over a skip-worktree file", setup: wf6, steps: []plumbingStep{bashStep(`w=.github/workflows/ci.yml && git update-index --skip-worktree "$w" && ` + wf6Red + `printf 'More.\n' >> docs/guide.md && git commit -qam "` + msg + `"`)}, expect: stUntouched},
		{name: "the green workflow renamed and committed", setup: wf6, steps: []plumbingStep{bashStep(`git mv .github/workflows/ci.yml .github/workflows/build.yml && git commit -q -m "ci: name the workflow build"`)}, expect: stUntouched},
		{name: "the green workflow deleted on disk, not staged, a green commit", setup: wf6, steps: []plumbingStep{bashStep(`rm .github/workflows/ci.yml && ` + wf6Doc + `git commit -q -m "` + msg + `"`)}, expect: stUntouched},
	}
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playPlumbingRow(t, r)
			want := r.expect.String()
			t.Logf("UNSEEN6 | %s | %s | %s", r.name, want, got)
			judgeLimited(t, "UNSEEN6", limits6, r.name, r.expect, got, log)
		})
	}
}
