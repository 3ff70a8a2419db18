package gates

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

const assetsDoc = "# Spec\n\n## The payload\n\n<!-- release-assets: app-{version}-{target}.tar.gz SUMS-{version} -->\n"

const assetsWorkflow = "jobs:\n  pack:\n    steps:\n      - run: |\n          bin/gates check-release-assets --dist dist \"$V\"\n"

// assetsTree writes a publishing tree: the kit's SPEC.md, the workflow,
// a two-target roster and a matching dist/ for 1.2.3.
func assetsTree(t *testing.T, doc string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		releaseKit + "/SPEC.md":              doc,
		".github/workflows/publish.yml":      assetsWorkflow,
		"targets.list":                       "# roster\nlinux/amd64\ndarwin/arm64 # the second\n",
		"dist/app-1.2.3-linux-amd64.tar.gz":  "",
		"dist/app-1.2.3-darwin-arm64.tar.gz": "",
		"dist/SUMS-1.2.3":                    "",
	})
	return dir
}

func assetsRun(dir string, args ...string) gatetest.Run {
	return runRelease(checkReleaseAssets, "check-release-assets", dir, []string{releaseKit}, releaseKnobs(), args...)
}

// TestReleaseAssetsDefaults: no positional reads the kit's SPEC.md and the
// knob's workflow; the publish half compares dist/.
func TestReleaseAssetsDefaults(t *testing.T) {
	dir := assetsTree(t, assetsDoc)
	wantRun(t, assetsRun(dir), 0, "RELEASE-ASSETS: clean (kits/gate-sdk/SPEC.md declares 2 asset templates")
	wantRun(t, assetsRun(dir, "--dist", "dist", "1.2.3"), 0, "dist holds the 3 declared assets of 1.2.3 over 2 targets")
	// The battery half still runs beside the publish half.
	writeFiles(t, dir, map[string]string{".github/workflows/publish.yml": "# bin/gates check-release-assets --dist dist x\n"})
	wantRun(t, assetsRun(dir, "--dist", "dist", "1.2.3"), 1, "no publish workflow runs check-release-assets --dist")
}

// TestReleaseAssetsNoDeclaration: a doc declaring nothing is a finding,
// not a refusal.
func TestReleaseAssetsNoDeclaration(t *testing.T) {
	dir := assetsTree(t, "# Spec\n\n## The payload\n\nprose only\n\n```\n<!-- release-assets: fenced-{version} -->\n```\n")
	wantRun(t, assetsRun(dir), 1, "kits/gate-sdk/SPEC.md: declares no release asset set", "help: keep exactly one")
}

// TestReleaseAssetsRefusals: every exit-2 path.
func TestReleaseAssetsRefusals(t *testing.T) {
	dir := assetsTree(t, assetsDoc)
	wantRun(t, assetsRun(dir, "absent.md", ".github/workflows/publish.yml"), 2, "declaring doc absent.md does not exist")
	wantRun(t, assetsRun(dir, releaseKit+"/SPEC.md", "absent.yml"), 2, "publish workflow absent.yml does not exist")
	wantRun(t, assetsRun(dir, releaseKit, ".github/workflows/publish.yml"), 2, "cannot read declaring doc")
	k := releaseKnobs()
	k["GATE_SDK_NATIVE_PUBLISH_WORKFLOW"] = ".github/workflows/publish.yml .github/workflows/gone.yml"
	wantRun(t, runRelease(checkReleaseAssets, "check-release-assets", dir, []string{releaseKit}, k), 2, "gone.yml does not exist")
	wantRun(t, runRelease(checkReleaseAssets, "check-release-assets", dir, nil, releaseKnobs()), 2, "no gate-sdk kit root")
	wantRun(t, assetsRun(dir, "--dist", "nowhere", "1.2.3"), 2, "cannot read the --dist directory nowhere")
	for _, v := range []string{"", "1 2", "1/2", "1\t2"} {
		wantRun(t, assetsRun(dir, "--dist", "dist", v), 2, "is empty or carries a blank or '/'")
	}
	writeFiles(t, dir, map[string]string{"targets.list": "# nothing live\n\n"})
	wantRun(t, assetsRun(dir, "--dist", "dist", "1.2.3"), 2, "names no target")
	writeFiles(t, dir, map[string]string{"targets.list": "linux-amd64\n"})
	wantRun(t, assetsRun(dir, "--dist", "dist", "1.2.3"), 2, "targets.list:1: target \"linux-amd64\" is not <os>/<arch>")
	if err := os.Remove(filepath.Join(dir, "targets.list")); err != nil {
		t.Fatal(err)
	}
	wantRun(t, assetsRun(dir, "--dist", "dist", "1.2.3"), 2, "target roster")
	// Without --dist the roster is never read.
	wantRun(t, assetsRun(dir), 0, "clean")
	for _, args := range [][]string{{"only-doc"}, {"--dist", "dist"}, {"a", "b", "--dist", "d"}, {"a", "b", "c"}} {
		wantRun(t, assetsRun(dir, args...), 2, "usage:")
	}
}

func TestTemplateFault(t *testing.T) {
	for tpl, want := range map[string]string{
		"a-{version}":             "",
		"a-{version}-{target}.gz": "",
		"{target}{version}":       "",
		"a":                       "lacks {version}",
		"a-{target}":              "lacks {version}",
		"a/{version}":             "'/'",
		"a-{Version}":             "{Version}",
		"a-{version":              "'{'",
		"a-version}":              "'}'",
		"a-{}{version}":           "{}",
	} {
		got := templateFault(tpl)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("templateFault(%q) = %q, want %q", tpl, got, want)
		}
	}
}

func TestExpandTemplate(t *testing.T) {
	got := expandTemplate("gates-{version}-{target}.tar.gz", "1.2.3", []string{"linux/amd64", "windows/arm64"})
	if !reflect.DeepEqual(got, []string{"gates-1.2.3-linux-amd64.tar.gz", "gates-1.2.3-windows-arm64.tar.gz"}) {
		t.Errorf("%q", got)
	}
	if got := expandTemplate("SUMS-{version}", "1.2.3", []string{"a/b"}); !reflect.DeepEqual(got, []string{"SUMS-1.2.3"}) {
		t.Errorf("%q", got)
	}
}

// TestAssetDeclSpellings: blanks around and inside the comment, tabs
// between templates and a CRLF ending read the same set.
func TestAssetDeclSpellings(t *testing.T) {
	want := []string{"a-{version}", "b-{version}"}
	for _, doc := range []string{
		"<!-- release-assets: a-{version} b-{version} -->\n",
		"  <!--release-assets:a-{version}\tb-{version}-->  \n",
		"<!--   release-assets:   a-{version}   b-{version}   -->\r\n",
	} {
		d := parseAssetDecls(doc)
		if len(d) != 1 || !reflect.DeepEqual(d[0].templates, want) {
			t.Errorf("%q read %+v", doc, d)
		}
	}
	for _, doc := range []string{
		"text <!-- release-assets: a-{version} -->\n",
		"<!-- release-assets: a-{version} --> text\n",
		"<!-- assets: a-{version} -->\n",
		"~~~\n<!-- release-assets: a-{version} -->\n~~~\n",
	} {
		if d := parseAssetDecls(doc); len(d) != 0 {
			t.Errorf("%q is no declaration, read %+v", doc, d)
		}
	}
}

func TestCallsDist(t *testing.T) {
	for line, want := range map[string]bool{
		"          bin/gates check-release-assets --dist dist \"$V\"": true,
		"run: gates check-release-assets --dist d 1":                  true,
		"  ./bin/check-release-assets --dist d 1 # the publish half":  true,
		"  # bin/gates check-release-assets --dist d 1":               false,
		"  bin/gates check-release-assets":                            false,
		"  bin/gates check-release-assets-old --dist d 1":             false,
		"  echo ok # check-release-assets --dist":                     false,
	} {
		if got := callsDist(line, "check-release-assets"); got != want {
			t.Errorf("callsDist(%q) = %v", line, got)
		}
	}
}

func FuzzParseAssetDecls(f *testing.F) {
	f.Add(assetsDoc)
	f.Add("```\n<!-- release-assets: x -->\n```\n<!--release-assets:{version}{target}-->")
	f.Fuzz(func(t *testing.T, doc string) {
		lines := strings.Split(doc, "\n")
		for _, d := range parseAssetDecls(doc) {
			if d.line < 1 || d.line > len(lines) || !strings.Contains(lines[d.line-1], assetsToken) {
				t.Fatalf("declaration line %d is not a declaring line", d.line)
			}
			for _, tpl := range d.templates {
				if tpl == "" || strings.ContainsAny(tpl, " \t\n") {
					t.Fatalf("template %q", tpl)
				}
				if templateFault(tpl) == "" {
					for _, n := range expandTemplate(tpl, "1.0", []string{"os/arch"}) {
						if strings.ContainsAny(n, "/{}") {
							t.Fatalf("a well-formed template expanded to %q", n)
						}
					}
				}
			}
		}
	})
}
