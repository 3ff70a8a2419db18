package githook

import (
	"os"
	"path/filepath"
	"strings"
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

// A malformed line of the unjudged record is named by its line number in
// the file, the header being line 1.
func TestReadUnjudgedNamesTheMalformedLine(t *testing.T) {
	id := "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct{ body, want string }{
		{"nonsense\n", ":2: malformed line"},
		{id + " pre-commit \"/w\"\n" + id + " pre-commit unquoted\n", ":3: malformed line"},
	} {
		common := t.TempDir()
		if err := os.WriteFile(filepath.Join(common, UnjudgedName), []byte(unjudgedHeader+"\n"+c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadUnjudged(common); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.body, err, c.want)
		}
	}
}
