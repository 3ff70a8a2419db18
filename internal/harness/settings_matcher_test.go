package harness

import (
	"encoding/json"
	"testing"
)

// A blank settings file is written whole, even when the template adds
// nothing to it.
func TestMergeSettingsWritesABlankFile(t *testing.T) {
	for _, existing := range []string{"", "  \n"} {
		out, changed, err := MergeSettings([]byte(existing), []byte(`{"hooks": {}}`), "bin/gates")
		if err != nil || !changed || string(out) != "{\n  \"hooks\": {}\n}\n" {
			t.Errorf("%q: %q %v %v", existing, out, changed, err)
		}
	}
}

// A template group with no matcher joins only a group with no matcher:
// a user's group whose matcher is the empty string stays theirs alone.
func TestMergeSettingsParsesMatcherPresence(t *testing.T) {
	user := `{"hooks": {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "notify-send done"}]}]}}`
	tmpl := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + Placeholder + `", "args": ["--hook", "stop-gates"]}]}]}}`
	out, changed, err := MergeSettings([]byte(user), []byte(tmpl), "bin/gates")
	if err != nil || !changed {
		t.Fatalf("%v %v", changed, err)
	}
	var doc struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	stop := doc.Hooks["Stop"]
	if len(stop) != 2 {
		t.Fatalf("Stop holds %d groups, want the user's and a new one:\n%s", len(stop), out)
	}
	if _, has := stop[1]["matcher"]; has || len(stop[0]["hooks"].([]any)) != 1 {
		t.Errorf("the groups were mixed:\n%s", out)
	}
}

// A template group joins only a group with its own matcher; a user's
// group under another matcher stays theirs alone.
func TestMergeSettingsJoinsOnlyTheSameMatcher(t *testing.T) {
	user := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit-bash"}]}]}}`
	tmpl := `{"hooks": {"PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "` + Placeholder + `", "args": ["--hook", "git-dir-guard"]}]}]}}`
	out, changed, err := MergeSettings([]byte(user), []byte(tmpl), "bin/gates")
	if err != nil || !changed {
		t.Fatalf("%v %v", changed, err)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []any  `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	pre := doc.Hooks["PreToolUse"]
	if len(pre) != 2 || pre[0].Matcher != "Bash" || len(pre[0].Hooks) != 1 || pre[1].Matcher != "Edit" || len(pre[1].Hooks) != 1 {
		t.Errorf("the groups were mixed:\n%s", out)
	}
}
