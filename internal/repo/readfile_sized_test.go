package repo

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFileSizedReadsWholeWhateverTheHint: a hint that is short, long,
// absent or past the bound never changes the bytes read.
func TestReadFileSizedReadsWholeWhateverTheHint(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	want := bytes.Repeat([]byte("0123456789"), 1000)
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, hint := range []int{-1, 0, 1, 511, len(want) - 1, len(want), len(want) + 1, 3 * len(want), maxSizeHint + 1, 1 << 40} {
		got, err := readFileSized(p, hint)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("hint %d: %d bytes, %v", hint, len(got), err)
		}
		if hint > maxSizeHint && cap(got) > 2*len(want) {
			t.Fatalf("hint %d past the bound sized the buffer %d", hint, cap(got))
		}
	}
}
