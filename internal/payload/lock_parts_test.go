package payload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every entry kind of a lock is held to its grammar, each refusal naming
// the entry.
func TestParseLockEntryRefusals(t *testing.T) {
	d := strings.Repeat("0", 64)
	for bad, want := range map[string]string{
		`{"lock": 1, "files": [{"path": "", "sha256": "` + d + `"}]}`:                                             "file entry 1 lacks a path or a sha256",
		`{"lock": 1, "files": [{"path": "a", "sha256": "` + d + `0"}]}`:                                           "file entry 1 lacks a path or a sha256",
		`{"lock": 1, "pending": [{"path": "", "sha256": "` + d + `"}]}`:                                           "pending entry 1 lacks a path or a sha256",
		`{"lock": 1, "pending": [{"path": "a", "sha256": "ab"}]}`:                                                 "pending entry 1 lacks a path or a sha256",
		`{"lock": 1, "pending": [{"path": "a", "sha256": "` + d + `"}, {"path": "../b", "sha256": "` + d + `"}]}`: "pending entry 2:",
		`{"lock": 1, "pending_appended": [{"path": ".gitignore", "suffix": ""}]}`:                                 "pending appended entry 1 lacks",
		`{"lock": 1, "pending_appended": [{"path": "../x", "suffix": "a\n"}]}`:                                    "pending appended entry 1 lacks",
		`{"lock": 1, "appended": [{"path": "/abs", "suffix": "a\n"}]}`:                                            "appended entry 1 lacks",
		`{"lock": 1, "files": [{"path": "a", "sha256": "` + d + `"}, {"path": "/b", "sha256": "` + d + `"}]}`:     "file entry 2:",
	} {
		_, err := ParseLock("l", []byte(bad))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLock(%s) = %v, want it to say %q", bad, err, want)
		}
	}
	ok := `{"lock": 1, "pending": [{"path": "a", "sha256": "` + d + `"}], "pending_appended": [{"path": ".gitignore", "suffix": "x\n"}]}`
	if l, err := ParseLock("l", []byte(ok)); err != nil || len(l.Pending) != 1 || len(l.PendingAppended) != 1 {
		t.Errorf("a lock with a journal: %+v %v", l, err)
	}
}

func TestReadLockAndFile(t *testing.T) {
	dir := t.TempDir()
	if l, err := ReadLock(filepath.Join(dir, "absent.json"), "absent.json"); l != nil || err != nil {
		t.Fatalf("an absent lock: %v %v", l, err)
	}
	if _, err := ReadLock(dir, "dir"); err == nil || !strings.Contains(err.Error(), "cannot read the lock dir") {
		t.Fatalf("a directory as the lock: %v", err)
	}
	p := filepath.Join(dir, "lock.json")
	l0 := &Lock{Version: LockVersion, Files: []LockFile{{Path: "x", SHA256: strings.Repeat("a", 64), Class: classKit}}}
	if err := os.WriteFile(p, l0.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := ReadLock(p, "lock.json")
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := l.file("x"); !ok || f.Class != classKit {
		t.Errorf("file(x) = %+v %v", f, ok)
	}
	if _, ok := l.file("y"); ok {
		t.Error("file(y) found")
	}
	if _, ok := (*Lock)(nil).file("x"); ok {
		t.Error("a nil lock holds a file")
	}
}
