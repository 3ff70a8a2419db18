package repo

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A mapped file cut short where it stands while it is read faults on the
// pages past its new end; the read answers errMappedFault, not a crash.
func TestMapFileCutShortIsAnError(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fault is Linux's answer to a read past a mapped file's end")
	}
	p := filepath.Join(t.TempDir(), "index")
	if err := os.WriteFile(p, make([]byte, 3*os.Getpagesize()), 0o644); err != nil {
		t.Fatal(err)
	}
	data, release, err := mapFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	var sum byte
	err = faultGuard(func() {
		for _, b := range data {
			sum += b
		}
	})
	if !errors.Is(err, errMappedFault) {
		t.Fatalf("reading a cut-short mapping answered %v (sum %d); want errMappedFault", err, sum)
	}
	// The decode guards itself: a fault under the decoded index's
	// sync.Once must not leave it done with nothing decoded.
	if idx, err := (Git{}).parseRecorded(data, IndexSource{HashLen: 20}, "", "", false, false, true, fileTime{}); !errors.Is(err, errMappedFault) || idx != nil {
		t.Fatalf("decoding a cut-short mapping answered %v, %v; want errMappedFault", idx, err)
	}
}

// An empty file maps to no bytes (mmap refuses a zero length) and reads
// as empty; a missing one is fs.ErrNotExist.
func TestMapFileEmptyAndMissing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "empty")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	data, release, err := mapFile(p)
	if err != nil || len(data) != 0 {
		t.Fatalf("empty file: %d bytes, %v", len(data), err)
	}
	release()
	if _, _, err := mapFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}
