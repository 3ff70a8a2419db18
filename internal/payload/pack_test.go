package payload

// Unit tests of the packer over a synthetic repository: what a payload
// holds, its modes and stamp, the tarball form, and each refusal.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// gitRepo answers a fresh repository in a temporary directory and a
// runner of git in it.
func gitRepo(t *testing.T) (string, func(args ...string) string) {
	t.Helper()
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	top = filepath.ToSlash(top)
	env := append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(top), "GIT_CONFIG_NOSYSTEM=1")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir, cmd.Env = top, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	return top, git
}

// artifact places a target's binary and its sidecar under dir.
func artifact(t *testing.T, dir, target, name, body string) {
	t.Helper()
	writeFile(t, dir, target+"/"+name, body)
	writeFile(t, dir, target+"/"+name+SidecarSuffix, SidecarLine(Digest([]byte(body)), name))
}

// packRepo answers a repository with two kit roots, a top-level fixture
// and template tree, a roster of two targets and their artifacts.
func packRepo(t *testing.T) (PackInput, func(args ...string) string) {
	t.Helper()
	top, git := gitRepo(t)
	writeFile(t, top, "gate-sdk/README.md", "See [the spec](SPEC.md#rules).\n")
	writeFile(t, top, "gate-sdk/SPEC.md", "# spec\n")
	writeFile(t, top, "gate-sdk/bin/install.sh", "#!/bin/sh\n")
	writeFile(t, top, "gate-sdk/bin/install.ps1", "# ps\n")
	writeFile(t, top, "gate-sdk/bin/run.sh", "#!/bin/sh\n")
	writeFile(t, top, "gate-sdk/private/notes.md", "withheld\n")
	writeFile(t, top, "gate-sdk/private.md", "a sibling of the withheld dir\n")
	writeFile(t, top, "gate-sdk/drafts.md", "withheld file\n")
	writeFile(t, top, "kits/extra/checks/check-x.gate", "# gate\n")
	writeFile(t, top, "gate-tests/check-a/good/a.txt", "fixture\n")
	writeFile(t, top, "templates/adopt.md", "template\n")
	writeFile(t, top, "untracked-root/x", "x\n")
	writeFile(t, top, "LICENSE", "licence text\n")
	writeFile(t, top, "targets.list", "linux/amd64\nwindows/amd64\n")
	for _, x := range []string{"gate-sdk/bin/install.sh", "gate-sdk/bin/run.sh"} {
		if err := os.Chmod(filepath.Join(top, x), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "gate-sdk", "kits", "gate-tests", "templates", "targets.list", "LICENSE")
	git("commit", "-q", "-m", "init")
	arts := filepath.ToSlash(t.TempDir())
	artifact(t, arts, "linux/amd64", "gates", "linux binary")
	artifact(t, arts, "windows/amd64", "gates.exe", "windows binary")
	return PackInput{
		Top:       top,
		Roots:     []string{"gate-sdk", "kits/extra"},
		Fixtures:  "gate-tests",
		Templates: "templates",
		Targets:   top + "/targets.list",
		Artifacts: arts,
		License:   top + "/LICENSE",
		Withhold:  []string{"/private/", "drafts.md", "", "absent"},
		SpecBase:  "https://h/x/",
		Stamp:     "v9",
	}, git
}

// treeOf answers every regular file under dir with its mode and text.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = fmt.Sprintf("%04o %s", fi.Mode().Perm(), data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func wantPayload(commit string) map[string]string {
	return map[string]string{
		"gate-sdk/README.md":                      "0644 See [the spec](https://h/x/gate-sdk/SPEC#rules).\n",
		"gate-sdk/SPEC.md":                        "0644 # spec\n",
		"gate-sdk/bin/install.sh":                 "0755 #!/bin/sh\n",
		"gate-sdk/bin/install.ps1":                "0644 # ps\n",
		"gate-sdk/bin/run.sh":                     "0755 #!/bin/sh\n",
		"gate-sdk/private.md":                     "0644 a sibling of the withheld dir\n",
		"gate-sdk/gate-tests/check-a/good/a.txt":  "0644 fixture\n",
		"gate-sdk/templates/adopt.md":             "0644 template\n",
		"gate-sdk/LICENSE":                        "0644 licence text\n",
		"extra/checks/check-x.gate":               "0644 # gate\n",
		"extra/LICENSE":                           "0644 licence text\n",
		"LICENSE":                                 "0644 licence text\n",
		"artifact/linux/amd64/gates":              "0755 linux binary",
		"artifact/linux/amd64/gates.sha256":       "0644 " + SidecarLine(Digest([]byte("linux binary")), "gates"),
		"artifact/windows/amd64/gates.exe":        "0755 windows binary",
		"artifact/windows/amd64/gates.exe.sha256": "0644 " + SidecarLine(Digest([]byte("windows binary")), "gates.exe"),
		"targets.list":                            "0644 linux/amd64\nwindows/amd64\n",
		"install.sh":                              "0755 #!/bin/sh\n",
		"install.ps1":                             "0644 # ps\n",
		"payload.stamp":                           "0644 # The payload stamp: who packed this payload, from which commit.\nversion = v9\ncommit = " + commit + "\nspec_base_url = https://h/x/\n",
	}
}

func TestPackIntoADirectory(t *testing.T) {
	in, git := packRepo(t)
	commit := strings.TrimSpace(git("rev-parse", "HEAD"))
	var out bytes.Buffer
	in.Out, in.Stdout = filepath.ToSlash(filepath.Join(t.TempDir(), "payload")), &out
	if err := Pack(in); err != nil {
		t.Fatal(err)
	}
	if got, want := treeOf(t, in.Out), wantPayload(commit); !reflect.DeepEqual(got, want) {
		for k := range want {
			if got[k] != want[k] {
				t.Errorf("%s: %q, want %q", k, got[k], want[k])
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("%s packed: %q", k, got[k])
			}
		}
	}
	if want := "pack-installer: 2 kit root(s) and 2 artifact(s) packed into " + in.Out + "\n"; out.String() != want {
		t.Errorf("said %q, want %q", out.String(), want)
	}
	// An empty directory is packed into as an absent one is.
	empty := filepath.ToSlash(t.TempDir())
	in.Out = empty
	if err := Pack(in); err != nil {
		t.Errorf("an empty directory: %v", err)
	}
	// The directory now holds the payload: a second pack refuses.
	if err := Pack(in); err == nil || !strings.Contains(err.Error(), "is not empty") {
		t.Errorf("a second pack into the same directory: %v", err)
	}
}

func TestPackATarball(t *testing.T) {
	in, git := packRepo(t)
	commit := strings.TrimSpace(git("rev-parse", "HEAD"))
	in.License, in.SpecBase, in.Fixtures, in.Templates = "", "", "", ""
	in.Roots = in.Roots[:1]
	outDir := filepath.ToSlash(t.TempDir())
	var out bytes.Buffer
	in.Out, in.Stdout = outDir+"/p.tar.gz", &out
	if err := Pack(in); err != nil {
		t.Fatal(err)
	}
	d, err := FileDigest(in.Out)
	if err != nil {
		t.Fatal(err)
	}
	if side, _ := readFile(t, outDir, "p.tar.gz.sha256"); side != SidecarLine(d, "p.tar.gz") {
		t.Errorf("sidecar %q", side)
	}
	if want := "pack-installer: 1 kit root(s) and 2 artifact(s) packed into " + in.Out + " (sha256 " + d + ")\n"; out.String() != want {
		t.Errorf("said %q, want %q", out.String(), want)
	}
	// Only the tarball and its sidecar are left beside it.
	if ents, _ := os.ReadDir(outDir); len(ents) != 2 {
		t.Errorf("left %d entries beside the tarball", len(ents))
	}
	f, err := os.Open(in.Out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	got := map[string]string{}
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		if h.Typeflag != tar.TypeReg || h.Size != int64(len(body)) {
			t.Errorf("%s: type %c size %d of %d", h.Name, h.Typeflag, h.Size, len(body))
		}
		names = append(names, h.Name)
		got[h.Name] = fmt.Sprintf("%04o %s", h.Mode, body)
	}
	want := wantPayload(commit)
	want["gate-sdk/README.md"] = "0644 See [the spec](SPEC.md#rules).\n"
	for _, k := range []string{"gate-sdk/gate-tests/check-a/good/a.txt", "gate-sdk/templates/adopt.md", "gate-sdk/LICENSE", "extra/checks/check-x.gate", "extra/LICENSE", "LICENSE"} {
		delete(want, k)
	}
	want["payload.stamp"] = strings.Replace(want["payload.stamp"], "spec_base_url = https://h/x/", "spec_base_url = ", 1)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tarball:\n%q\nwant:\n%q", got, want)
	}
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("entries out of order: %q before %q", names[i-1], names[i])
		}
	}
}

func TestPackRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, in *PackInput, git func(...string) string)
		want  string
	}{
		{"no roster", func(t *testing.T, in *PackInput, _ func(...string) string) {
			in.Targets = in.Top + "/absent.list"
		}, "no target roster: "},
		{"a malformed roster", func(t *testing.T, in *PackInput, _ func(...string) string) {
			writeFile(t, in.Top, "bad.list", "linux\n")
			in.Targets = in.Top + "/bad.list"
		}, "TOP/bad.list:1: \"linux\" is not an <os>/<arch> target"},
		{"a missing artifact", func(t *testing.T, in *PackInput, _ func(...string) string) {
			if err := os.RemoveAll(in.Artifacts + "/windows"); err != nil {
				t.Fatal(err)
			}
		}, "the release is incomplete; build every roster target (make release):\n  windows/amd64 (roster line 2): no artifact directory "},
		{"a tracked symbolic link", func(t *testing.T, in *PackInput, git func(...string) string) {
			if err := os.Symlink("SPEC.md", in.Top+"/gate-sdk/link.md"); err != nil {
				t.Fatal(err)
			}
			git("add", "gate-sdk/link.md")
			git("commit", "-q", "-m", "link")
		}, "refusing to pack tracked symbolic links, which a Windows checkout cannot carry: gate-sdk/link.md; "},
		{"no installer", func(t *testing.T, in *PackInput, git func(...string) string) {
			git("rm", "-q", "gate-sdk/bin/install.ps1")
			git("commit", "-q", "-m", "rm")
		}, "the kit carries no bin/install.ps1 to place at the payload root: "},
		{"no license", func(t *testing.T, in *PackInput, _ func(...string) string) {
			in.License = in.Top + "/absent"
		}, "cannot place the license: "},
		{"an unreadable README", func(t *testing.T, in *PackInput, git func(...string) string) {
			writeFile(t, in.Top, "gate-sdk/README.md", "[a](open\n")
			git("commit", "-q", "-am", "readme")
		}, "gate-sdk/README.md: "},
		{"a root git does not know", func(t *testing.T, in *PackInput, _ func(...string) string) {
			in.Roots = []string{"gate-sdk", "../outside"}
		}, "git ls-files -s -z -- ../outside :(exclude)../outside/private :(exclude)../outside/drafts.md :(exclude)../outside/absent: git exited 128"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, git := packRepo(t)
			in.Out, in.Stdout = filepath.ToSlash(filepath.Join(t.TempDir(), "payload")), io.Discard
			tc.setup(t, &in, git)
			err := Pack(in)
			want := strings.ReplaceAll(tc.want, "TOP", in.Top)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("err %v, want %q", err, want)
			}
		})
	}
}

func TestSelectArtifactRefusals(t *testing.T) {
	body := "bin"
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"two binaries", func(t *testing.T, dir string) {
			artifact(t, dir, "x", "gates", body)
			writeFile(t, dir, "x/other", "o")
		}, "holds 2 artifacts (gates other); "},
		{"none", func(t *testing.T, dir string) {
			writeFile(t, dir, "x/gates.sha256", SidecarLine(Digest([]byte(body)), "gates"))
		}, "holds 0 artifacts (); "},
		{"no sidecar", func(t *testing.T, dir string) { writeFile(t, dir, "x/gates", body) }, "gates has no sidecar "},
		{"a malformed sidecar", func(t *testing.T, dir string) {
			writeFile(t, dir, "x/gates", body)
			writeFile(t, dir, "x/gates.sha256", "nonsense\n")
		}, "/x/gates.sha256:1: not a "},
		{"a sidecar of another name", func(t *testing.T, dir string) {
			writeFile(t, dir, "x/gates", body)
			writeFile(t, dir, "x/gates.sha256", SidecarLine(Digest([]byte(body)), "gates.exe"))
		}, "names gates.exe, not the artifact gates beside it"},
		{"a digest that differs", func(t *testing.T, dir string) {
			writeFile(t, dir, "x/gates", body)
			writeFile(t, dir, "x/gates.sha256", SidecarLine(Digest([]byte("other")), "gates"))
		}, "does not match its sidecar's"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.ToSlash(t.TempDir())
			tc.setup(t, dir)
			_, _, err := SelectArtifact(dir + "/x")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}
