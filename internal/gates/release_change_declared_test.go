package gates

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

const releaseKit = "kits/gate-sdk"

// releaseKnobs are the knobs both release gates read, at their defaults.
func releaseKnobs() gatetest.Knobs {
	return gatetest.Knobs{
		"GATE_SDK_WORKFLOW_DIR": ".workflow",
		"GATE_SDK_RELEASE_SECTIONS": strings.Join([]string{"brief: In brief", "gates: New and tightened gates", "knobs: Knob changes",
			"authoring: Gate-authoring changes", "platforms: Platforms", "behavior: Behavior changes"}, "\t"),
		"GATE_SDK_RELEASE_SECTION_ALIASES": "gates: Tightened gates\tknobs: Renamed knobs",
		"GATE_SDK_NATIVE_PUBLISH_WORKFLOW": ".github/workflows/publish.yml",
		"GATE_SDK_NATIVE_TARGETS_FILE":     "targets.list",
	}
}

// runRelease runs a release gate in dir with the given kit roots.
func runRelease(rule gate.Rule, name, dir string, kits []string, knobs gatetest.Knobs, args ...string) gatetest.Run {
	var out, errb bytes.Buffer
	c := &gate.Context{Name: name, Args: args, Dir: dir, GatesDir: "scripts", KitRoots: kits,
		Env: func(string) (string, bool) { return "", false }, Knobs: knobs, Tree: &gatetest.Tree{}, Out: &out, Err: &errb}
	code := rule(c)
	return gatetest.Run{Code: code, Stdout: out.String(), Stderr: errb.String(), Ctx: c}
}

func changeRun(dir string, args ...string) gatetest.Run {
	return runRelease(checkReleaseChangeDeclared, "check-release-change-declared", dir, []string{releaseKit}, releaseKnobs(), args...)
}

const surfaceHead = "# contract: kits/gate-sdk/SPEC.md §--upgrade-smoke\nWhat the next release declares.\n"

const seedPatterns = "# Banned shapes.\n\n# Homes.\n/(home|Users)/x/\nfixme-marker\n"

// releaseRepo is a repository holding a kit with a bin/ tool and a claimed
// template, the surface, committed and tagged v1.0.0.
func releaseRepo(t *testing.T) string {
	t.Helper()
	dir := scratchRepo(t, map[string]string{
		releaseKit + "/bin/old-tool.sh":             "#!/bin/sh\n",
		releaseKit + "/bin/keep.sh":                 "#!/bin/sh\n",
		releaseKit + "/templates/msg-patterns.list": seedPatterns,
		releaseKit + "/templates/adopt.md":          "# Adopt\n\nprose\n",
		".workflow/release-declarations.md":         surfaceHead,
	}, nil)
	commit(t, dir, "base")
	git(t, dir, "tag", "v1.0.0")
	return dir
}

func commit(t *testing.T, dir, msg string) {
	t.Helper()
	git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", msg)
}

func wantRun(t *testing.T, r gatetest.Run, code int, out ...string) {
	t.Helper()
	if r.Code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.Code, code, r.Stdout, r.Stderr)
	}
	for _, o := range out {
		if !strings.Contains(r.Stdout+r.Stderr, o) {
			t.Fatalf("output lacks %q\nstdout: %s\nstderr: %s", o, r.Stdout, r.Stderr)
		}
	}
}

// TestReleaseChangeDormant: no commit, no tag, or a tag HEAD cannot reach,
// and a tag outside v*, are each dormant and say nothing was checked.
func TestReleaseChangeDormant(t *testing.T) {
	unborn := scratchRepo(t, map[string]string{".workflow/release-declarations.md": surfaceHead}, nil)
	wantRun(t, changeRun(unborn), 0, "RELEASE-CHANGE-DECLARED: clean (dormant:", "nothing was checked")

	untagged := scratchRepo(t, map[string]string{releaseKit + "/bin/a.sh": "x\n"}, nil)
	commit(t, untagged, "one")
	git(t, untagged, "tag", "release-1")
	git(t, untagged, "rm", "-q", releaseKit+"/bin/a.sh")
	r := changeRun(untagged)
	wantRun(t, r, 0, "dormant")
	if strings.Contains(r.Stdout, "checked,") || strings.Contains(r.Stdout, " checked ") {
		t.Fatalf("a dormant run must not report checking: %q", r.Stdout)
	}

	// A v* tag on a side branch HEAD does not contain is no base.
	side := releaseRepo(t)
	git(t, side, "checkout", "-q", "--orphan", "other")
	git(t, side, "rm", "-rq", "--cached", ".")
	commit(t, side, "unrelated root")
	wantRun(t, changeRun(side), 0, "dormant")
}

// TestReleaseChangeRemovedTool: a staged delete reds at its own pre-commit;
// a staged declaration clears it; a worktree-only declaration does not.
func TestReleaseChangeRemovedTool(t *testing.T) {
	dir := releaseRepo(t)
	git(t, dir, "rm", "-q", releaseKit+"/bin/old-tool.sh")
	wantRun(t, changeRun(dir), 1, releaseKit+"/bin/old-tool.sh: a kit tool removed since v1.0.0 (class R)", "help: add a top-level bullet")

	// Declared in the worktree only: the index still lacks it.
	surface := filepath.Join(dir, ".workflow", "release-declarations.md")
	decl := surfaceHead + "\n## Behavior changes\n\n- **" + releaseKit + "/bin/old-tool.sh** is gone; run `gates --run`.\n"
	writeFiles(t, dir, map[string]string{".workflow/release-declarations.md": decl})
	wantRun(t, changeRun(dir), 1, "class R")
	// Named as an operand, the surface is read as the file it is.
	wantRun(t, changeRun(dir, ".workflow/release-declarations.md"), 0, "1 kit tools removed")
	git(t, dir, "add", surface)
	wantRun(t, changeRun(dir), 0, "base v1.0.0:", "1 kit tools removed")

	// The same, committed: the index equals HEAD and the reading agrees.
	commit(t, dir, "remove the tool")
	wantRun(t, changeRun(dir), 0, "1 kit tools removed")
}

// TestReleaseChangeRename: a rename reads as its old path deleted.
func TestReleaseChangeRename(t *testing.T) {
	dir := releaseRepo(t)
	git(t, dir, "mv", releaseKit+"/bin/old-tool.sh", releaseKit+"/bin/new-tool.sh")
	r := changeRun(dir)
	wantRun(t, r, 1, releaseKit+"/bin/old-tool.sh: a kit tool removed")
	if strings.Contains(r.Stdout, "new-tool") {
		t.Fatalf("the new path is an add, not a removal: %q", r.Stdout)
	}
}

// TestReleaseChangeTemplate: comment and order edits are not class T, a
// data line is; a template init does not claim is outside the class.
func TestReleaseChangeTemplate(t *testing.T) {
	dir := releaseRepo(t)
	tpl := releaseKit + "/templates/msg-patterns.list"
	writeFiles(t, dir, map[string]string{
		tpl:                                "# Reworded.\nfixme-marker\n\n# Homes, moved.\n/(home|Users)/x/   \n",
		releaseKit + "/templates/adopt.md": "# Adopt\n\nnew prose\n",
	})
	git(t, dir, "add", "-A")
	wantRun(t, changeRun(dir), 0, "0 claimed templates changed")

	writeFiles(t, dir, map[string]string{tpl: seedPatterns + "todo-marker\n"})
	git(t, dir, "add", "-A")
	wantRun(t, changeRun(dir), 1, tpl+": a template init claims whose data lines changed since v1.0.0 (class T)", "the both-sections rule")

	// Declared by directory and basename together.
	writeFiles(t, dir, map[string]string{".workflow/release-declarations.md": surfaceHead +
		"\n## Gate-authoring changes\n\n- **Templates**: " + releaseKit + "/templates/ now bans a\n  second marker in msg-patterns.list.\n"})
	git(t, dir, "add", "-A")
	wantRun(t, changeRun(dir), 0, "1 claimed templates changed")
}

// TestReleaseChangeRefusals: every exit-2 path.
func TestReleaseChangeRefusals(t *testing.T) {
	dir := releaseRepo(t)
	git(t, dir, "rm", "-q", "--cached", ".workflow/release-declarations.md")
	wantRun(t, changeRun(dir), 2, "is not in the index")

	dir = releaseRepo(t)
	writeFiles(t, dir, map[string]string{".workflow/release-declarations.md": "no header\n"})
	git(t, dir, "add", "-A")
	wantRun(t, changeRun(dir), 2, "lacks its `# contract:` header")

	r := runRelease(checkReleaseChangeDeclared, "check-release-change-declared", releaseRepo(t), nil, releaseKnobs())
	wantRun(t, r, 2, "no kit root resolves")

	wantRun(t, changeRun(nonRepoDir(t)), 2, "not inside a git repository")
	wantRun(t, changeRun(dir, "a", "b"), 2, "usage:")

	// A failed git call: a corrupt index cannot be diffed.
	broken := releaseRepo(t)
	if err := os.WriteFile(filepath.Join(broken, ".git", "index"), []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantRun(t, changeRun(broken), 2, "git diff --cached --no-renames")
}

// TestReleaseChangeDump: the argument mode's readings and refusals.
func TestReleaseChangeDump(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"surface.md":   surfaceHead,
		"base/.keep":   "",
		"dormant.txt":  "base -\n",
		"changes.txt":  "base v3.1.0\nD\tkits/gate-sdk/bin/x\n",
		"rename.txt":   "base v3.1.0\nR100\ta\tb\n",
		"nobase.txt":   "D\tkits/gate-sdk/bin/x\n",
		"dormant2.txt": "base -\nD\tkits/gate-sdk/bin/x\n",
	})
	wantRun(t, changeRun(dir, "surface.md", "dormant.txt", "base"), 0, "dormant")
	wantRun(t, changeRun(dir, "surface.md", "changes.txt", "base"), 1, "kits/gate-sdk/bin/x: a kit tool removed since v3.1.0")
	wantRun(t, changeRun(dir, "surface.md", "rename.txt", "base"), 2, "rename.txt:2:")
	wantRun(t, changeRun(dir, "surface.md", "nobase.txt", "base"), 2, "nobase.txt:1:")
	wantRun(t, changeRun(dir, "surface.md", "dormant2.txt", "base"), 2, "carries no change records")
	wantRun(t, changeRun(dir, "surface.md", "changes.txt", "nowhere"), 2, "base-dir nowhere is not a directory")
	wantRun(t, changeRun(dir, "absent.md", "changes.txt", "base"), 2, "absent.md does not exist")
}

// TestReleaseChangeSpellings: equivalent spellings get one verdict — CRLF
// and LF templates, '-' and '*' bullets, a path on one line or wrapped
// onto a continuation line, a section under its heading in any case.
func TestReleaseChangeSpellings(t *testing.T) {
	if !sameMultiset(dataLines([]byte("a\r\n# c\r\n\r\nb\r\n")), dataLines([]byte("b\na\n"))) {
		t.Error("CRLF, comments and order changed the data multiset")
	}
	if sameMultiset(dataLines([]byte("a\na\n")), dataLines([]byte("a\n"))) {
		t.Error("a duplicated data line is a change (multiset, not set)")
	}
	p := "kits/gate-sdk/bin/tool.sh"
	heads := []string{"Behavior changes"}
	for _, doc := range []string{
		"## Behavior changes\n- **" + p + "** removed\n",
		"## Behavior changes\n* **" + p + "** removed\n",
		"## behavior changes\n- **Tools**: removed\n  " + p + ", see the runner\n",
		"## Behavior changes\n- **Tools** kits/gate-sdk/bin/ lost tool.sh\n",
		"## Behavior changes\n- **Gone**: " + p + ".\n",
	} {
		ok := false
		for _, b := range surfaceBullets(doc, heads) {
			ok = ok || declares(b, p)
		}
		if !ok {
			t.Errorf("not declared by %q", doc)
		}
	}
	for _, doc := range []string{
		"## Behavior changes\n- **Tools**\n  - " + p + " nested\n",
		"## Behavior changes\n- **" + p + ".bak** removed\n",
		"## Behavior changes\n- **x" + p + "** removed\n",
		"## Other\n- **" + p + "**\n",
		"## Behavior changes\n\n" + p + " in prose, no bullet\n",
	} {
		for _, b := range surfaceBullets(doc, heads) {
			if declares(b, p) {
				t.Errorf("declared by %q (bullet %q)", doc, b)
			}
		}
	}
}

func TestParseNameStatusZ(t *testing.T) {
	recs, err := parseNameStatusZ([]byte("D\x00a b\x00M\x00c\nd\x00"))
	if err != nil || !reflect.DeepEqual(recs, []changeRec{{'D', "a b"}, {'M', "c\nd"}}) {
		t.Fatalf("%+v %v", recs, err)
	}
	if _, err := parseNameStatusZ([]byte("D\x00")); err == nil {
		t.Error("an odd record count must refuse")
	}
	if recs, err := parseNameStatusZ(nil); err != nil || recs != nil {
		t.Error("no change is no record")
	}
}

func FuzzParseChangeDump(f *testing.F) {
	f.Add("base v1\nD\tkits/gate-sdk/bin/x\nM\tkits/gate-sdk/templates/a\n")
	f.Add("base -\n")
	f.Add("base v1\r\nR100\ta\tb\n")
	f.Fuzz(func(t *testing.T, s string) {
		base, recs, err := parseChangeDump("dump", []byte(s))
		if err != nil {
			return
		}
		if base == "" && len(recs) > 0 {
			t.Fatal("a dormant reading carries records")
		}
		for _, r := range recs {
			if !strings.ContainsRune("ADMT", rune(r.status)) || r.path == "" || strings.ContainsAny(r.path, "\t") {
				t.Fatalf("bad record %+v", r)
			}
		}
	})
}

func FuzzSurfaceDeclares(f *testing.F) {
	f.Add("## Behavior changes\n- **a/b/c** x\n  more\n  - nested a/b/c\n", "a/b/c")
	f.Add("## Gate-authoring changes\n* a/b/ and c\n", "a/b/c")
	f.Fuzz(func(t *testing.T, doc, p string) {
		for _, b := range surfaceBullets(doc, []string{"Behavior changes", "Gate-authoring changes"}) {
			if !strings.HasPrefix(b, "- ") && !strings.HasPrefix(b, "* ") {
				t.Fatalf("a bullet text not led by its marker: %q", b)
			}
			if declares(b, p) && p != "" && !strings.Contains(b, p) && !strings.Contains(b, pathBase(p)) {
				t.Fatalf("%q declared by %q without naming it", p, b)
			}
		}
	})
}

func pathBase(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// TestClaimedTemplatesAreInitsReads: the claimed set is the kit's own
// seed list under the core kit root only; in this tree, where
// GATE_SDK_KIT_TEMPLATES_DIR relocates them, each is present at its
// top-level templates/.
func TestClaimedTemplatesAreInitsReads(t *testing.T) {
	seeds := []string{"msg-patterns.list", "gates-workflow.yml", "claude-settings.json"}
	for _, tc := range []struct{ over, dir string }{{"", "kits/gate-sdk/templates"}, {"templates/", "templates"}} {
		c := &gate.Context{KitRoots: []string{"kits/gate-sdk/", "other-kit"}, Knobs: gatetest.Knobs{"GATE_SDK_KIT_TEMPLATES_DIR": tc.over}}
		got, err := claimedTemplates(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range seeds {
			want := tc.dir + "/" + s
			if !got[want] {
				t.Errorf("knob %q: claimed set lacks %s: %v", tc.over, want, got)
			}
			if tc.over == "" {
				continue
			}
			if _, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(want))); err != nil {
				t.Errorf("claimed template %s is not in the tree: %v", want, err)
			}
		}
		if len(got) != 3 {
			t.Errorf("claimed set %v", got)
		}
	}
}

// TestReleaseChangeRootSpellings: a kit root and the workflow dir spelled
// with a leading ./ or a trailing / read the same verdict.
func TestReleaseChangeRootSpellings(t *testing.T) {
	dir := releaseRepo(t)
	git(t, dir, "rm", "-q", releaseKit+"/bin/old-tool.sh")
	tpl := releaseKit + "/templates/msg-patterns.list"
	writeFiles(t, dir, map[string]string{tpl: seedPatterns + "todo-marker\n"})
	git(t, dir, "add", "-A")
	var first string
	for _, sp := range []struct{ root, wf string }{{releaseKit, ".workflow"}, {"./" + releaseKit + "/", "./.workflow/"}, {releaseKit + "/", ".workflow/"}} {
		k := releaseKnobs()
		k["GATE_SDK_WORKFLOW_DIR"] = sp.wf
		r := runRelease(checkReleaseChangeDeclared, "check-release-change-declared", dir, []string{sp.root}, k)
		wantRun(t, r, 1, "class R", "class T")
		if first == "" {
			first = r.Stdout
		} else if r.Stdout != first {
			t.Errorf("%+v read\n%s\nnot\n%s", sp, r.Stdout, first)
		}
	}
}
