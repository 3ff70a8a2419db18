package walk

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// acceptanceTree lays out tools/{gate-sdk,canon-kit/checks,zz,...} under a
// fresh directory and answers it in the module's dialect.
func acceptanceTree(t *testing.T) string {
	t.Helper()
	top := physTemp(t)
	mkdirs(t,
		filepath.Join(top, "tools", "gate-sdk", "checks"),
		filepath.Join(top, "tools", "canon-kit", "checks"),
		filepath.Join(top, "tools", "zz"),
		filepath.Join(top, "tools", "aa-gateless", "smoke"),
		filepath.Join(top, "tools", "mm", "docs"),
	)
	// A file named checks is no kit.
	writeFile(t, filepath.Join(top, "tools", "ff", "checks"), "not a dir")
	return NormalizeAbs(top)
}

// assertion M: the default set is the gate-sdk root then each sibling
// holding checks/ or smoke/, in name order, every spelling index-aligned.
func TestKitRootsAcceptance(t *testing.T) {
	top := acceptanceTree(t)
	set, err := KitRoots(KitRootsInput{Cwd: top, SdkRoot: "tools/gate-sdk"})
	if err != nil {
		t.Fatal(err)
	}
	eq := func(what string, got, want []string) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	eq("kit_roots", set.Paths(), []string{"tools/gate-sdk", "tools/aa-gateless", "tools/canon-kit"})
	eq("kit_roots_rel", set.Rel(), []string{"gate-sdk", "aa-gateless", "canon-kit"})
	eq("kit_roots_abs", set.Abs(), []string{top + "/tools/gate-sdk", top + "/tools/aa-gateless", top + "/tools/canon-kit"})
	eq("kit_roots_at(top)", set.At(top), []string{"tools/gate-sdk", "tools/aa-gateless", "tools/canon-kit"})
	eq("kit_roots_at(tools)", set.At(top+"/tools"), []string{"gate-sdk", "aa-gateless", "canon-kit"})
	eq("kit_roots_under(top)", set.Under(top), []string{"tools/gate-sdk", "tools/aa-gateless", "tools/canon-kit"})
	eq("kit_roots_at(gate-sdk)", set.At(top+"/tools/gate-sdk"), []string{".", top + "/tools/aa-gateless", top + "/tools/canon-kit"})
	eq("kit_roots_under(gate-sdk)", set.Under(top+"/tools/gate-sdk"), []string{"."})

	var out bytes.Buffer
	if err := WriteKitRoots(&out, set.Paths()); err != nil {
		t.Fatal(err)
	}
	if out.String() != "tools/gate-sdk\ntools/aa-gateless\ntools/canon-kit\n" {
		t.Errorf("--emit kit-roots printed %q", out.String())
	}
}

func TestKitRootsSpellings(t *testing.T) {
	top := acceptanceTree(t)
	tools := top + "/tools"

	t.Run("flat layout: spellings agree", func(t *testing.T) {
		set, err := KitRoots(KitRootsInput{Cwd: tools})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(set.Paths(), set.Rel()) || set.Paths()[0] != "gate-sdk" {
			t.Fatalf("flat: paths %q rel %q", set.Paths(), set.Rel())
		}
	})
	t.Run("absolute locator inside the cwd", func(t *testing.T) {
		set, err := KitRoots(KitRootsInput{Cwd: top, SdkRoot: tools + "/gate-sdk/"})
		if err != nil {
			t.Fatal(err)
		}
		if got := set.Paths(); !reflect.DeepEqual(got, []string{"tools/gate-sdk", "tools/aa-gateless", "tools/canon-kit"}) {
			t.Fatalf("paths %q", got)
		}
	})
	t.Run("root outside the toplevel narrows to nothing", func(t *testing.T) {
		elsewhere := physTemp(t)
		repo := physTemp(t)
		mkdirs(t, filepath.Join(elsewhere, "gate-sdk"))
		set, err := KitRoots(KitRootsInput{Cwd: NormalizeAbs(repo), SdkRoot: NormalizeAbs(elsewhere) + "/gate-sdk"})
		if err != nil {
			t.Fatal(err)
		}
		if got := set.Under(NormalizeAbs(repo)); len(got) != 0 {
			t.Fatalf("kit_roots_under = %q, want empty", got)
		}
		if got := set.Paths(); got[0] != NormalizeAbs(elsewhere)+"/gate-sdk" {
			t.Fatalf("outside root spelled %q", got[0])
		}
	})
	t.Run("override replaces; relative words pass through", func(t *testing.T) {
		set, err := KitRoots(KitRootsInput{Cwd: top, SdkRoot: "tools/gate-sdk", KitDirs: " tools/canon-kit\t./x/ " + top + "/tools/zz "})
		if err != nil {
			t.Fatal(err)
		}
		want := []KitRoot{
			{Path: "tools/canon-kit", Abs: top + "/tools/canon-kit", Rel: "tools/canon-kit"},
			{Path: "./x/", Abs: top + "/x", Rel: "./x/"},
			{Path: "tools/zz", Abs: top + "/tools/zz", Rel: "zz"},
		}
		if got := set.Roots(); !reflect.DeepEqual(got, want) {
			t.Fatalf("override roots\n got %+v\nwant %+v", got, want)
		}
	})
	t.Run("injected Windows cwd", func(t *testing.T) {
		set, err := KitRoots(KitRootsInput{Cwd: "C:/repo", KitDirs: `gate-sdk D:\kits\canon-kit`})
		if err != nil {
			t.Fatal(err)
		}
		if got := set.Abs(); !reflect.DeepEqual(got, []string{"C:/repo/gate-sdk", "D:/kits/canon-kit"}) {
			t.Fatalf("abs %q", got)
		}
		if got := set.Under("C:/repo"); !reflect.DeepEqual(got, []string{"gate-sdk"}) {
			t.Fatalf("under %q", got)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		if _, err := KitRoots(KitRootsInput{Cwd: "relative"}); err == nil {
			t.Error("a relative cwd was accepted")
		}
		if _, err := KitRoots(KitRootsInput{Cwd: top, SdkRoot: "no/such/parent/gate-sdk"}); err == nil {
			t.Error("an unlistable parent derived a set")
		}
	})
}

func TestLexParent(t *testing.T) {
	cases := map[string]string{
		"gate-sdk":        "",
		"tools/gate-sdk":  "tools",
		"tools/gate-sdk/": "tools",
		"/gate-sdk":       "/",
		"C:/gate-sdk":     "C:/",
		"/a/b":            "/a",
		"x/..":            "x/../..",
		".":               "./..",
	}
	for in, want := range cases {
		if got := lexParent(in); got != want {
			t.Errorf("lexParent(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestKitRootsPassOverAStrayNonUTF8Name pins that one stray name that is
// not UTF-8 beside the kit blocks nothing: it is no kit root, so it is
// never reported; a kit directory so named is refused, saying how to clear
// it.
func TestKitRootsPassOverAStrayNonUTF8Name(t *testing.T) {
	top := physTemp(t)
	for _, d := range []string{"gate-sdk/checks", "other-kit/checks"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, stray := range []string{"stray\xff.txt", "dir\xfe"} {
		p := filepath.Join(top, stray)
		var err error
		if strings.HasSuffix(stray, ".txt") {
			err = os.WriteFile(p, nil, 0o644)
		} else {
			err = os.Mkdir(p, 0o755)
		}
		if err != nil {
			t.Skip("this filesystem refuses names that are not UTF-8:", err)
		}
	}
	set, err := KitRoots(KitRootsInput{Cwd: top, SdkRoot: "gate-sdk"})
	if err != nil {
		t.Fatalf("a stray name blocked the kit roots: %v", err)
	}
	if got := strings.Join(set.Paths(), " "); got != "gate-sdk other-kit" {
		t.Fatalf("roots %q", got)
	}
	if err := os.MkdirAll(filepath.Join(top, "bad\xffkit", "checks"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = KitRoots(KitRootsInput{Cwd: top, SdkRoot: "gate-sdk"})
	var nu *NonUTF8Error
	if !errors.As(err, &nu) || !strings.Contains(err.Error(), "rename it to a UTF-8 name or remove it") {
		t.Fatalf("a kit dir not named in UTF-8: %v", err)
	}
}
