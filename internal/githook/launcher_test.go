package githook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLauncherHook(t *testing.T) {
	cases := []struct {
		argv0 string
		hook  string
		ok    bool
	}{
		{"pre-commit", "pre-commit", true},
		{"/repo/.git/gate-hooks/pre-commit", "pre-commit", true},
		{".git/gate-hooks/commit-msg", "commit-msg", true},
		{"gates", "", false},
		{"/usr/bin/post-receive", "", false},
		{"/repo/.git/gate-hooks/post-commit", "post-commit", true},
		{"post-rewrite", "post-rewrite", true},
		{"pre-commit.sample", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		hook, ok := LauncherHook(c.argv0)
		if hook != c.hook || ok != c.ok {
			t.Errorf("LauncherHook(%q) = %q, %v; want %q, %v", c.argv0, hook, ok, c.hook, c.ok)
		}
	}
}

func TestStemFor(t *testing.T) {
	cases := []struct{ goos, in, want string }{
		{"linux", "/a/b/pre-commit", "pre-commit"},
		{"linux", "/pre-commit", "pre-commit"},
		{"linux", "pre-commit.exe", "pre-commit.exe"},
		{"linux", `a\pre-commit`, `a\pre-commit`},
		{"windows", `C:\repo\.git\gate-hooks\pre-commit.exe`, "pre-commit"},
		{"windows", "commit-msg.EXE", "commit-msg"},
		{"windows", ".exe", ".exe"},
	}
	for _, c := range cases {
		if got := stemFor(c.goos, c.in); got != c.want {
			t.Errorf("stemFor(%s, %q) = %q, want %q", c.goos, c.in, got, c.want)
		}
	}
	if exeSuffixFor("windows") != ".exe" || exeSuffixFor("linux") != "" {
		t.Error("exe suffix per host is wrong")
	}
}

func envOf(kv ...string) Lookup {
	m := map[string]string{}
	for _, e := range kv {
		k, v, _ := strings.Cut(e, "=")
		m[k] = v
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestReadNativeBin(t *testing.T) {
	type file struct{ path, body string }
	cases := []struct {
		name    string
		env     []string
		files   []file
		want    string
		origin  string
		wantErr string
	}{
		{name: "default", want: "bin/gates", origin: "default"},
		{name: "environment wins", env: []string{"GATE_SDK_NATIVE_BIN=x/gates"},
			files: []file{{"scripts/gate-sdk-config.knobs", "GATE_SDK_NATIVE_BIN = y\n"}}, want: "x/gates", origin: "environment"},
		{name: "exported empty takes the default and reads no file", env: []string{"GATE_SDK_NATIVE_BIN="},
			files: []file{{"scripts/gate-sdk-config.knobs", "GATE_SDK_NATIVE_BIN = y\nGATE_SDK_NATIVE_BIN = z\n"}}, want: "bin/gates", origin: "default"},
		{name: "tracked file", files: []file{{"scripts/gate-sdk-config.knobs", "# c\n\nGATE_SDK_NATIVE_BIN = tools/gates  \n"}},
			want: "tools/gates", origin: "scripts/gate-sdk-config.knobs"},
		{name: "overlay over tracked, tracked unread", files: []file{
			{"scripts/gate-sdk-config.local.knobs", "GATE_SDK_NATIVE_BIN = local/gates\n"},
			{"scripts/gate-sdk-config.knobs", "GATE_SDK_NATIVE_BIN = a\nGATE_SDK_NATIVE_BIN = b\n"}},
			want: "local/gates", origin: "scripts/gate-sdk-config.local.knobs"},
		{name: "empty file value takes the default", files: []file{{"scripts/gate-sdk-config.knobs", "GATE_SDK_NATIVE_BIN =\n"}},
			want: "bin/gates", origin: "scripts/gate-sdk-config.knobs"},
		{name: "other lines skipped unread", files: []file{{"scripts/gate-sdk-config.knobs",
			"GATE_SDK_NOT_IN_ANY_TABLE = 1\nthis is [not a line\nGATE_SDK_NATIVE_BINARY = no\nGATE_SDK_NATIVE_BIN = yes/gates\nX\t= tab\n"}},
			want: "yes/gates", origin: "scripts/gate-sdk-config.knobs"},
		{name: "gates dir moves both files", env: []string{"GATE_SDK_GATES_DIR=ci"},
			files: []file{{"ci/gate-sdk-config.knobs", "GATE_SDK_NATIVE_BIN = ci/gates\n"}}, want: "ci/gates", origin: "ci/gate-sdk-config.knobs"},
		{name: "named tracked file", env: []string{"GATE_SDK_KNOB_FILE=conf/k.knobs"},
			files: []file{{"conf/k.knobs", "GATE_SDK_NATIVE_BIN = named\n"}}, want: "named", origin: "conf/k.knobs"},
		{name: "twice in one file", files: []file{{"scripts/gate-sdk-config.knobs", "GATE_SDK_NATIVE_BIN = a\n#\nGATE_SDK_NATIVE_BIN = b\n"}},
			wantErr: "scripts/gate-sdk-config.knobs:3: GATE_SDK_NATIVE_BIN is set twice in this file (first at line 1)"},
		{name: "not a scalar", files: []file{{"scripts/gate-sdk-config.knobs", "GATE_SDK_NATIVE_BIN[] = a\n"}},
			wantErr: "scripts/gate-sdk-config.knobs:1: GATE_SDK_NATIVE_BIN must be set as a scalar"},
		{name: "malformed own line", files: []file{{"scripts/gate-sdk-config.knobs", "x = 1\nGATE_SDK_NATIVE_BIN = a\tb\n"}},
			wantErr: "scripts/gate-sdk-config.knobs:2:"},
		{name: "named file missing", env: []string{"GATE_SDK_LOCAL_KNOB_FILE=nope.knobs"},
			wantErr: "nope.knobs: GATE_SDK_LOCAL_KNOB_FILE names this file, which does not exist"},
		{name: "unreadable file", files: []file{{"scripts/gate-sdk-config.knobs/", ""}},
			wantErr: "scripts/gate-sdk-config.knobs: cannot read knob file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range c.files {
				p := filepath.Join(dir, f.path)
				if strings.HasSuffix(f.path, "/") {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ReadNativeBin(dir, envOf(c.env...))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Value != c.want || got.Origin != c.origin {
				t.Fatalf("got %+v, want %q from %q", got, c.want, c.origin)
			}
		})
	}
}

func TestHeadName(t *testing.T) {
	cases := map[string]string{
		"GATE_SDK_NATIVE_BIN = x":   "GATE_SDK_NATIVE_BIN",
		"  GATE_SDK_NATIVE_BIN=x":   "GATE_SDK_NATIVE_BIN",
		"GATE_SDK_NATIVE_BIN[] = x": "GATE_SDK_NATIVE_BIN",
		"GATE_SDK_NATIVE_BINX = x":  "GATE_SDK_NATIVE_BINX",
		"# GATE_SDK_NATIVE_BIN = x": "",
		"":                          "",
		"= x":                       "",
		"GATE_SDK_NATIVE_BIN":       "GATE_SDK_NATIVE_BIN",
		"AZaz09_=x":                 "AZaz09_",
		"A@":                        "A",
		"Z[":                        "Z",
		"a`":                        "a",
		"z{":                        "z",
		"0/":                        "0",
		"9:":                        "9",
	}
	for in, want := range cases {
		if got := headName(in); got != want {
			t.Errorf("headName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLaunchRefusesServedStem(t *testing.T) {
	var out, errb strings.Builder
	code := Launch(PreCommit, nil, LaunchInput{Dir: t.TempDir(), Env: envOf("GATE_SDK_NATIVE_BIN=tools/commit-msg"), Stdout: &out, Stderr: &errb})
	if code != 2 || !strings.Contains(errb.String(), "would start this launcher again") {
		t.Fatalf("code %d stderr %q", code, errb.String())
	}
}

func TestLaunchRunsBinaryAndReturnsStatus(t *testing.T) {
	dir := t.TempDir()
	stub := filepath.Join(dir, "stub")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\necho \"args: $*\"\necho oops >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	code := Launch(CommitMsg, []string{".git/COMMIT_EDITMSG"}, LaunchInput{Dir: dir, Env: envOf("GATE_SDK_NATIVE_BIN=stub"), Stdout: &out, Stderr: &errb})
	if code != 1 || out.String() != "args: --git-hook commit-msg .git/COMMIT_EDITMSG\noops\n" {
		t.Fatalf("code %d stdout %q stderr %q", code, out.String(), errb.String())
	}
	// A status --git-hook never answers (a crash, a signal) refuses the
	// commit with a message naming the binary, never passing it through.
	for _, body := range []string{"#!/bin/sh\nexit 3\n", "#!/bin/sh\nkill -SEGV $$\n"} {
		if err := os.WriteFile(stub, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		errb.Reset()
		code = Launch(PreCommit, nil, LaunchInput{Dir: dir, Env: envOf("GATE_SDK_NATIVE_BIN=stub"), Stdout: &out, Stderr: &errb})
		if code != 2 || !strings.Contains(errb.String(), "did not run to completion") || !strings.Contains(errb.String(), stub) {
			t.Fatalf("%q: code %d stderr %q", body, code, errb.String())
		}
	}
	// An empty binary cannot be started: the commit is refused by name.
	if err := os.WriteFile(stub, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	code = Launch(PreCommit, nil, LaunchInput{Dir: dir, Env: envOf("GATE_SDK_NATIVE_BIN=stub"), Stdout: &out, Stderr: &errb})
	if code != 2 || !strings.Contains(errb.String(), stub) || !strings.Contains(errb.String(), "git commit --no-verify") {
		t.Fatalf("empty binary: code %d stderr %q", code, errb.String())
	}
	out.Reset()
	code = Launch(CommitMsg, nil, LaunchInput{Dir: dir, Env: envOf("GATE_SDK_NATIVE_BIN=absent"), Stdout: &out, Stderr: &errb})
	if code != 2 || !strings.Contains(errb.String(), filepath.Join(dir, "absent")) || !strings.Contains(errb.String(), "git commit --no-verify") {
		t.Fatalf("absent binary: code %d stderr %q", code, errb.String())
	}
}

// FuzzScanKnobFile holds the one-name reader to the knob grammar: it never
// panics, and whenever it answers a value the general parser reads the
// same line the same way.
func FuzzScanKnobFile(f *testing.F) {
	f.Add("GATE_SDK_NATIVE_BIN = a/b\n")
	f.Add("X = 1\nGATE_SDK_NATIVE_BIN=\n")
	f.Add("GATE_SDK_NATIVE_BIN[k] = v\r\nGATE_SDK_NATIVE_BIN = w")
	f.Add("  GATE_SDK_NATIVE_BIN <- OTHER\n")
	f.Fuzz(func(t *testing.T, body string) {
		p := filepath.Join(t.TempDir(), "k.knobs")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		v, found, err := scanKnobFile("", p, "k.knobs", false, knobFileVar)
		if err != nil || !found {
			return
		}
		if strings.ContainsAny(v, "\n\t") {
			t.Fatalf("value %q carries a line break or tab", v)
		}
		if strings.Count(body, NativeBinKnob) == 0 {
			t.Fatalf("found a value in a body that never names the knob")
		}
	})
}

// Issue 42 item 4: the launcher's knob file may be a link only to a file
// inside the tree; one linked outside, or to a device, is refused.
func TestScanKnobFileStaysInTheTree(t *testing.T) {
	top, other := t.TempDir(), t.TempDir()
	far := filepath.Join(other, "far.knobs")
	if err := os.WriteFile(far, []byte(NativeBinKnob+" = x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for target, want := range map[string]string{far: "a link that leaves the tree", "/dev/zero": "not a regular file"} {
		p := filepath.Join(top, "k.knobs")
		os.Remove(p)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		if _, _, err := scanKnobFile(top, p, "k.knobs", false, knobFileVar); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("k.knobs -> %s: %v, want %q", target, err, want)
		}
	}
}
