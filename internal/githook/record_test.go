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

// Issue 42 item 19 (not covered in this package before): the launcher
// refuses a binary that is not the one recorded beside the hook, naming
// why and the command that restores it: other bytes, none at all, or a
// knob pointing elsewhere; the recorded bytes, a hook with no record or
// an unknown hook file are not checked further.
func TestVerifyBinaryAgainstTheRecord(t *testing.T) {
	r := newInstallRig(t)
	if code := r.install(); code != 0 {
		t.Fatalf("install: %d %s", code, r.errb.String())
	}
	self := filepath.Join(r.hooksDir(), PreCommit+ExeSuffix())
	in := LaunchInput{Dir: r.dir, Env: envOf(), Self: self}
	def := NativeBin{Value: "bin/gates", Origin: "default"}
	if why := verifyBinary(in, def, r.bin); why != "" {
		t.Fatalf("the recorded binary is refused: %s", why)
	}
	if why := verifyBinary(LaunchInput{Dir: r.dir, Env: envOf()}, def, "/nowhere"); why != "" {
		t.Errorf("no hook file known, yet checked: %s", why)
	}
	bare := filepath.Join(t.TempDir(), "hooks", PreCommit)
	mustWrite(t, bare, "#!/bin/sh\n")
	if why := verifyBinary(LaunchInput{Dir: r.dir, Env: envOf(), Self: bare}, def, "/nowhere"); why != "" {
		t.Errorf("a hook with no record is checked: %s", why)
	}
	restore := "cp " + filepath.Join(".git", HooksDirName, PreCommit+ExeSuffix()) + " bin/gates"
	if rel, err := filepath.Rel(r.dir, self); err == nil {
		restore = "cp " + filepath.ToSlash(rel) + " bin/gates"
	}
	data, _ := os.ReadFile(r.bin)
	mustWrite(t, r.bin, "#!/bin/sh\nexit 1\n")
	why := verifyBinary(in, def, r.bin)
	if !strings.Contains(why, "is not the one --install-hooks recorded (its bytes differ)") || !strings.Contains(why, "Restore the binary --install-hooks recorded: "+restore+"\n") {
		t.Errorf("other bytes: %q (want the restore %q)", why, restore)
	}
	os.Remove(r.bin)
	if why := verifyBinary(in, def, r.bin); !strings.Contains(why, "is gone or unreadable") {
		t.Errorf("no binary: %q", why)
	}
	mustWrite(t, r.bin, string(data))
	other := filepath.Join(t.TempDir(), "gates")
	mustWrite(t, other, "#!/bin/sh\nexit 3\n")
	env := NativeBin{Value: other, Origin: "environment"}
	if why := verifyBinary(in, env, other); !strings.Contains(why, NativeBinKnob+"="+other+" (from environment) points the hooks at "+other) {
		t.Errorf("a knob pointing elsewhere: %q", why)
	}
}

// Issue 42 item 19: a knob set in a file names that file as the tree
// spells it; and the other managers' hooks cannot be read outside a
// repository.
func TestVerifyBinaryNamesTheKnobFileAndOtherHooksRefuses(t *testing.T) {
	r := newInstallRig(t)
	if code := r.install(); code != 0 {
		t.Fatalf("install: %d %s", code, r.errb.String())
	}
	in := LaunchInput{Dir: r.dir, Env: envOf(), Self: filepath.Join(r.hooksDir(), PreCommit+ExeSuffix())}
	other := filepath.Join(t.TempDir(), "gates")
	mustWrite(t, other, "#!/bin/sh\nexit 3\n")
	knobs := filepath.Join(r.dir, "scripts", "gates.knobs")
	why := verifyBinary(in, NativeBin{Value: other, Origin: knobs}, other)
	if !strings.Contains(why, "(from scripts/gates.knobs) points the hooks at") || !strings.Contains(why, "Remove that setting from scripts/gates.knobs") {
		t.Errorf("a knob file's setting: %q", why)
	}
	if taken, err := OtherHooks(t.TempDir()); err == nil {
		t.Errorf("outside a repository OtherHooks answered %q with no error", taken)
	}
}

// Issue 42 item 19: OtherHooks names another manager's hooks path that
// opting in would stop.
func TestOtherHooksNamesAnotherManager(t *testing.T) {
	r := newInstallRig(t)
	r.git("config", "core.hooksPath", ".husky")
	taken, err := OtherHooks(r.dir)
	if err != nil || !strings.Contains(taken, ".husky") {
		t.Errorf("OtherHooks = %q, %v; want .husky named", taken, err)
	}
}
