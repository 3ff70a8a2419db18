package spawn

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func fakeFS(files ...string) func(string) bool {
	set := map[string]bool{}
	for _, f := range files {
		set[f] = true
	}
	return func(p string) bool { return set[p] }
}

// assertion G: Windows resolution tries each PATHEXT extension before the
// bare name, falls back to .COM;.EXE;.BAT;.CMD, splits PATH on ';' with
// drive colons intact, and leaves a path-carrying name alone.
func TestCandidates(t *testing.T) {
	const path = `C:\Program Files\nodejs;D:\tools\;"E:\odd;dir"`
	cases := []struct {
		name    string
		prog    string
		pathext string
		files   []string
		want    []string
	}{
		{"shim beats extensionless script", "npm", ".EXE;.CMD",
			[]string{`C:\Program Files\nodejs\npm`, `C:\Program Files\nodejs\npm.cmd`},
			[]string{`C:\Program Files\nodejs\npm.CMD`, `C:\Program Files\nodejs\npm`}},
		{"fallback when PATHEXT empty", "git", "",
			[]string{`D:\tools\git.EXE`},
			[]string{`D:\tools\git.EXE`}},
		{"fallback order", "x", " ",
			[]string{`D:\tools\x.CMD`, `D:\tools\x.COM`, `D:\tools\x.BAT`},
			[]string{`D:\tools\x.COM`, `D:\tools\x.BAT`, `D:\tools\x.CMD`}},
		{"directory order first", "tool", ".EXE",
			[]string{`E:\odd;dir\tool.EXE`, `D:\tools\tool`},
			[]string{`D:\tools\tool`, `E:\odd;dir\tool.EXE`}},
		{"nothing resolves", "absent", ".EXE", nil, nil},
		{"path-carrying untouched", `.\bin\gates.exe`, ".EXE", nil, []string{`.\bin\gates.exe`}},
		{"forward path untouched", "bin/gates", ".EXE", nil, []string{"bin/gates"}},
		{"drive path untouched", `C:gates`, ".EXE", nil, []string{`C:gates`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The fake predicate is case-sensitive; spell hits as the search does.
			files := make([]string, 0, len(tc.files))
			for _, f := range tc.files {
				files = append(files, strings.NewReplacer(".cmd", ".CMD").Replace(f))
			}
			got := Candidates(tc.prog, path, tc.pathext, fakeFS(files...))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Candidates = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExeNames(t *testing.T) {
	if got := exeNames("sh", "", false); !reflect.DeepEqual(got, []string{"sh"}) {
		t.Errorf("unix names = %q", got)
	}
	want := []string{"sh.COM", "sh.EXE", "sh.BAT", "sh.CMD", "sh"}
	if got := exeNames("sh", "", true); !reflect.DeepEqual(got, want) {
		t.Errorf("fallback names = %q", got)
	}
	if got := exeNames("sh", ".exe;;.ps1", true); !reflect.DeepEqual(got, []string{"sh.exe", "sh.ps1", "sh"}) {
		t.Errorf("PATHEXT names = %q", got)
	}
}

func TestSplitWindowsList(t *testing.T) {
	got := splitWindowsList(`C:\a;;"C:\b;c";D:\`)
	want := []string{`C:\a`, `C:\b;c`, `D:\`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("split = %q, want %q", got, want)
	}
}

// assertion H: OnPath is command -v reduced to a presence answer.
func TestOnPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX arm")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "runme"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "readme"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(path string) LookupEnv {
		return func(k string) (string, bool) {
			if k == "PATH" {
				return path, true
			}
			return "", false
		}
	}
	cases := []struct {
		name string
		prog string
		path string
		want bool
	}{
		{"executable", "runme", "/nonexistent:" + dir, true},
		{"not executable", "readme", dir, false},
		{"directory", "adir", dir, false},
		{"absent", "nothere", dir, false},
		{"empty PATH", "runme", "", false},
		{"path-carrying", filepath.Join(dir, "runme"), "", true},
		{"path-carrying non-exec", filepath.Join(dir, "readme"), dir, false},
		{"empty name", "", dir, false},
	}
	for _, tc := range cases {
		if got := OnPath(tc.prog, env(tc.path)); got != tc.want {
			t.Errorf("%s: OnPath(%q) = %v, want %v", tc.name, tc.prog, got, tc.want)
		}
	}
	if !OnPath("sh", nil) {
		t.Error("sh is not on this process's PATH")
	}
}

func TestLookupIn(t *testing.T) {
	l := lookupIn([]string{"A=1", "B=x=y", "A=2"})
	if v, ok := l("A"); !ok || v != "2" {
		t.Errorf("A = %q %v", v, ok)
	}
	if v, ok := l("B"); !ok || v != "x=y" {
		t.Errorf("B = %q %v", v, ok)
	}
	if _, ok := l("C"); ok {
		t.Error("C found")
	}
}

// assertion I: the own-path readers keep a start name that is a file, drop
// the deleted mark only where the marked name is no file, and answer the
// image link once the start name has gone.
func TestSelfPaths(t *testing.T) {
	none := fakeFS()
	if got := selfPathFrom("/w/gates (deleted)", none); got != "/w/gates" {
		t.Errorf("marked, no such file: %q", got)
	}
	if got := selfPathFrom("/w/gates (deleted)", fakeFS("/w/gates (deleted)")); got != "/w/gates (deleted)" {
		t.Errorf("a file named with the mark: %q", got)
	}
	if got := selfPathFrom("/w/gates", none); got != "/w/gates" {
		t.Errorf("unmarked: %q", got)
	}
	if got := selfImageFrom("/w/gates", true, fakeFS("/w/gates")); got != "/w/gates" {
		t.Errorf("present start name: %q", got)
	}
	if got := selfImageFrom("/w/gates (deleted)", true, fakeFS("/w/gates")); got != procSelfExe {
		t.Errorf("replaced build: %q", got)
	}
	if got := selfImageFrom("/w/gates", false, none); got != "/w/gates" {
		t.Errorf("no image link: %q", got)
	}
	p, err := SelfPath()
	if err != nil || !isFile(p) {
		t.Fatalf("SelfPath = %q, %v", p, err)
	}
	img, err := SelfImage()
	if err != nil || !isFile(img) {
		t.Fatalf("SelfImage = %q, %v", img, err)
	}
	// This process is a Go test binary, which Self refuses
	// (TestSelfRefusesATestBinary); the program it answers for the built
	// binary is At of its image, named gates.
	if _, err := Self(); err == nil {
		t.Fatal("Self answered a Go test binary")
	}
	if self := At(img); self.Name() != "gates" || self.argv0() != img {
		t.Fatalf("At(SelfImage()) = %v", self)
	}
}

func FuzzSplitWindowsList(f *testing.F) {
	f.Add(`C:\a;;"C:\b;c";D:\`)
	f.Add(`"unterminated;x`)
	f.Fuzz(func(t *testing.T, list string) {
		for _, e := range splitWindowsList(list) {
			if e == "" || strings.Contains(e, `"`) {
				t.Fatalf("splitWindowsList(%q) yields entry %q", list, e)
			}
		}
		if !strings.ContainsAny(list, `";`) && list != "" {
			if got := splitWindowsList(list); len(got) != 1 || got[0] != list {
				t.Fatalf("a plain entry split as %q", got)
			}
		}
	})
}
