package workflow

import (
	"strings"
	"testing"
)

// TestPinnedHexEdges: a commit pin is exactly 40 hex digits (0-9, a-f,
// A-F) and a docker digest exactly 64; a digit or letter just outside a
// range, or one character too many or too few, is a tag, not a pin.
func TestPinnedHexEdges(t *testing.T) {
	for _, c := range []string{"0", "9", "a", "f", "A", "F"} {
		sha := strings.Repeat(c, 40)
		if ok, why := Pinned("o/r@" + sha); !ok {
			t.Errorf("o/r@%s: %s, want pinned", sha, why)
		}
		// The odd character last, after 39 hex digits.
		if ok, why := Pinned("o/r@" + strings.Repeat("b", 39) + c); !ok {
			t.Errorf("...%s: %s, want pinned", c, why)
		}
		if ok, _ := Pinned("docker://img@sha256:" + strings.Repeat(c, 64)); !ok {
			t.Errorf("docker digest of %q: want pinned", c)
		}
	}
	for _, c := range []string{"/", ":", "`", "g", "@", "G", " ", "-"} {
		ref := "o/r@" + strings.Repeat("b", 39) + c
		if ok, _ := Pinned(ref); ok {
			t.Errorf("%q: pinned, want refused", ref)
		}
		if ok, _ := Pinned("docker://img@sha256:" + strings.Repeat("b", 63) + c); ok {
			t.Errorf("docker digest ending %q: pinned, want refused", c)
		}
	}
	for _, ref := range []string{"o/r@" + strings.Repeat("a", 41), "docker://img@sha256:" + strings.Repeat("a", 63), "docker://img@sha256:" + strings.Repeat("a", 65), "docker://img@sha25:" + strings.Repeat("a", 64)} {
		if ok, _ := Pinned(ref); ok {
			t.Errorf("%q: pinned, want refused", ref)
		}
	}
	// The last '@' decides; a docker image pinned twice reads its last digest.
	if ok, _ := Pinned("o/r@v1@" + strings.Repeat("a", 40)); !ok {
		t.Error("the last @ is the pin")
	}
	if ok, _ := Pinned("o/r@" + strings.Repeat("a", 40) + "@v1"); ok {
		t.Error("a tag after the sha is the pin")
	}
	if ok, _ := Pinned("docker://img@sha256:" + strings.Repeat("a", 64) + "@sha256:x"); ok {
		t.Error("the last digest is read")
	}
	if ok, _ := Pinned("@" + strings.Repeat("a", 40)); !ok {
		t.Error("an @ at the start still pins")
	}
	if ok, why := Pinned("docker://@sha256:" + strings.Repeat("a", 64)); !ok {
		t.Errorf("docker digest right after the scheme: %s", why)
	}
}

// TestCommentedUsesSeeds: a commented-out step is read like a step: its
// dashes, a flow mapping, a quoted key; a comment that is not a uses:
// seed yields nothing.
func TestCommentedUsesSeeds(t *testing.T) {
	src := "jobs:\n  b:\n    steps:\n" +
		"      # -\n" +
		"      # - - uses: a/b@v1\n" +
		"      # -\tuses: c/d@v2\n" +
		"      # \"uses\": e/f@v3\n" +
		"      # 'uses': g/h@v4\n" +
		"      # {uses: i/j@v5}\n" +
		"      # uses: k/l@v6 trailing words\n" +
		"      # uses: \"m/n@v7\n" +
		"      # -uses: o/p@v8\n" +
		"      # usesx: q/r@v9\n" +
		"      # {other: s/t@v1}\n" +
		"      # uses: {nested: u/v@v1}\n" +
		"      #\n" +
		"      - run: x\n"
	f := read(src)
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	var got []string
	for _, u := range UsesRefs(f) {
		if !u.Commented {
			t.Errorf("line %d %q read as live", u.Line, u.Ref)
		}
		got = append(got, u.Ref)
	}
	want := "a/b@v1 c/d@v2 e/f@v3 g/h@v4 i/j@v5 k/l@v6 m/n@v7"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

// TestUsesRefsOrderAndEnds: refs come in document order, two on one line
// in the order written; a seed on the file's last line (with or without a
// newline) is read.
func TestUsesRefsOrderAndEnds(t *testing.T) {
	src := "jobs:\n  b:\n    steps:\n      - {uses: a/b@v1, with: {x: {uses: c/d@v2}}}\n      - {uses: e/f@v3, with: {x: {uses: g/h@v4}}, y: {uses: i/j@v5}}\n      # uses: k/l@v6"
	for _, s := range []string{src, src + "\n"} {
		f := read(s)
		if f.Rejected != nil {
			t.Fatal(f.Rejected)
		}
		var got []string
		for _, u := range UsesRefs(f) {
			got = append(got, u.Ref)
		}
		if want := "a/b@v1 c/d@v2 e/f@v3 g/h@v4 i/j@v5 k/l@v6"; strings.Join(got, " ") != want {
			t.Errorf("%q: got %q, want %q", s[len(s)-8:], strings.Join(got, " "), want)
		}
	}
}

// TestPinnedLocalPathBesideTheCheckout: a ./ path is pinned by
// construction wherever it points, one climbing beside the checkout too:
// a project copies its own actions there out of a later checkout's reach
// (./../trusted/.github/actions/x), and no ref of it can move.
func TestPinnedLocalPathBesideTheCheckout(t *testing.T) {
	for _, ref := range []string{"./", "./a", "./.github/actions/x", "./a/../b", "./..", "./../base/.github/actions/cosign"} {
		if ok, why := Pinned(ref); !ok {
			t.Errorf("%q: %s, want pinned", ref, why)
		}
	}
}
