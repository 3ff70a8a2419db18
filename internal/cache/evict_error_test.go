package cache

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failRemoves makes every eviction removal answer err for the test's run.
func failRemoves(t *testing.T, err error) {
	t.Helper()
	saved := removeFile
	removeFile = func(name string) error {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	t.Cleanup(func() { removeFile = saved })
}

// An earlier-layout file the eviction cannot remove is an error Flush
// answers, naming the file: a cache that silently keeps growing past its
// bound is a fault the user is told about.
func TestFlushAnswersAnEvictionThatFailed(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "0001.v1")
	if err := os.WriteFile(old, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	failRemoves(t, fs.ErrPermission)
	s := store(t, dir, "abc123")
	s.Table("G", cfg("k", "v")).Put("p", "b", nil)
	err := s.Flush()
	if err == nil || !strings.Contains(err.Error(), "0001.v1") || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("Flush = %v, want the failed removal of 0001.v1", err)
	}
	// The table itself was written: the failure is the eviction's alone.
	if m, _ := filepath.Glob(filepath.Join(dir, "*"+ext)); len(m) != 1 {
		t.Fatalf("%d table files, want the one this run wrote", len(m))
	}
}

// A file another run removed first is no error: the eviction wanted it
// gone and it is.
func TestFlushIgnoresAnEvictionAnotherRunDid(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "0001.v1"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	failRemoves(t, fs.ErrNotExist)
	s := store(t, dir, "abc123")
	s.Table("G", cfg("k", "v")).Put("p", "b", nil)
	if err := s.Flush(); err != nil {
		t.Fatalf("Flush = %v, want nil for a file already gone", err)
	}
}
