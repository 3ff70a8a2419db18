package harness

import "testing"

// An entry through the stub with a single operand for the binary is
// still init's: its older spelling, the binary run with that operand, is
// taken out too.
func TestUnmergeTakesTheOlderSpellingOfAOneOperandStubEntry(t *testing.T) {
	tmpl := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sh", "args": ["-c", "exec \"$1\"", "stub", "` + Placeholder + `", "--only"]}]}]}}`
	user := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "bin/gates", "args": ["--only"]}]}]}, "model": "x"}`
	out, removed, empty, err := UnmergeSettings([]byte(user), []byte(tmpl), "bin/gates")
	if err != nil || removed != 1 || empty || string(out) != "{\n  \"model\": \"x\"\n}\n" {
		t.Errorf("%d %v %v\n%q", removed, empty, err, out)
	}
}
