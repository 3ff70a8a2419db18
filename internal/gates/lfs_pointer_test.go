package gates

import (
	"strconv"
	"strings"
	"testing"
)

// lfsPointer spells a git-lfs pointer file as the LFS spec lays it out.
func lfsPointer(hexDigit string, size int) string {
	return "version https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat(hexDigit, 64) + "\nsize " + strconv.Itoa(size) + "\n"
}

func TestLFSPointerShape(t *testing.T) {
	for _, tc := range []struct {
		data string
		want bool
	}{
		{lfsPointer("a", 12345), true},
		// An extension line between version and oid is in the spec.
		{"version https://git-lfs.github.com/spec/v1\next-0-foo sha256:" + strings.Repeat("b", 64) + "\noid sha256:" + strings.Repeat("c", 64) + "\nsize 0\n", true},
		// The pre-release spelling git-lfs still reads.
		{"version https://hawser.github.com/spec/v1\noid sha256:" + strings.Repeat("d", 64) + "\nsize 9\n", true},
		{"", false},
		{"version https://git-lfs.github.com/spec/v1\n", false},
		{"version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 9\n", false},
		{"version https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat("e", 64) + "\nsize nine\n", false},
		{"version https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat("e", 64) + "\nsize 9", false},
		{"version https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat("E", 64) + "\nsize 9\n", false},
		{"# notes\nversion https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat("e", 64) + "\nsize 9\n", false},
		// Text after the pointer is not a pointer.
		{lfsPointer("f", 1) + "and then prose\n", false},
		// A pointer is small: the spec caps it below 1024 bytes.
		{lfsPointer("a", 1) + "zz " + strings.Repeat("x", 1100) + "\n", false},
	} {
		if got := isLFSPointer([]byte(tc.data)); got != tc.want {
			t.Errorf("isLFSPointer(%q) = %v, want %v", tc.data, got, tc.want)
		}
	}
}

// A tracked git-lfs pointer is not counted as a judged file: the clean
// line says how many pointers stood in for content the scan never saw.
func TestTreeTermsCountsLFSPointers(t *testing.T) {
	tree := newCountTree(map[string]string{
		"a.md":      "nothing\n",
		"big.bin":   lfsPointer("1", 4096),
		"video.mp4": lfsPointer("2", 99999),
	})
	got := termsCase{tree: tree, disk: map[string]string{"p": "zzz\n"}, args: []string{".", "p"}}.run(t)
	wantCode(t, got, 0)
	wantOut(t, got, "TREE-TERMS: clean (1 tracked files match none of 1 banned patterns; 2 git-lfs pointers not judged: their content is not in the tree)")
	// The pointer's own text is still matched: it is what git records.
	got = termsCase{tree: tree, disk: map[string]string{"p": "sha256:2222\n"}, args: []string{".", "p"}}.run(t)
	wantCode(t, got, 1)
	wantOut(t, got, "video.mp4:2:")
	// No pointer, no mention.
	got = termsCase{tree: newCountTree(map[string]string{"a.md": "nothing\n"}), disk: map[string]string{"p": "zzz\n"}, args: []string{".", "p"}}.run(t)
	wantOut(t, got, "TREE-TERMS: clean (1 tracked files match none of 1 banned patterns)")
}
