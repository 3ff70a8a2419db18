package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The harness settings written by something no guard reads the spelling
// of (a Python script here): the outcome is judged. The harness fires
// ConfigChange for the file and git-dir-guard keeps the change out of the
// session; the command's PostToolUse tells the model what the file lost
// and how to put it back, once; the next Stop is held once; the repair
// offered runs and leaves nothing to tell. Ordinary changes to the same
// file (a permission added by a script) pass with no word.
func TestSettingsCutByAScriptIsJudgedFromTheFile(t *testing.T) {
	t.Parallel()
	p := outcomeClone(t, "settings audit")
	settings := filepath.Join(p.dir, ".claude/settings.json")
	var err error
	if p.loaded, err = os.ReadFile(settings); err != nil {
		t.Fatal(err)
	}
	configChange := func() []answer {
		return p.fire("ConfigChange", "project_settings", map[string]any{"source": "project_settings", "file_path": settings})
	}
	// Ordinary: a script adds a permission and keeps every registration.
	if why, b, post := p.bash(`python3 -c 'import json; p=".claude/settings.json"; d=json.load(open(p)); d["permissions"]={"allow":["Bash(go test:*)"]}; json.dump(d, open(p,"w"), indent=2)'`); b || post != "" {
		t.Fatalf("a permission added by a script: blocked %v %q, after %q", b, why, post)
	}
	for _, a := range configChange() {
		if a.code != 0 || a.errs != "" {
			t.Fatalf("ConfigChange over a permission added: exit %d %q", a.code, a.errs)
		}
	}
	// The cut: the script drops the Bash guards (PreToolUse on Bash).
	drop := `python3 -c 'import json; p=".claude/settings.json"; d=json.load(open(p)); d["hooks"]["PreToolUse"]=[g for g in d["hooks"]["PreToolUse"] if g.get("matcher")!="Bash"]; json.dump(d, open(p,"w"), indent=2)'`
	why, b, post := p.bash(drop)
	if b {
		t.Fatalf("the script was refused before it ran (the check is on the outcome): %q", why)
	}
	if !strings.Contains(post, "no longer registers commit-audit on PreToolUse (Bash), commit-guard on PreToolUse (Bash)") || !strings.Contains(post, "bin/gates init --harness claude") {
		t.Fatalf("assertion Q: the cut was not told after the command: %q", post)
	}
	cc := configChange()
	if len(cc) != 1 || cc[0].code != 2 || !strings.Contains(cc[0].errs, "kept out of this session") || !strings.Contains(cc[0].errs, "commit-guard on PreToolUse (Bash)") {
		t.Fatalf("assertion R: ConfigChange let the cut into the session: %+v", cc)
	}
	// assertion E (--statusline): the cut shows as a broken footing.
	if sl := p.statusline(); !strings.Contains(sl, "hooks broken") || !strings.Contains(sl, "lost the gates' hooks") {
		t.Fatalf("the status line over a cut: %q", sl)
	}
	// Told once after commands, held once at the Stop.
	if _, _, post := p.bash("git status --short"); post != "" {
		t.Fatalf("the same cut told again: %q", post)
	}
	if r := p.stop(false); !strings.Contains(r, "no longer registers commit-audit") {
		t.Fatalf("the Stop was not held for the cut: %q", r)
	}
	if r := p.stop(false); r != "" {
		t.Fatalf("a second Stop held for the same cut: %q", r)
	}
	// The repair offered runs, and the file is whole again.
	if _, b, post := p.bash("bin/gates init --harness claude"); b || post != "" {
		t.Fatalf("the repair: blocked %v, after %q", b, post)
	}
	for _, a := range configChange() {
		if a.code != 0 {
			t.Fatalf("ConfigChange after the repair: exit %d %q", a.code, a.errs)
		}
	}
	if sl := p.statusline(); strings.Contains(sl, "lost the gates' hooks") {
		t.Fatalf("the status line after the repair: %q", sl)
	}
	got, _ := os.ReadFile(settings)
	if !strings.Contains(string(got), `"Bash(go test:*)"`) {
		t.Fatalf("the repair lost the user's permission:\n%s", got)
	}
	// disableAllHooks written by a script: kept out, told.
	_, _, post = p.bash(`python3 -c 'import json; p=".claude/settings.local.json"; json.dump({"disableAllHooks": True}, open(p,"w"))'`)
	if !strings.Contains(post, "disableAllHooks") {
		t.Fatalf("disableAllHooks by a script was not told: %q", post)
	}
	cc = p.fire("ConfigChange", "local_settings", map[string]any{"source": "local_settings", "file_path": filepath.Join(p.dir, ".claude/settings.local.json")})
	if len(cc) != 1 || cc[0].code != 2 {
		t.Fatalf("ConfigChange let disableAllHooks in: %+v", cc)
	}
}
