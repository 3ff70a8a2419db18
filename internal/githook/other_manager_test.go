package githook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// assertion T: a hooks path naming another manager's live directory is
// that manager's (Other, and a problem naming both directories); one with
// no active hook is only a problem; a copy of the placed hooks, byte for
// byte, serves as they do and is neither.
func TestCheckPlacedNamesAnotherManagerOnlyWhenLive(t *testing.T) {
	r := newInstallRig(t)
	if code := r.install(); code != 0 {
		t.Fatalf("install: %d %s", code, r.errb.String())
	}
	husky := filepath.Join(r.dir, ".husky")
	if err := os.MkdirAll(husky, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("config", "core.hooksPath", ".husky")
	st, err := CheckPlaced(r.dir)
	if err != nil || st.Other != "" || !strings.Contains(strings.Join(st.Problems, "\n"), "not the gates'") {
		t.Fatalf("an empty foreign directory: %+v %v", st, err)
	}
	mustWrite(t, filepath.Join(husky, PreCommit), "#!/bin/sh\nexit 0\n")
	if err := os.Chmod(filepath.Join(husky, PreCommit), 0o755); err != nil {
		t.Fatal(err)
	}
	st, err = CheckPlaced(r.dir)
	if err != nil || st.Other == "" || !strings.HasSuffix(st.Other, ".husky") || !strings.Contains(strings.Join(st.Problems, "\n"), "not the gates'") {
		t.Fatalf("a live foreign directory: %+v %v", st, err)
	}
	// A byte-for-byte copy of the placed hooks.
	cp := filepath.Join(r.dir, "hooks-copy")
	if err := os.MkdirAll(cp, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(r.hooksDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(r.hooksDir(), e.Name()))
		if err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(cp, e.Name()), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.git("config", "core.hooksPath", "hooks-copy")
	if st, err := CheckPlaced(r.dir); err != nil || st.Other != "" || len(st.Problems) != 0 {
		t.Fatalf("a copy of the placed hooks: %+v %v", st, err)
	}
}

// assertion T: a manager that installs over the placed hooks in their own
// directory, keeping each as <name>.old with the placed bytes (lefthook's
// way), is another manager there; a replaced hook with no such copy, or
// an .old that is not the placed bytes, is only a problem.
func TestCheckPlacedNamesAManagerThatKeptThePlacedHooksAside(t *testing.T) {
	r := newInstallRig(t)
	if code := r.install(); code != 0 {
		t.Fatalf("install: %d %s", code, r.errb.String())
	}
	hook := filepath.Join(r.hooksDir(), PreCommit)
	placed, err := os.ReadFile(hook)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, hook, "#!/bin/sh\necho another manager ran\nexit 0\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	if st, err := CheckPlaced(r.dir); err != nil || st.Other != "" || len(st.Problems) == 0 {
		t.Fatalf("a replaced hook kept nowhere: %+v %v", st, err)
	}
	mustWrite(t, hook+".old", "#!/bin/sh\necho not the placed one\n")
	if st, err := CheckPlaced(r.dir); err != nil || st.Other != "" || len(st.Problems) == 0 {
		t.Fatalf("a replaced hook whose .old is not the placed bytes: %+v %v", st, err)
	}
	if err := os.WriteFile(hook+".old", placed, 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := CheckPlaced(r.dir)
	if err != nil || st.Other == "" || len(st.Problems) == 0 {
		t.Fatalf("a hook installed over the placed one, kept as .old: %+v %v", st, err)
	}
}
