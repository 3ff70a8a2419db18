package ere

import "testing"

// IsMatchBytes answers what IsMatch answers over the same bytes, literal,
// required-substring and DFA paths alike, and leaves the subject intact.
func TestIsMatchBytesAgrees(t *testing.T) {
	pats := []string{"abc", "a[0-9]+z", "^x", "y$", "(foo|ba+r)", "q.*w"}
	hays := []string{"", "abc", "xabcx", "a123z", "az", "x", "yy", "foo", "baaar", "q\nw", "\x00abc\xff"}
	for _, p := range pats {
		re, err := Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hays {
			b := []byte(h)
			if got, want := re.IsMatchBytes(b), re.IsMatch(h); got != want {
				t.Errorf("%q over %q: bytes %v, string %v", p, h, got, want)
			}
			if string(b) != h {
				t.Errorf("%q: the subject was modified", p)
			}
		}
	}
	re, _ := Compile("a")
	if re.IsMatchBytes(nil) {
		t.Error("nil subject matched")
	}
}
