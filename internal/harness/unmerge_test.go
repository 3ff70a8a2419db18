package harness

import (
	"strings"
	"testing"
)

// TestUnmergeSettings: --uninstall takes out exactly what the merge put
// in, the status line included; the user's own entries, keys and a
// registration of the binary they wrote themselves stay; a document that
// held only init's entries is reported empty.
func TestUnmergeSettings(t *testing.T) {
	tmpl := template(t)
	bin := "$CLAUDE_PROJECT_DIR/bin/gates"
	fresh, _, err := MergeSettings(nil, tmpl, bin)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fresh), `"statusLine"`) || !strings.Contains(string(fresh), `gates-hook '$CLAUDE_PROJECT_DIR/bin/gates' --statusline`) {
		t.Fatalf("the merge sets no status line:\n%s", fresh)
	}
	out, removed, empty, err := UnmergeSettings(fresh, tmpl, bin)
	// Every template entry, and the status line.
	if want := strings.Count(string(tmpl), `"type": "command"`); err != nil || !empty || removed != want {
		t.Fatalf("init's own file: removed %d empty %v err %v\n%s", removed, empty, err, out)
	}

	user := `{
  "model": "opus",
  "statusLine": {"type": "command", "command": "my-line"},
  "hooks": {
    "PostToolUse": [
      {"matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": "prettier --write"}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "bash gate-sdk/bin/run-gates.sh --hook stop-gates"}]}]
  }
}
`
	merged, _, err := MergeSettings([]byte(user), tmpl, bin)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(merged), "' --statusline") || !strings.Contains(string(merged), `"my-line"`) {
		t.Fatalf("the user's status line was replaced:\n%s", merged)
	}
	back, removed, empty, err := UnmergeSettings(merged, tmpl, bin)
	if err != nil || empty || removed == 0 {
		t.Fatalf("removed %d empty %v err %v", removed, empty, err)
	}
	for _, want := range []string{`"model": "opus"`, `"my-line"`, `prettier --write`, `run-gates.sh --hook stop-gates`} {
		if !strings.Contains(string(back), want) {
			t.Errorf("the user's %s is gone:\n%s", want, back)
		}
	}
	if strings.Contains(string(back), `"$CLAUDE_PROJECT_DIR/bin/gates"`) || strings.Contains(string(back), "commit-guard") {
		t.Errorf("init's entries stay:\n%s", back)
	}
	// Nothing of init's: unchanged, byte for byte.
	same, removed, _, err := UnmergeSettings([]byte(user), tmpl, bin)
	if err != nil || removed != 0 || string(same) != user {
		t.Fatalf("a file init never touched changed: %d %v", removed, err)
	}
	if _, _, _, err := UnmergeSettings([]byte(`[1]`), tmpl, bin); err == nil {
		t.Fatal("a document that is no object was read")
	}
}

// TestRegistrations: doctor's reader finds each registration of the
// binary with the program the harness starts.
func TestRegistrations(t *testing.T) {
	merged, _, err := MergeSettings([]byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/gate-sdk/bin/run-gates.sh --hook stop-gates"}, {"type": "command", "command": "echo hi"}]}]}}`), template(t), "$CLAUDE_PROJECT_DIR/bin/gates")
	if err != nil {
		t.Fatal(err)
	}
	regs, err := Registrations(merged)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range regs {
		got[r.Event+" "+r.Member+" "+r.Program] = true
	}
	for _, want := range []string{
		"PreToolUse commit-guard $CLAUDE_PROJECT_DIR/bin/gates",
		"PostToolUse edit-gates $CLAUDE_PROJECT_DIR/bin/gates",
		"Stop stop-gates $CLAUDE_PROJECT_DIR/gate-sdk/bin/run-gates.sh",
	} {
		if !got[want] {
			t.Errorf("missing %q in %v", want, got)
		}
	}
}
