package kits

import (
	"bytes"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

func TestAllOrderAndContent(t *testing.T) {
	a, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 || a[0].Kit != Core {
		t.Fatalf("gate-sdk's table must come first; got %v", a)
	}
	for i, tb := range a {
		if !bytes.Contains(tb.Data, []byte("[kit]")) {
			t.Errorf("%s: embedded table has no [kit] section", tb.Kit)
		}
		if i > 1 && a[i-1].Kit >= tb.Kit {
			t.Errorf("kits after gate-sdk are not in name order: %s then %s", a[i-1].Kit, tb.Kit)
		}
	}
	b, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatal("two calls disagree")
	}
	for i := range a {
		if a[i].Kit != b[i].Kit {
			t.Fatal("order is not stable")
		}
	}
}

func TestDescriptorIsEmbedded(t *testing.T) {
	p, data, ok := Descriptor("check-tree-terms")
	if !ok || p != "gate-sdk/checks/check-tree-terms.gate" || !bytes.Contains(data, []byte("# spec:")) {
		t.Fatalf("check-tree-terms descriptor: %q %q %v", p, data, ok)
	}
	if _, _, ok := Descriptor("check-no-such-gate"); ok {
		t.Fatal("an unshipped name answered a descriptor")
	}
	if _, _, ok := Descriptor("check-tree-term?"); ok {
		t.Fatal("a glob metacharacter must not match every descriptor")
	}
}

// indexed answers the tracked files under dir (relative to this package)
// as manifest lines, "<mode> <path>", path relative to dir with prefix
// put before it.
func indexed(t *testing.T, dir, prefix string) []string {
	t.Helper()
	out, err := exec.Command("git", "ls-files", "-s", "-z", "--", dir).Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var lines []string
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		meta, p, _ := strings.Cut(rec, "\t")
		lines = append(lines, strings.Fields(meta)[0]+" "+prefix+strings.TrimPrefix(p, dir+"/"))
	}
	return lines
}

// The manifest is the index: same paths, same modes, for every kit; the
// core kit's lines include the top-level fixture and template trees as its
// gate-tests/ and templates/.
func TestManifestMatchesIndex(t *testing.T) {
	for _, kit := range Vendorable() {
		want := indexed(t, kit, "")
		if kit == Core {
			for _, top := range []string{fixtureTree, templateTree} {
				fx := indexed(t, "../"+top, top+"/")
				if len(fx) == 0 {
					t.Fatalf("the index tracks no ../%s; the core kit's %s live there", top, top)
				}
				want = append(want, fx...)
			}
			sort.Slice(want, func(i, j int) bool {
				_, a, _ := strings.Cut(want[i], " ")
				_, b, _ := strings.Cut(want[j], " ")
				return a < b
			})
		}
		raw, err := manifests.ReadFile(kit + manifestSuffix)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("kits/%s%s is stale against the index; run `make kit-manifest`", kit, manifestSuffix)
		}
		files, err := Tree(kit)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != len(want) {
			t.Errorf("Tree(%s) answers %d files, the index %d", kit, len(files), len(want))
		}
		for i, f := range files {
			mode := "100644"
			if f.Exec {
				mode = "100755"
			}
			if i < len(want) && mode+" "+f.Path != want[i] {
				t.Errorf("Tree(%s) answers %s %s where the index has %s", kit, mode, f.Path, want[i])
				break
			}
		}
	}
}

func TestParseManifestRefuses(t *testing.T) {
	for _, bad := range []string{"", "100644\n", "120000 a\n", "100644 ../a\n", "100644 /a\n", "100644 a//b\n", "100644 ./a\n"} {
		if _, err := ParseManifest("m", []byte(bad)); err == nil {
			t.Errorf("ParseManifest(%q) accepted", bad)
		}
	}
	e, err := ParseManifest("m", []byte("100755 bin/x.sh\n100644 a b\n"))
	if err != nil || len(e) != 2 || !e[0].Exec || e[1].Exec || e[1].Path != "a b" {
		t.Fatalf("got %+v %v", e, err)
	}
}

func TestTreeRefusesUnknownKit(t *testing.T) {
	if _, err := Tree("no-such-kit"); err == nil {
		t.Fatal("Tree accepted a kit the binary does not carry")
	}
}

func FuzzParseManifest(f *testing.F) {
	f.Add([]byte("100644 a\n100755 bin/x.sh\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		es, err := ParseManifest("m", data)
		if err != nil {
			return
		}
		for _, e := range es {
			if e.Path == "" || strings.HasPrefix(e.Path, "/") || strings.HasPrefix(e.Path, "../") {
				t.Fatalf("accepted %q", e.Path)
			}
		}
	})
}
