package githook

import (
	"os"
	"path/filepath"
	"testing"
)

// An emptied landing record is removed; one whose place a directory
// holding a file takes cannot be, and that is an error.
func TestLandingRecordRemoval(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "record")
	if err := writeLandingRecord(p, "h", []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if err := writeLandingRecord(p, "h", nil); err != nil {
		t.Fatalf("emptying the record: %v", err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("an emptied record was kept: %v", err)
	}
	if err := writeLandingRecord(p, "h", nil); err != nil {
		t.Fatalf("emptying an absent record: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(p, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeLandingRecord(p, "h", nil); err == nil {
		t.Fatal("a record that could not be removed was reported removed")
	}
}
