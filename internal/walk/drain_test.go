package walk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readOr(t *testing.T, p, missing string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return missing
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const absent = "<absent>"

func drainState(t *testing.T, log string) [3]string {
	return [3]string{readOr(t, log, absent), readOr(t, log+".drain", absent), readOr(t, log+".drain.part", absent)}
}

// assertion Q: a drain moves every unread line and drops none.
func TestCaptureDrain(t *testing.T) {
	cases := []struct {
		name             string
		log, drain, part string // absent spelled as absent
		wantPrinted      bool
		want             [3]string
	}{
		{"first drain", "l1\nl2\n", absent, absent, true, [3]string{"", "l1\nl2\n", absent}},
		{"leftover drain present", "new\n", "old\n", absent, true, [3]string{"", "old\nnew\n", absent}},
		{"part file recovered first", "new\n", "old\n", "mid\n", true, [3]string{"", "old\nmid\nnew\n", absent}},
		{"part file with no drain", "new\n", absent, "mid\n", true, [3]string{"", "mid\nnew\n", absent}},
		{"empty log, no drain", "", absent, absent, false, [3]string{"", absent, absent}},
		{"missing log", absent, absent, absent, false, [3]string{"", absent, absent}},
		{"missing log, leftover drain", absent, "old\n", absent, true, [3]string{"", "old\n", absent}},
		{"partial last line holds a line", "no newline", absent, absent, true, [3]string{"", "no newline", absent}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := physTemp(t)
			log := filepath.Join(dir, "capture.log")
			for p, body := range map[string]string{log: tc.log, log + ".drain": tc.drain, log + ".drain.part": tc.part} {
				if body != absent {
					writeFile(t, p, body)
				}
			}
			printed, err := CaptureDrain(log, false)
			if err != nil {
				t.Fatal(err)
			}
			if (printed != "") != tc.wantPrinted || (printed != "" && printed != log+".drain") {
				t.Errorf("printed %q", printed)
			}
			if got := drainState(t, log); got != tc.want {
				t.Errorf("state %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCaptureDrainDone(t *testing.T) {
	dir := physTemp(t)
	log := filepath.Join(dir, "c.log")
	writeFile(t, log+".drain", "x\n")
	for i := 0; i < 2; i++ { // present, then absent
		if p, err := CaptureDrain(log, true); err != nil || p != "" {
			t.Fatalf("--done pass %d: %q %v", i, p, err)
		}
		if _, err := os.Stat(log + ".drain"); !os.IsNotExist(err) {
			t.Fatalf("drain survived --done: %v", err)
		}
	}
	if _, err := os.Stat(log); !os.IsNotExist(err) {
		t.Fatal("--done touched the live log")
	}
}

// A writer opening by path after the rename lands in the live log; one
// holding a handle across the rename lands in the drain (the honest limit),
// and the rename under that open handle succeeds.
func TestCaptureDrainWriters(t *testing.T) {
	dir := physTemp(t)
	log := filepath.Join(dir, "c.log")
	writeFile(t, log, "before\n")
	held, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	printed, err := CaptureDrain(log, false)
	if err != nil || printed != log+".drain" {
		t.Fatalf("drain under an open handle: %q %v", printed, err)
	}
	if _, err := held.WriteString("held\n"); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("after\n")
	f.Close()
	if got := drainState(t, log); got != [3]string{"after\n", "before\nheld\n", absent} {
		t.Fatalf("state %q", got)
	}
	// The next drain keeps both and still drops nothing.
	if _, err := CaptureDrain(log, false); err != nil {
		t.Fatal(err)
	}
	if got := drainState(t, log); got != [3]string{"", "before\nheld\nafter\n", absent} {
		t.Fatalf("second drain state %q", got)
	}
}

func TestCaptureDrainRefusals(t *testing.T) {
	if _, err := CaptureDrain("", false); err == nil || !strings.Contains(err.Error(), "usage:") {
		t.Fatalf("no operand: %v", err)
	}
	dir := physTemp(t)
	missingDir := filepath.Join(dir, "nodir", "c.log")
	if _, err := CaptureDrain(missingDir, false); err == nil || !strings.Contains(err.Error(), missingDir) {
		t.Fatalf("unopenable log: %v", err)
	}
	log := filepath.Join(dir, "c.log")
	writeFile(t, log, "x\n")
	mkdirs(t, log+".drain") // a drain that is a directory cannot be appended to
	if _, err := CaptureDrain(log, false); err == nil || !strings.Contains(err.Error(), log+".drain") {
		t.Fatalf("unappendable drain: %v", err)
	}
	// The refusal dropped nothing: the line waits in the part file.
	if got := readOr(t, log+".drain.part", absent); got != "x\n" {
		t.Fatalf("part after refusal = %q", got)
	}
	writeFile(t, filepath.Join(log+".drain", "child"), "y")
	if _, err := CaptureDrain(log, true); err == nil || !strings.Contains(err.Error(), log+".drain") {
		t.Fatalf("unremovable drain: %v", err)
	}
}
