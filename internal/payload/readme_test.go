package payload

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gate-sdk/gates/internal/mdlink"
)

// The packer rewrites the extracted README's SPEC.md links under a base,
// and leaves it byte for byte under none.
func TestRewriteReadme(t *testing.T) {
	src := "See [the spec](SPEC.md#rules) and [other](../other/SPEC.md).\n"
	for base, want := range map[string]string{
		"":             src,
		"https://h/x/": "See [the spec](https://h/x/kit/SPEC#rules) and [other](https://h/x/other/SPEC).\n",
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, "README.md")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := rewriteReadme(dir, base, "kit", mdlink.Leaves([]string{"kits/kit", "other"})); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		if string(got) != want {
			t.Errorf("base %q: packed README %q, want %q", base, got, want)
		}
	}
	// A kit without a README packs without one; an unreadable link refuses.
	if err := rewriteReadme(t.TempDir(), "https://h", "kit", nil); err != nil {
		t.Errorf("a kit with no README: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("[a](open\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewriteReadme(dir, "https://h", "kit", nil); err == nil {
		t.Error("a README the reader cannot read was packed blind")
	}
}
