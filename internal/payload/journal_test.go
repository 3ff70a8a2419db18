package payload

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestAppendSuffix(t *testing.T) {
	for _, tc := range []struct{ cur, want string }{
		{"", "a\nb\n"},
		{"x\n", "a\nb\n"},
		{"x", "\na\nb\n"},
	} {
		if got := appendSuffix([]byte(tc.cur), []string{"a", "b"}); got != tc.want {
			t.Errorf("appendSuffix(%q) = %q, want %q", tc.cur, got, tc.want)
		}
	}
}

func TestPlannedDirs(t *testing.T) {
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	l := &Lock{Dirs: []string{"a/b/c"}}
	plannedDirs(top, "a/b/c/d/f", l)
	plannedDirs(top, "top-file", l)
	plannedDirs(top, "a/g", l)
	if want := []string{"a/b/c", "a/b/c/d", "a/b"}; !reflect.DeepEqual(l.Dirs, want) {
		t.Fatalf("dirs %q, want %q", l.Dirs, want)
	}
}

// A killed run's journal: a pending file on disk is recorded as init's
// and marked, one never written is dropped, its temporary file removed; a
// pending append whose bytes end the file is recorded once.
func TestSettlePending(t *testing.T) {
	top := t.TempDir()
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(top, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("written", "new bytes")
	write("written"+tmpSuffix, "half")
	write("never"+tmpSuffix, "half")
	write(".gitignore", "old\n/bin/gates\n")
	write("other", "no suffix here")
	d := strings.Repeat("0", 64)
	done := LockAppend{Path: ".gitignore", Suffix: "/bin/gates\n"}
	l := &Lock{
		Files:           []LockFile{{Path: "written", SHA256: d, Class: classSeed}},
		Pending:         []LockFile{{Path: "written", SHA256: d, Class: classKit}, {Path: "never", SHA256: d, Class: classKit}},
		PendingAppended: []LockAppend{done, {Path: "other", Suffix: "x\n"}, {Path: "absent", Suffix: "x\n"}, done},
	}
	had, err := settlePending(top, l)
	if err != nil || !had {
		t.Fatalf("settlePending = %v %v", had, err)
	}
	want, _ := FileDigest(filepath.Join(top, "written"))
	if len(l.Files) != 1 || l.Files[0].SHA256 != want || l.Files[0].Class != classKit {
		t.Errorf("files %+v", l.Files)
	}
	if !l.wasPending("written") || l.wasPending("never") || (*Lock)(nil).wasPending("written") {
		t.Error("the settled marks are wrong")
	}
	if !reflect.DeepEqual(l.Appended, []LockAppend{done}) || l.Pending != nil || l.PendingAppended != nil {
		t.Errorf("appended %+v pending %+v %+v", l.Appended, l.Pending, l.PendingAppended)
	}
	for _, rel := range []string{"written" + tmpSuffix, "never" + tmpSuffix} {
		if _, err := os.Stat(filepath.Join(top, rel)); !os.IsNotExist(err) {
			t.Errorf("%s left behind", rel)
		}
	}
	if had, err := settlePending(top, &Lock{}); had || err != nil {
		t.Errorf("a lock with no journal: %v %v", had, err)
	}
	if had, err := settlePending(top, nil); had || err != nil {
		t.Errorf("no lock: %v %v", had, err)
	}
	// A pending path that cannot be read is refused, naming it.
	if err := os.Mkdir(filepath.Join(top, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := settlePending(top, &Lock{Pending: []LockFile{{Path: "adir", SHA256: d}}}); err == nil || !strings.Contains(err.Error(), "adir") {
		t.Errorf("an unreadable pending file: %v", err)
	}
}

// The journal records, before any write, each file to create or update
// with the digest of its new bytes, each append with the exact bytes it
// adds and whether it creates the file, and the directories the writes
// will create; kept and present files are not recorded.
func TestJournalRecordsComingWrites(t *testing.T) {
	top := t.TempDir()
	if err := os.WriteFile(filepath.Join(top, ".gitignore"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := func(path, verb string) step {
		return step{planned: planned{path: path, data: []byte(path), class: classKit}, verb: verb}
	}
	steps := []step{st("new/dir/a", "create"), st("b", "update"), st("c", "present"), st("d/e", "keep-edited")}
	next := &Lock{Version: LockVersion, Files: []LockFile{{Path: "b", SHA256: strings.Repeat("0", 64), Class: classKit}}}
	appends := map[string][]string{".gitignore": {"/bin/gates"}}
	if err := journal(top, "meta/lock.json", next, steps, appends); err != nil {
		t.Fatal(err)
	}
	l, err := ReadLock(filepath.Join(top, "meta", "lock.json"), "meta/lock.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []LockFile{{Path: "new/dir/a", SHA256: Digest([]byte("new/dir/a")), Class: classKit}, {Path: "b", SHA256: Digest([]byte("b")), Class: classKit}}
	if !reflect.DeepEqual(l.Pending, want) {
		t.Errorf("pending %+v", l.Pending)
	}
	if !reflect.DeepEqual(l.PendingAppended, []LockAppend{{Path: ".gitignore", Suffix: "\n/bin/gates\n", Created: false}}) {
		t.Errorf("pending appended %+v", l.PendingAppended)
	}
	if !reflect.DeepEqual(l.Dirs, []string{"meta", "new", "new/dir"}) || !reflect.DeepEqual(next.Dirs, []string{"meta", "new", "new/dir"}) {
		t.Errorf("dirs %q, next %q", l.Dirs, next.Dirs)
	}
	if len(next.Pending) != 0 || len(l.Files) != 1 {
		t.Errorf("next changed: %+v; files %+v", next.Pending, l.Files)
	}
	// An append to a file not there creates it.
	if err := journal(top, "lock.json", &Lock{Version: LockVersion}, nil, map[string][]string{"fresh": {"x"}}); err != nil {
		t.Fatal(err)
	}
	l, _ = ReadLock(filepath.Join(top, "lock.json"), "lock.json")
	if l == nil || !reflect.DeepEqual(l.PendingAppended, []LockAppend{{Path: "fresh", Suffix: "x\n", Created: true}}) {
		t.Errorf("a fresh append: %+v", l)
	}
}

// A journal of one pending file and one pending append is settled.
func TestSettlePendingOneOfEach(t *testing.T) {
	l := &Lock{Pending: []LockFile{{Path: "absent", SHA256: strings.Repeat("0", 64)}}, PendingAppended: []LockAppend{{Path: "absent2", Suffix: "x\n"}}}
	if had, err := settlePending(t.TempDir(), l); !had || err != nil || l.Pending != nil || l.PendingAppended != nil {
		t.Fatalf("settlePending = %v %v, left %+v", had, err, l)
	}
}
