package githook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// assertion N: what git will run is checked against the record: present,
// executable, the bytes placed; a copied clone re-records its stat fields.
func TestCheckPlacedComparesWithTheRecord(t *testing.T) {
	r := newInstallRig(t)
	if st, err := CheckPlaced(r.dir); err != nil || st.OptedIn {
		t.Fatalf("before the opt-in: %+v %v", st, err)
	}
	if code := r.install(); code != 0 {
		t.Fatalf("install: %d %s", code, r.errb.String())
	}
	st, err := CheckPlaced(r.dir)
	if err != nil || !st.OptedIn || len(st.Problems) != 0 {
		t.Fatalf("placed: %+v %v", st, err)
	}
	hook := filepath.Join(r.hooksDir(), PreCommit)
	problem := func(want string) {
		t.Helper()
		st, err := CheckPlaced(r.dir)
		if err != nil || !st.OptedIn || !strings.Contains(strings.Join(st.Problems, "\n"), want) {
			t.Fatalf("want a problem naming %q: %+v %v", want, st, err)
		}
	}
	os.Chmod(hook, 0o644)
	problem("not executable")
	os.Chmod(hook, 0o755)
	data, _ := os.ReadFile(hook)
	alt := append([]byte(nil), data...)
	alt[len(alt)-2] = 'X'
	os.Remove(hook)
	mustWrite(t, hook, string(alt))
	os.Chmod(hook, 0o755)
	problem("bytes differ")
	os.Remove(hook)
	problem("is missing")
	mustWrite(t, hook, string(data))
	os.Chmod(hook, 0o755)
	// The same bytes under new stat fields pass, and are recorded.
	if st, _ := CheckPlaced(r.dir); len(st.Problems) != 0 {
		t.Fatalf("the same bytes re-written: %+v", st)
	}
	r.git("config", "core.hooksPath", "/nonexistent/gate-hooks")
	problem("does not exist")
	if st, _ := CheckPlaced(r.dir); st.Repair != "--install-hooks" {
		t.Fatalf("a moved-from path is repaired without a take-over: %q", st.Repair)
	}
	other := t.TempDir()
	r.git("config", "core.hooksPath", other)
	problem("is missing")
	if st, _ := CheckPlaced(r.dir); st.Repair != "--install-hooks --take-over" {
		t.Fatalf("another live directory needs the take-over: %q", st.Repair)
	}
}
