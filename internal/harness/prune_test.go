package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// The records of sessions that ended long ago go at a new session's first
// look: beyond the keepSessions most recent, a session whose newest
// record is older than pruneAfter loses every file; the own session, the
// recent ones and files of other kinds stay.
func TestStaleSessionFilesKeepsTheRecentAndTheOwn(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	write := func(name string, age time.Duration) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		at := now.Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	// Thirty old sessions, the oldest first: s00 is 59 days old.
	for i := 0; i < 30; i++ {
		age := time.Duration(59-i) * 24 * time.Hour
		write(fmt.Sprintf("s%02d.tips", i), age)
		write(fmt.Sprintf("s%02d.verdicts", i), age)
	}
	// s01 was touched yesterday: recent, kept.
	write("s01.verdicts", 24*time.Hour)
	write("own.tips", 90*24*time.Hour)
	write("notes.txt", 90*24*time.Hour)
	write("s02.unknown-kind", 90*24*time.Hour)
	got := staleSessionFiles(dir, "own", now)
	var want []string
	// Kept: s01 (recent) and the 19 newest others (s11..s29); gone: s00,
	// s02..s10, all older than pruneAfter.
	for i := 0; i < 11; i++ {
		if i == 1 {
			continue
		}
		want = append(want, filepath.Join(dir, fmt.Sprintf("s%02d.tips", i)), filepath.Join(dir, fmt.Sprintf("s%02d.verdicts", i)))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stale files:\n got %v\nwant %v", got, want)
	}
	// Fewer than keepSessions sessions: none goes, whatever its age.
	small := t.TempDir()
	for i := 0; i < keepSessions; i++ {
		p := filepath.Join(small, fmt.Sprintf("x%02d.tips", i))
		os.WriteFile(p, []byte("{}"), 0o644)
		os.Chtimes(p, now.Add(-400*24*time.Hour), now.Add(-400*24*time.Hour))
	}
	if got := staleSessionFiles(small, "own", now); len(got) != 0 {
		t.Fatalf("pruned below the kept count: %v", got)
	}
}
