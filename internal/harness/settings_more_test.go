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
