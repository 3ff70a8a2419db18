package githook

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The record is ordered by top first, then member; a member that left
// nothing unjudged gets no line; a record that cannot be removed is an
// error.
func TestDebtOrderZeroAndRemoval(t *testing.T) {
	common := t.TempDir()
	if err := AddDebt(common, "/w/b", map[string]int{"m-a": 1, "m-z": 0}); err != nil {
		t.Fatal(err)
	}
	if err := AddDebt(common, "/w/a", map[string]int{"m-b": 2}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDebt(common)
	if want := []Debt{{"/w/a", "m-b", 2}, {"/w/b", "m-a", 1}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("record = %+v, %v; want %+v", got, err, want)
	}
	// The record's place taken by a directory that holds a file: settling
	// every line cannot remove it, and says so.
	gone := t.TempDir()
	if err := os.MkdirAll(filepath.Join(gone, DebtName, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeDebt(gone, nil); err == nil {
		t.Fatal("a record that could not be removed was reported removed")
	}
	if err := writeDebt(t.TempDir(), nil); err != nil {
		t.Fatalf("removing an absent record: %v", err)
	}
}
