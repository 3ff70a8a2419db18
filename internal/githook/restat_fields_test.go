package githook

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The same bytes under new stat fields (a copied clone, a chmod back and
// forth): the check finds no problem and records the new fields, so the
// record changes once and then stays.
func TestCheckPlacedRecordsNewStatFieldsOnce(t *testing.T) {
	r := newInstallRig(t)
	if code := r.install(); code != 0 {
		t.Fatalf("install: %d %s", code, r.errb.String())
	}
	record := filepath.Join(filepath.Dir(r.hooksDir()), RecordName)
	before, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(r.hooksDir(), PreCommit)
	time.Sleep(10 * time.Millisecond)
	os.Chmod(hook, 0o700)
	os.Chmod(hook, 0o755)
	if st, err := CheckPlaced(r.dir); err != nil || len(st.Problems) != 0 {
		t.Fatalf("after a chmod back: %+v %v", st, err)
	}
	after, _ := os.ReadFile(record)
	if string(after) == string(before) {
		t.Fatal("the new stat fields were not recorded")
	}
	if st, err := CheckPlaced(r.dir); err != nil || len(st.Problems) != 0 {
		t.Fatalf("again: %+v %v", st, err)
	}
	if again, _ := os.ReadFile(record); string(again) != string(after) {
		t.Fatal("the record changed on a check that found the same fields")
	}
}
