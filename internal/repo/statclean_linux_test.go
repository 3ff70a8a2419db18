package repo

// statClean over real files: the stat data a file has now is clean for
// the mode git recorded, and not for another.

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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

// assertion I (stop-gates): the stat test spread over goroutines answers
// what one pass answers, over an untouched listing and one changed at its
// first, middle or last entry, one whose file is gone, and one holding an
// entry with no stat data or a conflict stage, in two, three and four
// parts.
func TestTrackedStatCleanSpreadAgreesWithOnePass(t *testing.T) {
	dir := physTemp(t)
	const n = 40
	base := make([]Entry, n)
	for i := range base {
		rel := filepath.Join("d", string(rune('a'+i%5)), "f"+string(rune('A'+i))+".md")
		p := filepath.Join(dir, rel)
		writeFile(t, p, "body\n", 0o644)
		base[i] = Entry{Path: rel, Mode: ModeRegular}
	}
	// The listing in index order, each with the stat data it has now.
	sortEntries := func(es []Entry) {
		for i := 1; i < len(es); i++ {
			for j := i; j > 0 && es[j].Path < es[j-1].Path; j-- {
				es[j], es[j-1] = es[j-1], es[j]
			}
		}
	}
	sortEntries(base)
	for i := range base {
		base[i].stat = statOf(t, filepath.Join(dir, base[i].Path))
	}
	old, oldProcs := statCleanSplit, runtime.GOMAXPROCS(0)
	defer func() { statCleanSplit = old; runtime.GOMAXPROCS(oldProcs) }()
	states := map[string]func() []Entry{
		"untouched": func() []Entry { return append([]Entry(nil), base...) },
	}
	for _, at := range []int{0, n / 2, n - 1} {
		states[fmt.Sprintf("stat data of another file at %d", at)] = func() []Entry {
			es := append([]Entry(nil), base...)
			other := *es[(at+1)%n].stat
			es[at].stat = &other
			return es
		}
	}
	states["a file gone"] = func() []Entry {
		es := append([]Entry(nil), base...)
		es[n-2].Path = es[n-2].Path + ".gone"
		return es
	}
	states["no stat data"] = func() []Entry {
		es := append([]Entry(nil), base...)
		es[n/3].stat = nil
		return es
	}
	states["a conflict stage"] = func() []Entry {
		es := append([]Entry(nil), base...)
		es[n-1].Stage = 2
		return es
	}
	for name, build := range states {
		statCleanSplit = 1 << 30
		want := trackedStatClean(dir, build())
		if name == "untouched" && !want {
			t.Fatal("the untouched listing is not clean in one pass")
		}
		if name != "untouched" && want {
			t.Fatalf("%s: clean in one pass", name)
		}
		statCleanSplit = 1
		for _, procs := range []int{2, 3, 4} {
			runtime.GOMAXPROCS(procs)
			if got := trackedStatClean(dir, build()); got != want {
				t.Errorf("%s, %d parts: %v, one pass %v", name, procs, got, want)
			}
		}
		runtime.GOMAXPROCS(oldProcs)
	}
}
