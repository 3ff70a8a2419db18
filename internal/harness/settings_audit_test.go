package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// settingsText answers a settings file registering commit-guard on
// PreToolUse (Bash) through stub, for binary bin.
func settingsText(stub, bin string, off bool) []byte {
	doc := map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{
		map[string]any{"type": "command", "command": "sh", "args": []string{"-c", stub, "gates-hook", bin, "--hook", "commit-guard"}},
	}}}}}
	if off {
		doc["disableAllHooks"] = true
	}
	out, _ := json.Marshal(doc)
	return out
}

// assertion Q: what counts as a cut of the gates' registrations: a
// registration gone, its stub swapped, every hook turned off, the file gone
// or no longer JSON; an upgrade that rewrites a registration through this
// release's stub (another binary spelling, an older stub) keeps it.
func TestSettingsCutsJudgeTheFileAsWritten(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	read := func(data []byte) settingsFile {
		t.Helper()
		if data == nil {
			os.Remove(p)
		} else if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := readSettingsFile(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	was := read(settingsText("an older stub", "$CLAUDE_PROJECT_DIR/bin/gates", false))
	cases := []struct {
		name string
		now  []byte
		want string // "" for no cut
	}{
		{"unchanged", settingsText("an older stub", "$CLAUDE_PROJECT_DIR/bin/gates", false), ""},
		{"rewritten through this release's stub", settingsText(Stub, "$CLAUDE_PROJECT_DIR/tools/gates", false), ""},
		{"the stub swapped for exit 0", settingsText("exit 0", "$CLAUDE_PROJECT_DIR/bin/gates", false), "no longer registers commit-guard on PreToolUse (Bash)"},
		{"emptied", []byte("{}"), "no longer registers commit-guard"},
		{"blank", []byte("\n"), "no longer registers commit-guard"},
		{"every hook off", settingsText("an older stub", "$CLAUDE_PROJECT_DIR/bin/gates", true), `"disableAllHooks": true`},
		{"not JSON", []byte("{"), "no longer JSON"},
		{"gone", nil, "is gone"},
	}
	for _, c := range cases {
		got := strings.Join(settingsCuts(p, was, read(c.now)), "; ")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: cuts %q, want %q", c.name, got, c.want)
		}
	}
	// A file that registered nothing may go or turn into anything but a
	// file that turns the hooks off.
	none := settingsFile{Size: -1}
	if got := settingsCuts(p, none, read([]byte(`{"permissions": {}}`))); len(got) != 0 {
		t.Errorf("a new file with no hooks: %q", got)
	}
	if got := settingsCuts(p, none, read([]byte(`{"disableAllHooks": true}`))); len(got) != 1 {
		t.Errorf("a new file turning every hook off: %q", got)
	}
}

// assertion Q: a settings file cut with its size and modification time
// set back as they were is still read again and judged.
func TestSettingsCutWithItsTimesSetBackIsSeen(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	whole := settingsText(Stub, "$CLAUDE_PROJECT_DIR/bin/gates", false)
	if err := os.WriteFile(p, whole, 0o644); err != nil {
		t.Fatal(err)
	}
	was, err := readSettingsFile(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	rec, _ := json.Marshal(map[string]settingsFile{p: was})
	name := stateName(state, "s1", stateSettings)
	os.MkdirAll(filepath.Dir(name), 0o755)
	if err := os.WriteFile(name, rec, 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	cut := []byte(strings.Replace(string(whole), `"matcher":"Bash"`, `"matcher":"Bask"`, 1))
	if len(cut) != len(whole) || string(cut) == string(whole) {
		t.Fatal("the cut is not the same size")
	}
	if err := os.WriteFile(p, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := SessionSettingsCut(state, "s1", nil); !strings.Contains(got, "no longer registers commit-guard on PreToolUse (Bash)") {
		t.Fatalf("a cut with its times set back: %q", got)
	}
	// assertion E: a record that does not parse is a broken footing on
	// the status line, and no record at all is nothing lost.
	if err := os.WriteFile(name, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := SessionSettingsCut(state, "s1", nil); !strings.Contains(got, "does not parse") {
		t.Fatalf("an unparsable record: %q", got)
	}
	if got := SessionSettingsCut(state, "s2", nil); got != "" {
		t.Fatalf("a session with no record: %q", got)
	}
}

// assertion Q: a registration given a timeout too short for the hook to
// answer, or its interpreter named by a path to another program, is cut;
// a longer timeout is not.
func TestSettingsCutByTimeoutOrInterpreterPath(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	text := func(command string, timeout any) []byte {
		h := map[string]any{"type": "command", "command": command, "args": []string{"-c", Stub, "gates-hook", "$CLAUDE_PROJECT_DIR/bin/gates", "--hook", "commit-guard"}}
		if timeout != nil {
			h["timeout"] = timeout
		}
		out, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{h}}}}})
		return out
	}
	read := func(data []byte) settingsFile {
		t.Helper()
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := readSettingsFile(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	was := read(text("sh", 60))
	for _, c := range []struct {
		name string
		now  []byte
		cut  bool
	}{
		{"a longer timeout", text("sh", 120), false},
		{"no timeout", text("sh", nil), false},
		{"a timeout of 1", text("sh", 1), true},
		{"a timeout of 0", text("sh", 0), true},
		{"a fake sh by path", text(filepath.Join(dir, "sh"), 60), true},
	} {
		got := settingsCuts(p, was, read(c.now))
		if c.cut != (len(got) > 0) {
			t.Errorf("%s: cuts %q, want a cut %v", c.name, got, c.cut)
		}
	}
	// git-dir-guard B counts the same registration as dropped.
	if got := settingsMembers(text("sh", 1)); len(got) != 0 {
		t.Errorf("a registration with a timeout of 1 counted: %q", got)
	}
}
