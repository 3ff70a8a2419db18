package harness

import (
	"strings"
	"testing"
)

// What the user had stays when init's part is taken out: a group of
// theirs with no entry, and a hooks object of theirs that was empty.
func TestUnmergeKeepsTheUsersEmptyParts(t *testing.T) {
	tmpl := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + Placeholder + `", "args": ["--hook", "stop-gates"]}]}]},
		"statusLine": {"type": "command", "command": "` + Placeholder + ` --statusline"}}`
	user := `{"hooks": {"Stop": [{"hooks": []}, {"hooks": [{"type": "command", "command": "bin/gates", "args": ["--hook", "stop-gates"]}]}]}}`
	out, removed, empty, err := UnmergeSettings([]byte(user), []byte(tmpl), "bin/gates")
	if err != nil || removed != 1 || empty || strings.Count(string(out), `"hooks"`) != 2 || strings.Contains(string(out), "stop-gates") {
		t.Errorf("an empty group of the user's: %d %v %v\n%s", removed, empty, err, out)
	}
	user = `{"hooks": {}, "statusLine": {"type": "command", "command": "bin/gates --statusline"}}`
	out, removed, empty, err = UnmergeSettings([]byte(user), []byte(tmpl), "bin/gates")
	if err != nil || removed != 1 || empty || string(out) != "{\n  \"hooks\": {}\n}\n" {
		t.Errorf("an empty hooks object of the user's: %d %v %v\n%q", removed, empty, err, out)
	}
}
