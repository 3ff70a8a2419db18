package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// assertion L (edit-gates): the last overlay's record is written in place
// and sealed with its checksum; a record cut short, damaged, of the
// earlier layout, or holding another write's tail names no prior, and the
// Edit is judged as an uncached overlay is; the next Edit starts from the
// record that Edit wrote. Not parallel: it sets the build's stamp and the
// package's seams.
func TestEditGatesLastOverlayRecordIsCheckedBeforeUse(t *testing.T) {
	saved := sourceStamp
	defer func() { sourceStamp = saved }()
	sourceStamp = "edit-gates-record-test"
	l := newLandedRepo(t)
	cached := func(k string) (string, bool) {
		switch k {
		case "GATE_SDK_CACHE":
			return "on", true
		case "GATE_SDK_VERBOSE":
			return "1", true
		}
		return l.env(l.dir)(k)
	}
	verdict := func(out string) string {
		var keep []string
		for _, line := range strings.Split(out, "\n") {
			if !strings.Contains(line, " hits, ") && !strings.HasPrefix(line, "gates: ") {
				keep = append(keep, line)
			}
		}
		return strings.Join(keep, "\n")
	}
	record := filepath.Join(l.dir, ".git", "gates-cache", editOverlayRecord)
	n := 0
	step := func(what string, prior bool) {
		t.Helper()
		n++
		body := "How to use it, edit " + strings.Repeat("x", n) + ".\n"
		if n%3 == 0 {
			body = "Keep notes in /ho" + "me/marta/notes.\n" + body
		}
		l.write("docs/guide.md", body)
		got, overlay := l.editGatesEnv("docs/guide.md", false, cached)
		want, _ := l.editGates("docs/guide.md", false)
		if !overlay {
			t.Fatalf("%s: the overlay was not judged", what)
		}
		if verdict(got) != verdict(want) {
			t.Errorf("%s: the cached overlay answers\n%s\nuncached\n%s", what, got, want)
		}
		started := strings.Contains(got, "TREE-TERMS-SETS 1 hits, 0 misses")
		if started != prior {
			t.Errorf("%s: started from the last overlay %v, want %v:\n%s", what, started, prior, got)
		}
	}
	spoil := func(f func([]byte) []byte) {
		t.Helper()
		data, err := os.ReadFile(record)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(record, f(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	step("the first edit", false)
	step("the second edit", true)
	before, err := os.Stat(record)
	if err != nil {
		t.Fatal(err)
	}
	step("the third edit", true)
	after, err := os.Stat(record)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("the record was replaced by another file, not written in place")
	}

	spoil(func(d []byte) []byte { return d[:len(d)-4] })
	step("after the record was cut short", false)
	step("after the record was written again", true)

	spoil(func(d []byte) []byte {
		i := strings.Index(string(d), "\n") + 1 // the index line's first byte
		d[i] ^= 0x01
		return d
	})
	step("after a byte of the record was flipped", false)
	step("after the record was written again", true)

	spoil(func(d []byte) []byte {
		// The earlier layout: no seal, the version it named.
		s := string(d)
		s = s[:strings.LastIndex(s, "crc ")]
		return []byte(strings.Replace(s, overlayRecordHead, "overlay 1", 1))
	})
	step("after a record of the earlier layout", false)

	spoil(func(d []byte) []byte { return append(d, "docs/guide.md\n"...) })
	step("after a record with a tail past its seal", false)

	// A longer record written in place is cut to the new one's length: a
	// record made long by hand (more paths, sealed) is followed by a
	// shorter one that checks.
	spoil(func(d []byte) []byte {
		s := string(d)
		s = s[:strings.LastIndex(s, "crc ")] + strings.Repeat("README.md\n", 40)
		return overlayRecordSeal(s)
	})
	step("after a long record", true)
	step("after the long record was overwritten by a shorter one", true)
}

// The record's seal refuses every mix of two records' bytes a reader
// could see while a writer overwrites a longer record in place, and
// accepts each record whole.
func TestOverlayRecordSealRefusesMixes(t *testing.T) {
	long := overlayRecordSeal(overlayRecordHead + "\nindex a\nindex a put p 100644 1111\np\nq\nr\n")
	short := overlayRecordSeal(overlayRecordHead + "\nindex a\nindex a put p 100644 2222\np\n")
	for _, rec := range [][]byte{long, short} {
		if _, ok := overlayRecordLines(rec); !ok {
			t.Fatalf("a whole record is refused:\n%s", rec)
		}
	}
	// Every prefix of the short record written over the long one, before
	// and after the cut.
	// Only a whole record, the old or the new, checks.
	whole := func(b []byte) bool { return string(b) == string(long) || string(b) == string(short) }
	for i := 0; i <= len(short); i++ {
		mix := append(append([]byte(nil), short[:i]...), long[i:]...)
		if _, ok := overlayRecordLines(mix); ok != whole(mix) {
			t.Fatalf("a mix of %d new bytes over the old record: checks %v:\n%s", i, ok, mix)
		}
		cut := mix[:len(short)]
		if _, ok := overlayRecordLines(cut); ok != whole(cut) {
			t.Fatalf("a mix of %d new bytes cut to the new length: checks %v:\n%s", i, ok, cut)
		}
	}
	// Written in place over the long record, the file is the short one.
	name := filepath.Join(t.TempDir(), editOverlayRecord)
	writeInPlace(name, long)
	writeInPlace(name, short)
	got, err := os.ReadFile(name)
	if err != nil || string(got) != string(short) {
		t.Fatalf("written in place: %q %v, want %q", got, err, short)
	}
}

// assertion K (edit-gates): an Edit whose members are all compiled makes
// and removes no scratch directory: the temporary directory's entries
// are left as they were, its times unmoved. Not parallel: it sets the
// package's seams.
func TestEditGatesMakesNoScratchDirectory(t *testing.T) {
	l := newLandedRepo(t)
	l.write("docs/guide.md", "How to use it, edited once.\n")
	l.editGates("docs/guide.md", false) // the temporary directory is made
	tmp := filepath.Join(l.dir, ".tmp")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(tmp, old, old); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"How to use it, edited twice.\n", "Keep notes in /ho" + "me/marta/notes.\n"} {
		l.write("docs/guide.md", body)
		out, _ := l.editGates("docs/guide.md", false)
		if strings.Contains(body, "notes") && !strings.Contains(out, "docs/guide.md:1") {
			t.Fatalf("the leak was not named:\n%s", out)
		}
		fi, err := os.Stat(tmp)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(old) {
			t.Fatalf("an Edit made or removed an entry of %s (modified %v)", tmp, fi.ModTime())
		}
	}
}
