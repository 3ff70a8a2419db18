package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMemberOfSpellings(t *testing.T) {
	cases := []struct {
		reg    Registration
		member string
		ok     bool
	}{
		{Registration{Command: "$CLAUDE_PROJECT_DIR/bin/gates", Args: []string{"--hook", "edit-gates"}}, "edit-gates", true},
		{Registration{Command: `C:\work\bin\gates.exe`, Args: []string{"--hook", "stop-gates"}}, "stop-gates", true},
		{Registration{Command: Placeholder, Args: []string{"--hook", "commit-guard"}}, "commit-guard", true},
		{Registration{Command: `"$CLAUDE_PROJECT_DIR"/gate-sdk/bin/run-gates.sh --hook edit-gates`}, "edit-gates", true},
		{Registration{Command: `bash gate-sdk/bin/run-gates.sh --hook stop-gates`}, "stop-gates", true},
		{Registration{Command: `pwsh -NoProfile -File gate-sdk/bin/run-gates.ps1 --hook edit-gates`}, "edit-gates", true},
		{Registration{Command: `'/opt/my tools/gates' --hook commit-guard`}, "commit-guard", true},
		{Registration{Command: `gates --hook`}, "", false},
		{Registration{Command: `gates --run`}, "", false},
		{Registration{Command: `./scripts/format.sh`}, "", false},
		{Registration{Command: `mygates --hook edit-gates`}, "", false},
		{Registration{Command: "/usr/bin/gatesx", Args: []string{"--hook", "edit-gates"}}, "", false},
	}
	for _, c := range cases {
		m, ok, err := MemberOf(c.reg)
		if err != nil || m != c.member || ok != c.ok {
			t.Errorf("%+v: %q %v %v, want %q %v", c.reg, m, ok, err, c.member, c.ok)
		}
	}
	if _, _, err := MemberOf(Registration{Command: `gates --hook "edit-gates`}); err == nil {
		t.Error("an unterminated quote read without complaint")
	}
}

func template(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "templates", "claude-settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The shipped template registers every member, in exec form, under the
// placeholder, each on the event its member is written for.
func TestTemplateRegistersEveryMember(t *testing.T) {
	var doc struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string   `json:"type"`
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(template(t), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for event, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				m, ok, err := MemberOf(Registration{Command: h.Command, Args: h.Args})
				stub := len(h.Args) > 4 && h.Command == "sh" && h.Args[0] == "-c" && h.Args[1] == StubPlaceholder && h.Args[2] == StubName && h.Args[3] == Placeholder
				if !ok || err != nil || !stub || h.Type != "command" {
					t.Errorf("%s: %+v is not an exec-form registration of the placeholder through the stub", event, h)
					continue
				}
				if _, known := Lookup(m); !known {
					t.Errorf("%s registers unknown member %s", event, m)
				}
				seen[m] += event + "/" + g.Matcher + " "
			}
		}
	}
	want := map[string]string{
		"commit-guard": "PreToolUse/Bash ",
		"edit-gates":   "PostToolUse/Edit|Write|MultiEdit|NotebookEdit ",
	}
	for m, w := range want {
		if seen[m] != w {
			t.Errorf("%s registered as %q, want %q", m, seen[m], w)
		}
	}
	if s := seen["stop-gates"]; !strings.Contains(s, "Stop/ ") || !strings.Contains(s, "SubagentStop/ ") {
		t.Errorf("stop-gates registered as %q", s)
	}
	for _, m := range Members() {
		if !strings.Contains(string(template(t)), `"`+m.Name+`"`) {
			t.Errorf("the template does not register %s", m.Name)
		}
	}
}

func TestMergeSettings(t *testing.T) {
	tmpl := template(t)
	bin := "$CLAUDE_PROJECT_DIR/bin/gates"
	// Into nothing: a document holding just the registrations.
	out, changed, err := MergeSettings(nil, tmpl, bin)
	if err != nil || !changed {
		t.Fatalf("fresh: %v %v", changed, err)
	}
	if strings.Contains(string(out), Placeholder) || strings.Contains(string(out), StubPlaceholder) || !strings.Contains(string(out), `"$CLAUDE_PROJECT_DIR/bin/gates",`) || !strings.Contains(string(out), `gate-hooks.placed`) {
		t.Fatalf("placeholder not replaced:\n%s", out)
	}
	// Again: nothing changes, byte for byte.
	again, changed, err := MergeSettings(out, tmpl, bin)
	if err != nil || changed || string(again) != string(out) {
		t.Fatalf("second merge changed the file: %v %v\n%s", changed, err, again)
	}

	// The user's own entries and keys stay, in their order.
	user := `{
  "permissions": {"allow": ["Bash(go test:*)"]},
  "model": "opus",
  "hooks": {
    "PostToolUse": [
      {"matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": "prettier --write"}]}
    ],
    "Notification": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  },
  "env": {"N": 1.50}
}
`
	merged, changed, err := MergeSettings([]byte(user), tmpl, bin)
	if err != nil || !changed {
		t.Fatalf("user file: %v %v", changed, err)
	}
	s := string(merged)
	for _, want := range []string{`"prettier --write"`, `"notify-send done"`, `"Bash(go test:*)"`, `"N": 1.50`, `"--hook"`, `"stop-gates"`} {
		if !strings.Contains(s, want) {
			t.Errorf("merged file lacks %s:\n%s", want, s)
		}
	}
	if strings.Index(s, `"permissions"`) > strings.Index(s, `"model"`) || strings.Index(s, `"model"`) > strings.Index(s, `"hooks"`) || strings.Index(s, `"hooks"`) > strings.Index(s, `"env"`) {
		t.Errorf("key order disturbed:\n%s", s)
	}
	// edit-gates joins the user's group with the same matcher; commit-audit
	// is the Bash group beside it.
	var loose map[string]any
	if err := json.Unmarshal(merged, &loose); err != nil {
		t.Fatal(err)
	}
	hooksJSON, _ := json.Marshal(loose["hooks"])
	var hooks map[string][]map[string]any
	json.Unmarshal(hooksJSON, &hooks)
	if n := len(hooks["PostToolUse"]); n != 2 {
		t.Errorf("PostToolUse has %d groups, want the user's one and the Bash one", n)
	}
	if again, changed, _ := MergeSettings(merged, tmpl, bin); changed || string(again) != string(merged) {
		t.Error("merge into a merged user file changed it")
	}
	// A registration of the member through the front end counts as present.
	fe := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "bash gate-sdk/bin/run-gates.sh --hook stop-gates"}]}]}}`
	out, _, err = MergeSettings([]byte(fe), tmpl, bin)
	if err != nil || strings.Count(string(out), "stop-gates") != 2 {
		t.Errorf("front-end registration not recognised (want it plus SubagentStop's):\n%s", out)
	}

	// Refusals, the file untouched by the caller.
	for _, bad := range []string{`not json`, `[1]`, `{"hooks": []}`, `{"hooks": {"Stop": {}}}`, `{"a": 1} {"b": 2}`, `{"hooks": {"Stop": [7]}}`, `{"a": 1, "a": 2}`} {
		if _, _, err := MergeSettings([]byte(bad), tmpl, bin); err == nil {
			t.Errorf("%s merged without complaint", bad)
		}
	}
}

func FuzzInspect(f *testing.F) {
	for _, s := range []string{`git commit -n -m x`, `bash -c 'git push --no-verify'`, "git commit -m \"$(date)\"", `a | b && c; (d) & e`} {
		f.Add(s)
	}
	// No input panics the guard, and its verdict depends on the input alone.
	f.Fuzz(func(t *testing.T, s string) {
		v1, err1 := Inspect(s)
		v2, err2 := Inspect(s)
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(v1, v2) {
			t.Fatalf("two reads of %q differ", s)
		}
	})
}

// Each member row names gate-sdk as its owner, and gate-sdk's SPEC states
// the member's rule under a heading of its name.
func TestMemberOwnersStateTheirRules(t *testing.T) {
	spec, err := os.ReadFile(filepath.Join("..", "..", "kits", Owner, "SPEC.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range Members() {
		if m.Owner != Owner {
			t.Errorf("%s is owned by %q", m.Name, m.Owner)
		}
		if !strings.Contains(string(spec), "\n### "+m.Name+"\n") {
			t.Errorf("kits/%s/SPEC.md has no section ### %s", Owner, m.Name)
		}
		// git-dir-guard alone reads no knob: the git dir is git's answer.
		if len(m.Knobs) == 0 && m.Name != "git-dir-guard" || m.Run == nil || m.Summary == "" || m.Events == "" {
			t.Errorf("%s: incomplete row %+v", m.Name, m)
		}
	}
	if got := strings.Join(EveryHookKnob(""), " "); got != "EVERY_REGISTERED_KNOB GATE_SDK_GATES_DIR GATE_SDK_KIT_DIRS" {
		t.Errorf("EVERY_HOOK_KNOB = %s", got)
	}
}

// TestMergeUpgradesOlderRegistrations: an init before the footing stub
// registered the binary directly; a merge rewrites those entries and that
// status line through the stub in place, and leaves the user's own
// spelling of a member alone. assertion J.
func TestMergeUpgradesOlderRegistrations(t *testing.T) {
	tmpl := template(t)
	bin := "$CLAUDE_PROJECT_DIR/bin/gates"
	old := `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "$CLAUDE_PROJECT_DIR/bin/gates", "args": ["--hook", "commit-guard"], "timeout": 30},
        {"type": "command", "command": "$CLAUDE_PROJECT_DIR/bin/gates", "args": ["--hook", "commit-audit"], "timeout": 60}
      ]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "bash gate-sdk/bin/run-gates.sh --hook stop-gates"}]}]
  },
  "statusLine": {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR/bin/gates\" --statusline"}
}
`
	out, changed, err := MergeSettings([]byte(old), tmpl, bin)
	if err != nil || !changed {
		t.Fatalf("upgrade: %v %v", changed, err)
	}
	regs, err := Registrations(out)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range regs {
		if r.Event == "PreToolUse" && (r.Member == "commit-guard" || r.Member == "commit-audit") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("PreToolUse Bash holds %d commit-guard/commit-audit entries, want one each:\n%s", n, out)
	}
	if strings.Contains(string(out), `"command": "$CLAUDE_PROJECT_DIR/bin/gates"`) || strings.Contains(string(out), `\"$CLAUDE_PROJECT_DIR/bin/gates\" --statusline`) {
		t.Errorf("an older direct registration survived the merge:\n%s", out)
	}
	if strings.Count(string(out), `"gates-hook"`) != 8 || strings.Count(string(out), `gates-hook '$CLAUDE_PROJECT_DIR/bin/gates' --statusline`) != 1 {
		t.Errorf("want eight entries (Stop is the user's) and the status line through the stub:\n%s", out)
	}
	if !strings.Contains(string(out), "bash gate-sdk/bin/run-gates.sh --hook stop-gates") {
		t.Errorf("the user's own spelling was replaced:\n%s", out)
	}
	if again, changed, _ := MergeSettings(out, tmpl, bin); changed || string(again) != string(out) {
		t.Error("a merge after the upgrade changed the file")
	}
	// --uninstall takes out both spellings init wrote.
	left, _, _, err := UnmergeSettings([]byte(old), tmpl, bin)
	if err != nil || strings.Contains(string(left), "commit-audit") || strings.Contains(string(left), "statusLine") {
		t.Errorf("uninstall over the older spelling: %v\n%s", err, left)
	}
}

// TestStubForm: the stub's registration is read as the member it runs,
// and the stub carries no single quote, so the shell-form status line can
// quote it.
func TestStubForm(t *testing.T) {
	m, ok, err := MemberOf(Registration{Command: "sh", Args: []string{"-c", Stub, StubName, "$CLAUDE_PROJECT_DIR/bin/gates", "--hook", "edit-gates"}})
	if !ok || err != nil || m != "edit-gates" {
		t.Errorf("stub form read as %q %v %v", m, ok, err)
	}
	if _, ok, _ := MemberOf(Registration{Command: "sh", Args: []string{"-c", Stub, StubName, "/usr/bin/other", "--hook", "edit-gates"}}); ok {
		t.Error("the stub running another program was read as ours")
	}
	if strings.Contains(Stub, "'") {
		t.Error("the stub holds a single quote")
	}
}

// A registration an earlier init wrote through an earlier text of the stub
// is rewritten through the current one, so an adopter's re-init picks up a
// stub that lets the restore run; the user's own entries and keys stay, and
// --uninstall takes the older entries out.
func TestMergeRefreshesAnOlderStub(t *testing.T) {
	tmpl := template(t)
	const bin = "$CLAUDE_PROJECT_DIR/bin/gates"
	cur, _, err := MergeSettings(nil, tmpl, bin)
	if err != nil {
		t.Fatal(err)
	}
	enc := quote(Stub)
	if !strings.Contains(string(cur), enc) {
		t.Fatalf("the merged file does not spell the stub as %s:\n%s", enc, cur)
	}
	older := strings.ReplaceAll(string(cur), enc, `"echo older stub"`)
	out, changed, err := MergeSettings([]byte(older), tmpl, bin)
	if err != nil || !changed {
		t.Fatalf("merge over an older stub: changed %v, %v", changed, err)
	}
	if strings.Contains(string(out), "echo older stub") {
		t.Errorf("an older stub's registration survived the merge:\n%s", out)
	}
	if string(out) != string(cur) {
		t.Errorf("the refreshed file differs from a fresh merge:\n%s", out)
	}
	left, _, _, err := UnmergeSettings([]byte(older), tmpl, bin)
	if err != nil || strings.Contains(string(left), "commit-audit") {
		t.Errorf("uninstall over an older stub: %v\n%s", err, left)
	}
}
