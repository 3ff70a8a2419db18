package walk

import "testing"

func TestInTestInputDir(t *testing.T) {
	for p, want := range map[string]bool{
		"testdata/x.yml": true, "a/b/fixtures/c/d.sh": true, "pkg/_testdata/f": true, "web/__fixtures__/x": true,
		"a/b/c/testdata/x": true, "a/b/c/d/e": false, "testdata": false, "docs/testdata.md": false, "mytestdata/x": false, "x.go": false, "a/fixture/b": false,
	} {
		if got := InTestInputDir(p); got != want {
			t.Errorf("InTestInputDir(%q) = %v, want %v", p, got, want)
		}
	}
}
