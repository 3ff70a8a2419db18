package repo

// statClean over real files: the stat data a file has now is clean for
// the mode git recorded, and not for another.

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// statOf answers the stat data git's index would record for p now.
func statOf(t *testing.T, p string) *statData {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil {
		t.Fatal(err)
	}
	var d statData
	for i, v := range []uint32{uint32(st.Ctim.Sec), uint32(st.Ctim.Nsec), uint32(st.Mtim.Sec), uint32(st.Mtim.Nsec),
		uint32(st.Dev), uint32(st.Ino), 0, st.Uid, st.Gid, uint32(st.Size)} {
		binary.BigEndian.PutUint32(d[4*i:4*i+4], v)
	}
	return &d
}

func TestStatCleanByMode(t *testing.T) {
	dir := physTemp(t)
	plain, exe, link := filepath.Join(dir, "plain"), filepath.Join(dir, "exe"), filepath.Join(dir, "link")
	writeFile(t, plain, "p\n", 0o644)
	writeFile(t, exe, "#!/bin/sh\n", 0o755)
	if err := os.Symlink("plain", link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		mode uint32
		want bool
	}{
		{plain, ModeRegular, true},
		{plain, ModeExecutable, false},
		{exe, ModeExecutable, true},
		{exe, ModeRegular, false},
		{link, ModeSymlink, true},
		{link, ModeRegular, false},
		{plain, ModeSymlink, false},
		{dir, ModeRegular, false},
	} {
		if got := statClean(tc.path, statOf(t, tc.path), tc.mode); got != tc.want {
			t.Errorf("statClean(%s, %o) = %v, want %v", filepath.Base(tc.path), tc.mode, got, tc.want)
		}
	}
	if statClean(filepath.Join(dir, "absent"), statOf(t, plain), ModeRegular) {
		t.Error("an absent file is clean")
	}
}
