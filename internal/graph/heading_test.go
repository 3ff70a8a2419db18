package graph

import (
	"strings"
	"testing"
)

// hasHeadingBySplit is HasHeading as it was written first (the document
// copied and split into lines), the reference the in-place scan is held to.
func hasHeadingBySplit(doc []byte, title string) bool {
	for _, l := range strings.Split(string(doc), "\n") {
		l = strings.TrimSuffix(l, "\r")
		rest := strings.TrimLeft(l, "#")
		if len(rest) < len(l) && len(l)-len(rest) <= 6 && strings.TrimSpace(rest) == title && strings.HasPrefix(rest, " ") {
			return true
		}
	}
	return false
}

// FuzzHasHeadingAsSplit: the in-place scan answers what the split did.
func FuzzHasHeadingAsSplit(f *testing.F) {
	for _, s := range [][2]string{
		{"# A\n", "A"}, {"## A\r\n", "A"}, {"####### A\n", "A"}, {"#A\n", "A"}, {"x\n# A", "A"},
		{"#  A  \n", "A"}, {"#\tA\n", "A"}, {"# \n", ""}, {"#\n", ""}, {"", ""}, {"\r\n# A\r", "A"},
		{"# A\r\r\n", "A"}, {" # A\n", "A"}, {"# A\u00a0\n", "A"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, doc, title string) {
		if got, want := HasHeading([]byte(doc), title), hasHeadingBySplit([]byte(doc), title); got != want {
			t.Fatalf("HasHeading(%q, %q) = %v; the split answered %v", doc, title, got, want)
		}
	})
}
