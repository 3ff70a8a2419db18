package walk

import (
	"strings"
	"testing"
)

// assertion A: the one absoluteness test.
func TestPathRoot(t *testing.T) {
	cases := map[string]bool{
		"/":          true,
		"/c/repo":    true,
		`\x`:         true,
		"D:/x":       true,
		`C:\repo`:    true,
		`\\?\C:\r`:   true,
		"C:":         false,
		"C:x":        false,
		"1:/x":       false,
		"é:/x":       false,
		"":           false,
		"a/b":        false,
		"./a":        false,
		"gate-sdk":   false,
		"z:\\":       true,
		"::/":        false,
		"ab:/":       false,
		"C:/":        true,
		"c:/lower":   true,
		" /leading":  false,
		"C:\\\\dbl":  true,
		"\\\\server": true,
	}
	for in, want := range cases {
		if got := PathRoot(in); got != want {
			t.Errorf("PathRoot(%q) = %v, want %v", in, got, want)
		}
	}
}

// assertion B: one normalizer keeps the input's own root, splits on either
// separator, and reads a rootless input as separator-rooted.
func TestNormalizeAbs(t *testing.T) {
	cases := []struct{ in, want string }{
		{`C:\repo\a`, "C:/repo/a"},
		{`C:\repo`, "C:/repo"},
		{"/c/repo", "/c/repo"},
		{`a\b`, "/a/b"},
		{"a/b", "/a/b"},
		{"", "/"},
		{"/", "/"},
		{`\`, "/"},
		{`C:\`, "C:/"},
		{"C:/", "C:/"},
		{`\\?\C:\repo`, "/?/C:/repo"},
		{"/a//b///c/", "/a/b/c"},
		{"/a/./b/.", "/a/b"},
		{"/a/../b", "/a/../b"},
		{"/sym/..", "/sym/.."},
		{`D:/x\y/z`, "D:/x/y/z"},
		{"C:rel", "/C:rel"},
		{"/c/repo/", "/c/repo"},
	}
	for _, tc := range cases {
		if got := NormalizeAbs(tc.in); got != tc.want {
			t.Errorf("NormalizeAbs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestAbsAgainst(t *testing.T) {
	cases := []struct{ base, p, want string }{
		{"/top", "gate-sdk", "/top/gate-sdk"},
		{"/top", "tools/gate-sdk", "/top/tools/gate-sdk"},
		{"/top", "/elsewhere/kit", "/elsewhere/kit"},
		{"/top", `D:\kits\x`, "D:/kits/x"},
		{"C:/repo", "gate-sdk", "C:/repo/gate-sdk"},
		{"C:/repo", `sub\kit`, "C:/repo/sub/kit"},
		{"/top", "", "/top"},
		{"/top", ".", "/top"},
		{"/top", "../x", "/top/../x"},
		{"/", "a", "/a"},
	}
	for _, tc := range cases {
		if got := AbsAgainst(tc.base, tc.p); got != tc.want {
			t.Errorf("AbsAgainst(%q, %q) = %q, want %q", tc.base, tc.p, got, tc.want)
		}
	}
}

// The composition rule under an injected Windows working directory, with
// the pre-repair composition kept as a control that must still reproduce
// the mixed-dialect string a Windows leg printed.
func TestInjectedWindowsCwd(t *testing.T) {
	const nativeCwd = `D:\build\ci\repo` // what a windows-msvc getcwd answers
	preRepair := nativeCwd + "/" + "gate-sdk" + "/checks"
	if preRepair != `D:\build\ci\repo/gate-sdk/checks` {
		t.Fatalf("control no longer reproduces the Windows leg's string: %q", preRepair)
	}
	crossed := NormalizeAbs(nativeCwd)
	got := Child(AbsAgainst(crossed, "gate-sdk"), "checks")
	if got != "D:/build/ci/repo/gate-sdk/checks" {
		t.Fatalf("crossed composition = %q", got)
	}
	if strings.Contains(got, `\`) || lastSegment(got) != "checks" {
		t.Fatalf("a reader splitting on / would misread %q", got)
	}
}

// assertion C: Child concatenates with '/', adds none after a trailing
// separator, and treats '\' as a separator on Windows alone.
func TestChild(t *testing.T) {
	cases := []struct {
		windows           bool
		parent, seg, want string
	}{
		{false, "/a/", "x", "/a/x"},
		{false, "/a", "x", "/a/x"},
		{false, `a\`, "x", `a\/x`},
		{true, `a\`, "x", `a\x`},
		{true, "/a/", "x", "/a/x"},
		{false, "", "x", "x"},
		{false, "sym", "..", "sym/.."},
		{false, "/", "x", "/x"},
		{false, "C:/", "x", "C:/x"},
		{false, "a", "", "a/"},
	}
	for _, tc := range cases {
		if got := childFor(tc.windows, tc.parent, tc.seg); got != tc.want {
			t.Errorf("child(windows=%v, %q, %q) = %q, want %q", tc.windows, tc.parent, tc.seg, got, tc.want)
		}
	}
	if Child("/a", "b") != "/a/b" {
		t.Error("host Child")
	}
}

// assertion D: containment composes its prefix in one place.
func TestContainment(t *testing.T) {
	cases := []struct {
		root, p string
		under   bool
		at      bool
		rel     string
		relOK   bool
	}{
		{"/top", "/top/a", true, true, "a", true},
		{"/top", "/top/a/b/", true, true, "a/b", true},
		{"/top", "/top", false, true, "", true},
		{"/top/", "/top", false, true, "", true},
		{"/top", "/top/", false, true, "", true},
		{"/top", "/topper/a", false, false, "", false},
		{"/top", "/", false, false, "", false},
		{"/", "/a", true, true, "a", true},
		{"C:/", "C:/x/y", true, true, "x/y", true},
		{"C:/repo", "C:/repo/k", true, true, "k", true},
		{"C:/repo", "D:/repo/k", false, false, "", false},
		{"", "/a", false, false, "", false},
		{"tools", "tools/gate-sdk", true, true, "gate-sdk", true},
	}
	for _, tc := range cases {
		if got := Under(tc.root, tc.p); got != tc.under {
			t.Errorf("Under(%q, %q) = %v", tc.root, tc.p, got)
		}
		if got := AtOrUnder(tc.root, tc.p); got != tc.at {
			t.Errorf("AtOrUnder(%q, %q) = %v", tc.root, tc.p, got)
		}
		rel, ok := RelUnder(tc.root, tc.p)
		if rel != tc.rel || ok != tc.relOK {
			t.Errorf("RelUnder(%q, %q) = %q, %v; want %q, %v", tc.root, tc.p, rel, ok, tc.rel, tc.relOK)
		}
	}
}

// assertion E: an argument crosses on entry, folding separators only.
func TestCrossArg(t *testing.T) {
	if got := crossArgFor(true, `C:\repo\docs`); got != "C:/repo/docs" {
		t.Errorf("windows CrossArg = %q", got)
	}
	if got := crossArgFor(true, `docs\a`); got != "docs/a" {
		t.Errorf("windows relative CrossArg = %q", got)
	}
	if got := crossArgFor(false, `odd\name`); got != `odd\name` {
		t.Errorf("POSIX CrossArg = %q", got)
	}
	// A crossed argument composes in one dialect; an uncrossed one would not.
	if got := childFor(true, crossArgFor(true, `C:\repo\docs`), "a.md"); got != "C:/repo/docs/a.md" {
		t.Errorf("crossed target composes as %q", got)
	}
}

func TestStripExtendedPrefix(t *testing.T) {
	cases := map[string]string{
		`\\?\C:\repo`:         `C:\repo`,
		`\\?\UNC\srv\share\x`: `\\srv\share\x`,
		`C:\repo`:             `C:\repo`,
		"/tmp/x":              "/tmp/x",
		`\\srv\share`:         `\\srv\share`,
	}
	for in, want := range cases {
		if got := StripExtendedPrefix(in); got != want {
			t.Errorf("StripExtendedPrefix(%q) = %q, want %q", in, got, want)
		}
	}
	if got := NormalizeAbs(StripExtendedPrefix(`\\?\C:\repo\a`)); got != "C:/repo/a" {
		t.Errorf("strip then normalize = %q", got)
	}
}

func FuzzNormalizeAbs(f *testing.F) {
	for _, s := range []string{`C:\repo\a`, "/c/repo", `a\b`, "", "/", `\\?\C:\x`, "C:", "a/./b/../c", "z:/", `C:\\`, "//"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := NormalizeAbs(in)
		if !PathRoot(got) {
			t.Fatalf("NormalizeAbs(%q) = %q is not rooted", in, got)
		}
		if again := NormalizeAbs(got); again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, got, again)
		}
		if strings.Contains(got, `\`) {
			t.Fatalf("NormalizeAbs(%q) = %q keeps a backslash", in, got)
		}
		if driveRooted(in) != (driveRooted(got) && got[:2] == in[:2]) {
			t.Fatalf("drive root not kept: %q -> %q", in, got)
		}
		body := strings.TrimPrefix(got, "/")
		if driveRooted(got) {
			body = got[3:]
		}
		if body != "" {
			for _, seg := range strings.Split(body, "/") {
				if seg == "" || seg == "." {
					t.Fatalf("NormalizeAbs(%q) = %q has an empty or dot segment", in, got)
				}
			}
		}
		if AbsAgainst("/base", got) != got {
			t.Fatalf("AbsAgainst moved an absolute %q", got)
		}
	})
}

func TestListingSpellingOneSpellingPerPath(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		inside   bool
	}{
		{"docs", "docs", true}, {"./docs/", "docs", true}, {"docs/.", "docs", true},
		{"docs//x/./", "docs/x", true}, {".", ".", true}, {"./", ".", true}, {"", ".", true},
		{"/r/base/docs", "docs", true}, {"/r/base", ".", true}, {"/r/base/", ".", true},
		{"/r/other", "/r/other", false}, {"../up", "../up", false}, {"..", "..", false},
		{"docs/../..", "docs/../..", false}, {"/r/base/../x", "../x", false},
	} {
		got, inside := ListingSpelling("/r/base", tc.in)
		if got != tc.want || inside != tc.inside {
			t.Errorf("ListingSpelling(%q) = %q, %v; want %q, %v", tc.in, got, inside, tc.want, tc.inside)
		}
	}
}

func TestAbsAgainstPhysical(t *testing.T) {
	for _, c := range []struct{ dir, p, want string }{
		{"/r/sub", "../doc.md", "/r/doc.md"},
		{"/r/sub", "../../x", "/x"},
		{"/r", "../../../x", "/x"},
		{"/r/sub", "a/../b", "/r/sub/a/../b"},
		{"/r/sub", "./-h", "/r/sub/-h"},
		{"/r/sub", "/abs/p", "/abs/p"},
		{"/r/sub", "..", "/r"},
	} {
		if got := AbsAgainstPhysical(c.dir, c.p); got != c.want {
			t.Errorf("AbsAgainstPhysical(%q, %q) = %q, want %q", c.dir, c.p, got, c.want)
		}
	}
}
