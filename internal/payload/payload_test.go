package payload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gates"
	"github.com/gate-sdk/gates/internal/patterns"
	"github.com/gate-sdk/gates/kits"
)

func TestParseTargets(t *testing.T) {
	got, err := ParseTargets("t", []byte("# roster\nlinux/amd64\n\n  windows/arm64  \r\n"))
	if err != nil || len(got) != 2 || got[1].String() != "windows/arm64" || got[1].Line != 4 {
		t.Fatalf("got %+v %v", got, err)
	}
	if got[0].BinaryName() != "gates" || got[1].BinaryName() != "gates.exe" {
		t.Fatalf("binary names %s %s", got[0].BinaryName(), got[1].BinaryName())
	}
	for _, bad := range []string{"", "# only a comment\n", "linux\n", "linux/amd64/v2\n", "Linux/amd64\n", "linux/amd64\nlinux/amd64\n", "x86_64-unknown-linux-gnu\n"} {
		if _, err := ParseTargets("t", []byte(bad)); err == nil {
			t.Errorf("ParseTargets(%q) accepted", bad)
		}
	}
}

func TestParseRunners(t *testing.T) {
	ts, _ := ParseTargets("t", []byte("linux/amd64\ndarwin/arm64\n"))
	if _, err := ParseRunners("r", []byte("linux/amd64 ubuntu-latest\ndarwin/arm64 macos-latest\n"), ts); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]string{
		"missing target": "linux/amd64 ubuntu-latest\n",
		"foreign target": "linux/amd64 a\ndarwin/arm64 b\nplan9/386 c\n",
		"twice":          "linux/amd64 a\nlinux/amd64 b\ndarwin/arm64 c\n",
		"one field":      "linux/amd64\ndarwin/arm64 b\n",
	} {
		if _, err := ParseRunners("r", []byte(bad), ts); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// The repository's own rosters parse and agree.
func TestRepositoryRosters(t *testing.T) {
	tb, err := os.ReadFile("../../targets.list")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := ParseTargets("targets.list", tb)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"linux/amd64": true, "linux/arm64": true, "darwin/amd64": true, "darwin/arm64": true, "windows/amd64": true, "windows/arm64": true}
	for _, x := range ts {
		delete(want, x.String())
	}
	if len(want) > 0 {
		t.Errorf("targets.list lacks %v", want)
	}
	rb, err := os.ReadFile("../../runners.list")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseRunners("runners.list", rb, ts); err != nil {
		t.Fatal(err)
	}
}

func TestReadSidecar(t *testing.T) {
	d := strings.Repeat("ab", 32)
	for _, ok := range []string{d + "  gates\n", d + " *gates.exe\n", d + "  gates"} {
		got, name, err := ReadSidecar("s", []byte(ok))
		if err != nil || got != d || !strings.HasPrefix(name, "gates") {
			t.Errorf("ReadSidecar(%q) = %q %q %v", ok, got, name, err)
		}
	}
	for _, bad := range []string{"", d, d + "  dir/gates\n", strings.ToUpper(d) + "  gates\n", d[:63] + "  gates\n", d + "  a\n" + d + "  b\n"} {
		if _, _, err := ReadSidecar("s", []byte(bad)); err == nil {
			t.Errorf("ReadSidecar(%q) accepted", bad)
		}
	}
	if SidecarLine(d, "gates") != d+"  gates\n" {
		t.Fatal("SidecarLine is not sha256sum's form")
	}
}

func TestSelectArtifact(t *testing.T) {
	dir := t.TempDir()
	body := []byte("binary")
	os.WriteFile(filepath.Join(dir, "gates"), body, 0o755)
	if _, _, err := SelectArtifact(dir); err == nil {
		t.Fatal("an artifact without a sidecar was accepted")
	}
	os.WriteFile(filepath.Join(dir, "gates.sha256"), []byte(SidecarLine(Digest(body), "gates")), 0o644)
	if name, d, err := SelectArtifact(dir); err != nil || name != "gates" || d != Digest(body) {
		t.Fatalf("got %q %q %v", name, d, err)
	}
	os.WriteFile(filepath.Join(dir, "gates.sha256"), []byte(SidecarLine(Digest([]byte("other")), "gates")), 0o644)
	if _, _, err := SelectArtifact(dir); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("a mismatched digest: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "gates.sha256"), []byte(SidecarLine(Digest(body), "other")), 0o644)
	if _, _, err := SelectArtifact(dir); err == nil {
		t.Fatal("a sidecar naming another file was accepted")
	}
	os.WriteFile(filepath.Join(dir, "extra"), body, 0o644)
	if _, _, err := SelectArtifact(dir); err == nil || !strings.Contains(err.Error(), "2 artifacts") {
		t.Fatalf("two artifacts: %v", err)
	}
	if _, _, err := SelectArtifact(filepath.Join(dir, "absent")); err == nil {
		t.Fatal("an absent directory was accepted")
	}
}

func TestLockRoundTripAndRefusals(t *testing.T) {
	l := &Lock{Version: LockVersion, Kit: "gate-sdk", KitRoot: "gate-sdk", Registered: []string{"b", "a"},
		Files:    []LockFile{{Path: "z", SHA256: strings.Repeat("0", 64), Class: classSeed}, {Path: "a/b", SHA256: strings.Repeat("1", 64), Class: classKit}},
		Appended: []LockAppend{{Path: ".gitignore", Suffix: "/bin/gates\n", Created: true}}, Dirs: []string{"a"}}
	enc := l.Encode()
	back, err := ParseLock("l", enc)
	if err != nil {
		t.Fatal(err)
	}
	if string(back.Encode()) != string(enc) {
		t.Fatal("a lock does not round-trip")
	}
	if back.Files[0].Path != "a/b" || back.Registered[0] != "a" {
		t.Fatal("the encoding is not sorted")
	}
	for name, bad := range map[string]string{
		"not json":      "{",
		"version":       `{"lock": 2}`,
		"unknown field": `{"lock": 1, "extra": true}`,
		"short digest":  `{"lock": 1, "files": [{"path": "a", "sha256": "ab"}]}`,
		"outside path":  `{"lock": 1, "files": [{"path": "../a", "sha256": "` + strings.Repeat("0", 64) + `"}]}`,
		"git dir":       `{"lock": 1, "dirs": [".git/hooks"]}`,
		"empty append":  `{"lock": 1, "appended": [{"path": ".gitignore", "suffix": ""}]}`,
	} {
		if _, err := ParseLock("l", []byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestRepoPath(t *testing.T) {
	for _, ok := range []string{"gate-sdk", "tools/gate-sdk/", "bin/gates.exe", "a\\b"} {
		if _, err := repoPath("K", ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "../x", "/abs", ".git", ".git/x", "C:/x", "a/../.."} {
		if _, err := repoPath("K", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestWithheld(t *testing.T) {
	m := []string{"SPEC.md", "smoke/"}
	for p, want := range map[string]bool{"SPEC.md": true, "smoke/install.sh": true, "smoke": true, "smokeless.md": false, "checks/SPEC.md": false, "bin/x": false} {
		if Withheld(p, m) != want {
			t.Errorf("Withheld(%q) = %v", p, !want)
		}
	}
	if Withheld("SPEC.md", nil) {
		t.Fatal("an empty withheld set withheld something")
	}
}

func TestFillWorkflow(t *testing.T) {
	tpl := []byte("branches: [main] # fill-in\nbranches: [main] # fill-in\n  GATE_SDK_KIT: gate-sdk # fill-in\n  GATES_PAYLOAD: \"\" # fill-in\n  GATES_PAYLOAD_SHA256: \"\" # fill-in\n")
	sum := strings.Repeat("a", 64)
	got := string(FillWorkflow(tpl, "tools/gate-sdk", "trunk", "https://example.invalid/p.tar.gz", sum))
	for _, want := range []string{"GATE_SDK_KIT: tools/gate-sdk #", `GATES_PAYLOAD: "https://example.invalid/p.tar.gz" #`, `GATES_PAYLOAD_SHA256: "` + sum + `" #`} {
		if !strings.Contains(got, want) {
			t.Errorf("filled template lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "[trunk]") != 2 {
		t.Errorf("both branch fill-ins not filled:\n%s", got)
	}
	// A branch or URL that would break the YAML keeps the shipped value.
	got = string(FillWorkflow(tpl, "gate-sdk", "a b", "x\" y", "nothex"))
	if strings.Count(got, "[main]") != 2 || !strings.Contains(got, `GATES_PAYLOAD: "" #`) || !strings.Contains(got, `GATES_PAYLOAD_SHA256: "" #`) {
		t.Errorf("unsafe fill-ins were written:\n%s", got)
	}
}

// decide's table: each file class against disk and lock.
func TestDecide(t *testing.T) {
	top := t.TempDir()
	write := func(rel, body string) {
		os.MkdirAll(filepath.Dir(filepath.Join(top, rel)), 0o755)
		os.WriteFile(filepath.Join(top, rel), []byte(body), 0o644)
	}
	write("kit/same", "new")
	write("kit/upgrade", "old")
	write("kit/edited", "mine")
	write("kit/foreign", "theirs")
	write("seed/edited", "mine")
	write("seed/foreign", "theirs")
	write("late", "theirs")
	lock := &Lock{Files: []LockFile{
		{Path: "kit/upgrade", SHA256: Digest([]byte("old"))},
		{Path: "kit/edited", SHA256: Digest([]byte("new"))},
		{Path: "seed/edited", SHA256: Digest([]byte("seeded"))},
		{Path: "seed/gone", SHA256: Digest([]byte("seeded"))},
	}}
	p := &Plan{}
	for _, f := range []string{"kit/same", "kit/upgrade", "kit/edited", "kit/foreign", "kit/absent"} {
		p.Add(f, []byte("new"), false, false)
	}
	for _, f := range []string{"seed/edited", "seed/foreign", "seed/gone"} {
		p.Add(f, []byte("seeded"), false, true)
	}
	p.files = append(p.files, planned{path: "late", class: classSeed, late: true})
	steps, err := decide(top, p, lock)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"kit/same": "present", "kit/upgrade": "update", "kit/edited": "keep-edited", "kit/foreign": "conflict",
		"kit/absent": "create", "seed/edited": "keep-edited", "seed/foreign": "conflict", "seed/gone": "keep", "late": "conflict"}
	for _, s := range steps {
		if want[s.path] != s.verb {
			t.Errorf("%s: %s, want %s", s.path, s.verb, want[s.path])
		}
	}
}

func FuzzParseTargets(f *testing.F) {
	f.Add([]byte("linux/amd64\n# c\nwindows/arm64\n"))
	f.Add([]byte("x/y\nx/y\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := ParseTargets("t", data)
		if err != nil {
			return
		}
		for _, x := range ts {
			if !targetWord(x.OS) || !targetWord(x.Arch) {
				t.Fatalf("accepted %q", x)
			}
		}
		ParseRunners("r", data, ts)
	})
}

func FuzzReadSidecar(f *testing.F) {
	f.Add([]byte(strings.Repeat("0", 64) + "  gates\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, n, err := ReadSidecar("s", data)
		if err == nil && (len(d) != 64 || n == "" || strings.ContainsAny(n, "/\\")) {
			t.Fatalf("accepted %q as %q %q", data, d, n)
		}
	})
}

func FuzzParseLock(f *testing.F) {
	f.Add([]byte(`{"lock": 1, "files": [{"path": "a", "sha256": "` + strings.Repeat("0", 64) + `", "class": "kit"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLock("l", data)
		if err != nil {
			return
		}
		if _, err := ParseLock("l", l.Encode()); err != nil {
			t.Fatalf("a parsed lock does not re-parse: %v", err)
		}
	})
}

// Every gate the adoption rules name is one the kit ships, so a renamed
// gate cannot silently drop out of its rule.
func TestAdoptionRulesNameShippedGates(t *testing.T) {
	files, err := kits.Tree(kits.Core)
	if err != nil {
		t.Fatal(err)
	}
	shipped := map[string]bool{}
	for _, f := range files {
		if strings.HasPrefix(f.Path, "checks/") && strings.HasSuffix(f.Path, ".gate") {
			shipped[strings.TrimSuffix(strings.TrimPrefix(f.Path, "checks/"), ".gate")] = true
		}
	}
	for g := range adoptionRule {
		if !shipped[g] {
			t.Errorf("adoptionRule names %s, which the kit does not ship", g)
		}
	}
}

// pageGates judge a page of the consumer's own that renders every
// registered gate, the vendored kit's included: they wait for gates of
// the repository's own, but judge the whole registry.
var pageGates = map[string]bool{"check-graph": true, "check-enforcement-fresh": true, "check-projection-roster": true}

// Every gate init holds back for a repository with gates of its own
// judges only those once registered: its rule is OwnOnly, so it skips
// the kit root init vendored (SPEC §gates init, L). A page gate is not.
func TestOwnGatesRulesSkipTheVendoredKit(t *testing.T) {
	for g, rule := range adoptionRule {
		if rule != needsOwnGates {
			continue
		}
		def, ok := gates.Find(g)
		if !ok {
			t.Errorf("%s: no compiled rule", g)
			continue
		}
		if def.OwnOnly == pageGates[g] {
			t.Errorf("%s: OwnOnly is %v; a gate judging gates skips the vendored kit, a page gate renders it", g, def.OwnOnly)
		}
	}
}

func TestPrintVerdictIsOneLine(t *testing.T) {
	for _, tc := range []struct {
		v    Verdict
		want string
	}{
		{Verdict{Gate: "check-a", Registered: true}, "init: check-a: registered\n"},
		{Verdict{Gate: "check-a", Registered: true, Accepted: 48, AcceptedIn: "scripts/gates.baseline"}, "init: check-a: registered with 48 accepted findings (scripts/gates.baseline)\n"},
		{Verdict{Gate: "check-a", Why: "4 of 100 recent subjects would pass; to adopt: x"}, "init: check-a: not adopted: 4 of 100 recent subjects would pass; to adopt: x\n"},
	} {
		var b strings.Builder
		PrintVerdict(&b, tc.v)
		if b.String() != tc.want {
			t.Errorf("PrintVerdict(%+v) = %q, want %q", tc.v, b.String(), tc.want)
		}
	}
}

func TestShapeOfReadsOwnGatesAndKits(t *testing.T) {
	s := shapeOf([]string{"gate-sdk/checks/check-a.gate", "scripts/check-b.sh", "scripts/gates.list", "kits/mine/checks/check-c.gate", "docs/check-d.sh"}, "scripts", "gate-sdk")
	if len(s.ownGates) != 1 || s.ownGates[0] != "scripts/check-b.sh" {
		t.Errorf("own gates: %v", s.ownGates)
	}
	if len(s.kits) != 1 || s.kits[0] != "kits/mine" {
		t.Errorf("kits: %v", s.kits)
	}
	if why := (repoShape{}).considered("check-gate-output", "scripts"); why == "" {
		t.Error("check-gate-output considered for a repository with no gates of its own")
	}
	if why := s.considered("check-gate-output", "scripts"); why != "" {
		t.Errorf("check-gate-output left out with a gate of its own: %s", why)
	}
}

// The project's own name is spared as a home directory: the top's name and
// the Go module's last element, less a major-version suffix, dots escaped.
func TestProjectSpares(t *testing.T) {
	top := filepath.Join(t.TempDir(), "yq.tool")
	if err := os.MkdirAll(top, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "go.mod"), []byte("// c\nmodule github.com/mikefarah/yq/v4\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := string(projectSpares(filepath.ToSlash(top), nil))
	if !strings.Contains(got, "!^[^A-Za-z0-9._-]?/(home|Users)/(yq|yq\\.tool)/$\n") {
		t.Fatalf("projectSpares = %q", got)
	}
	// The shipped ban takes the character before the path into its match
	// (a web path is no home), so the spare must pass over it too.
	tmpl, err := os.ReadFile(filepath.Join("..", "..", "templates", "msg-patterns.list"))
	if err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(t.TempDir(), "p.list")
	if err := os.WriteFile(list, append(tmpl, got...), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := patterns.Load(os.ReadFile, []patterns.Source{{Path: list, Origin: patterns.FromArgument, Required: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"WORKDIR /" + "home/yq/src", "-v x:/" + "home/yq/out", "/" + "Users/yq.tool/x"} {
		if i := set.First(l); i >= 0 {
			t.Errorf("the seeded list refuses %q (pattern %s)", l, set.Patterns[i].Text)
		}
	}
	if set.First("cd /"+"home/mart/yq") < 0 {
		t.Error("the seeded list spares another account")
	}
	if got := projectSpares("/", nil); got != nil {
		t.Fatalf("a top with no plain name spared %q", got)
	}
}
