package githook

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Issue 42 item 19: a malformed opt-in record line is refused naming its
// own line (the header is line 1), a short line and a bad number alike.
func TestReadRecordNamesTheMalformedLine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), HooksDirName)
	good := "pre-commit abc 1 2 3 4"
	for bad, line := range map[string]int{
		"pre-commit abc 1 2 3":   3,
		"pre-commit abc 1 x 3 4": 3,
	} {
		mustWrite(t, recordPath(dir), recordHeader+"\n"+good+"\n"+bad+"\n")
		_, ok, err := readRecord(dir)
		if want := ":" + strconv.Itoa(line) + ": malformed line"; !ok || err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%q: ok %v %v, want a refusal ending %q", bad, ok, err, want)
		}
	}
}

// Issue 42 item 19: the active hooks of a directory are its executable
// regular files, samples, dot files and directories left out.
func TestActiveHooksAreTheExecutableOnes(t *testing.T) {
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{"pre-commit": 0o755, "post-commit": 0o644, "commit-msg.sample": 0o755, ".hidden": 0o755} {
		mustWrite(t, filepath.Join(dir, name), "#!/bin/sh\n")
		if err := os.Chmod(filepath.Join(dir, name), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "pre-push"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := activeHooks(dir); !reflect.DeepEqual(got, []string{"pre-commit"}) {
		t.Errorf("activeHooks = %q, want [pre-commit]", got)
	}
	if got := activeHooks(filepath.Join(dir, "none")); got != nil {
		t.Errorf("a missing directory has hooks %q", got)
	}
}
