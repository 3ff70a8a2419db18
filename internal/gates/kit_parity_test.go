package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// writeTree writes files (path -> body) under a fresh directory and
// answers it with a tree listing every file as tracked, less untracked.
func writeTree(t *testing.T, files map[string]string, untracked ...string) (string, *gatetest.Tree) {
	t.Helper()
	dir := t.TempDir()
	tree := &gatetest.Tree{Data: map[string]string{}}
	skip := map[string]bool{}
	for _, u := range untracked {
		skip[u] = true
	}
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if !skip[p] {
			tree.Data[p] = body
		}
	}
	return dir, tree
}

// --- check-packed-links ---

func packedLinks(t *testing.T, readme string, knobs gatetest.Knobs) gatetest.Run {
	t.Helper()
	dir, tree := writeTree(t, map[string]string{"kit/README.md": readme, "other/checks/x.gate": "#\n"})
	if knobs == nil {
		knobs = gatetest.Knobs{"GATE_SDK_PAYLOAD_WITHHOLD": "SPEC.md smoke"}
	}
	return execWithKits(checkPackedLinks, "check-packed-links", dir, tree, knobs, []string{"kit", "other"}, []string{"."})
}

// The same target, however the README spells the link, gets one verdict.
func TestPackedLinksSpellingsAgree(t *testing.T) {
	red := []string{
		"[a](smoke/install.sh)",
		"[a](<smoke/install.sh>)",
		`[a](smoke/install.sh "title")`,
		"[a](smoke/install.sh#top)",
		"[a](smoke%2Finstall.sh)",
		"[a](./smoke/../smoke/install.sh)",
		"[a][r]\n\n[r]: smoke/install.sh\n",
		"[R]: <smoke/install.sh> 'title'\n",
		"![img](smoke/)",
		"[a](../kit/smoke)",
		"[a](../other/SPEC.md \"titled, so not rewritten\")",
	}
	for _, doc := range red {
		if run := packedLinks(t, doc, nil); run.Code != 1 || !strings.Contains(run.Stdout, "withheld by GATE_SDK_PAYLOAD_WITHHOLD") {
			t.Errorf("%q: exit %d\n%s%s", doc, run.Code, run.Stdout, run.Stderr)
		}
	}
	green := []string{
		"[a](SPEC.md)",
		"[a](<SPEC.md#the-rules>)",
		"[a][r]\n\n[r]: ../other/SPEC.md\n",
		"[a](SPEC%2Emd)",
		"[a](https://example.invalid/kit/smoke/install.sh)",
		"[a](/smoke/install.sh)",
		"[a](#smoke)",
		"[a](../../smoke/install.sh)",
		"[a](checks/smoke.md)",
		"`[a](smoke/install.sh)`",
		"```\n[a](smoke/install.sh)\n```\n",
		"[a](../unpacked/smoke/x.sh)",
	}
	for _, doc := range green {
		if run := packedLinks(t, doc, nil); run.Code != 0 {
			t.Errorf("%q: exit %d\n%s%s", doc, run.Code, run.Stdout, run.Stderr)
		}
	}
}

func TestPackedLinksConfiguredBaseAndCounts(t *testing.T) {
	run := packedLinks(t, "[s](SPEC.md) [c](checks/x.gate)", gatetest.Knobs{"GATE_SDK_PAYLOAD_WITHHOLD": "SPEC.md", "GATE_SDK_SPEC_BASE_URL": "https://docs.invalid/v1/"})
	if run.Code != 0 || !strings.Contains(run.Stdout, "1 packed READMEs across 2 kit roots, 1 payload links resolved") || !strings.Contains(run.Stdout, "1 without a packed README") {
		t.Fatalf("exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	if strings.Contains(run.Stdout, packedLinksProbeBase) {
		t.Fatal("the probe base reached the output")
	}
	// A withheld README is not packed, so it is skipped, not judged.
	run = packedLinks(t, "[a](smoke/x)", gatetest.Knobs{"GATE_SDK_PAYLOAD_WITHHOLD": "README.md smoke"})
	if run.Code != 0 || !strings.Contains(run.Stdout, "2 without a packed README") {
		t.Fatalf("withheld README: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

func TestPackedLinksRefuses(t *testing.T) {
	cases := map[string]struct {
		readme string
		knobs  gatetest.Knobs
		want   string
	}{
		"empty withhold":   {"[a](x)", gatetest.Knobs{"GATE_SDK_PAYLOAD_WITHHOLD": "  "}, "withholds nothing"},
		"open destination": {"ok\n[a](smoke/x.sh", nil, "kit/README.md:2:"},
		"undefined label":  {"[a][nowhere]\n", nil, "kit/README.md:1:"},
		"open fence":       {"x\n```\n[a](smoke/x)\n", nil, "kit/README.md:2:"},
		"bad escape":       {"[a](smoke%zz)", nil, "kit/README.md:1:"},
		"not utf-8":        {"a\n\xff", nil, "kit/README.md:2:"},
	}
	for name, tc := range cases {
		run := packedLinks(t, tc.readme, tc.knobs)
		if run.Code != 2 || !strings.Contains(run.Stderr, tc.want) || run.Stdout != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 naming %q", name, run.Code, run.Stdout, run.Stderr, tc.want)
		}
	}
	dir, tree := writeTree(t, map[string]string{"kit/README.md": "x"})
	if run := execWithKits(checkPackedLinks, "check-packed-links", dir, tree, gatetest.Knobs{"GATE_SDK_PAYLOAD_WITHHOLD": "smoke"}, nil, []string{"."}); run.Code != 2 {
		t.Errorf("no kit root: exit %d", run.Code)
	}
	// A README that exists but cannot be read (a directory) refuses.
	os.Remove(filepath.Join(dir, "kit", "README.md"))
	if err := os.Mkdir(filepath.Join(dir, "kit", "README.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if run := execWithKits(checkPackedLinks, "check-packed-links", dir, tree, gatetest.Knobs{"GATE_SDK_PAYLOAD_WITHHOLD": "smoke"}, []string{"kit"}, []string{"."}); run.Code != 2 {
		t.Errorf("unreadable README: exit %d\n%s", run.Code, run.Stderr)
	}
}

// --- check-template-registry-parity ---

func registryRun(t *testing.T, files map[string]string, native map[string]map[string][]string, untracked ...string) gatetest.Run {
	t.Helper()
	dir, tree := writeTree(t, files, untracked...)
	rule := func(c *gate.Context) int { return templateRegistryParity(c, native) }
	return execWithKits(rule, "check-template-registry-parity", dir, tree, gatetest.Knobs{}, []string{"drift-kit"}, []string{"."})
}

func TestTemplateRegistryParity(t *testing.T) {
	files := map[string]string{
		"drift-kit/templates/kpis.list":       "kpi-a\n# c\n\nkpi-b\n",
		"drift-kit/kpis/kpi-a.sh":             "#\n",
		"drift-kit/kpis/kpi-c.sh":             "#\n",
		"drift-kit/kpis/kpi-d.sh":             "# untracked scratch\n",
		"drift-kit/kpis/nested/kpi-e.sh":      "#\n",
		"drift-kit/templates/notes.list":      "anything\n",
		"drift-kit/templates/price-table.tsv": "m\tp\n",
	}
	run := registryRun(t, files, nil, "drift-kit/kpis/kpi-d.sh")
	if run.Code != 1 || !strings.Contains(run.Stdout, "ships kpi-c for registry kpis") || !strings.Contains(run.Stdout, "kpis.list:4: template registers kpi-b") ||
		strings.Contains(run.Stdout, "kpi-d") || strings.Contains(run.Stdout, "kpi-e") || strings.Contains(run.Stdout, "anything") {
		t.Fatalf("exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// The native declaration widens the population: {x,y} against x, z.
	native := map[string]map[string][]string{"drift-kit": {"models": {"x", "y"}}}
	run = registryRun(t, map[string]string{"drift-kit/templates/models.list": "x\nz\n"}, native)
	if run.Code != 1 || !strings.Contains(run.Stdout, "ships y for registry models") || !strings.Contains(run.Stdout, "models.list:2: template registers z") {
		t.Fatalf("native: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	// A declaration with an empty roster reds every line through B.
	run = registryRun(t, map[string]string{"drift-kit/templates/models.list": "x\n"}, map[string]map[string][]string{"drift-kit": {"models": nil}})
	if run.Code != 1 || !strings.Contains(run.Stdout, "registers x") {
		t.Fatalf("empty native roster: exit %d\n%s", run.Code, run.Stdout)
	}
	// C: a declaration outliving its template.
	run = registryRun(t, map[string]string{"drift-kit/checks/x.gate": "#\n"}, native)
	if run.Code != 1 || !strings.Contains(run.Stdout, "drift-kit/templates/models.list: the binary dispatches kit drift-kit's registry models natively") {
		t.Fatalf("C: exit %d\n%s", run.Code, run.Stdout)
	}
	// A declaration for a kit outside the sweep asserts nothing.
	run = registryRun(t, map[string]string{"drift-kit/checks/x.gate": "#\n"}, map[string]map[string][]string{"other-kit": {"models": {"x"}}})
	if run.Code != 0 {
		t.Fatalf("foreign declaration: exit %d\n%s", run.Code, run.Stdout)
	}
	// Parity is clean, and counts.
	run = registryRun(t, map[string]string{"drift-kit/templates/kpis.list": "kpi-a\n", "drift-kit/kpis/kpi-a.sh": "#\n", "drift-kit/templates/n.list": "q\n"}, nil)
	if run.Code != 0 || !strings.Contains(run.Stdout, "1 registry templates in parity across 1 kit roots, 1 templates without") {
		t.Fatalf("parity: exit %d\n%s", run.Code, run.Stdout)
	}
	// Emptying the sibling directory reds every line.
	dir, tree := writeTree(t, map[string]string{"drift-kit/templates/kpis.list": "kpi-a\n"})
	if err := os.MkdirAll(filepath.Join(dir, "drift-kit", "kpis"), 0o755); err != nil {
		t.Fatal(err)
	}
	rule := func(c *gate.Context) int { return templateRegistryParity(c, nil) }
	if run := execWithKits(rule, "check-template-registry-parity", dir, tree, gatetest.Knobs{}, []string{"drift-kit"}, []string{"."}); run.Code != 1 {
		t.Fatalf("emptied sibling: exit %d\n%s", run.Code, run.Stdout)
	}
}

func TestTemplateRegistryParityRefuses(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"bad member line": {"k/templates/p.list": "a b\n", "k/p/a.sh": "#\n"},
		"path member":     {"k/templates/p.list": "dir/a\n", "k/p/a.sh": "#\n"},
	} {
		dir, tree := writeTree(t, files)
		run := execWithKits(checkTemplateRegistryParity, "check-template-registry-parity", dir, tree, gatetest.Knobs{}, []string{"k"}, []string{"."})
		if run.Code != 2 || !strings.Contains(run.Stderr, "p.list") {
			t.Errorf("%s: exit %d %s", name, run.Code, run.Stderr)
		}
	}
	dir, tree := writeTree(t, map[string]string{"k/templates/p.list": "a\n", "k/p/a.sh": "#\n"})
	if err := os.Chmod(filepath.Join(dir, "k", "templates", "p.list"), 0); err != nil {
		t.Fatal(err)
	}
	if f, err := os.Open(filepath.Join(dir, "k", "templates", "p.list")); err == nil {
		f.Close()
		t.Log("running as a user who reads mode-0 files; the unreadable template case is skipped")
	} else if run := execWithKits(checkTemplateRegistryParity, "check-template-registry-parity", dir, tree, gatetest.Knobs{}, []string{"k"}, []string{"."}); run.Code != 2 {
		t.Errorf("unreadable template: exit %d", run.Code)
	}
	if run := execWithKits(checkTemplateRegistryParity, "check-template-registry-parity", dir, tree, gatetest.Knobs{}, nil, []string{"."}); run.Code != 2 {
		t.Errorf("no kit root: exit %d", run.Code)
	}
}

// --- check-template-copy-parity ---

const copyTemplate = `#!/bin/sh
# spec: kit/SPEC.md §check-foo — the foo rule
LIMIT=${GATE_SDK_FOO_LIMIT:-10}
scan_one() { :; }
case "$f" in *.md) gate_fail "over" ;; esac
gate_clean ok
`

func copyRun(t *testing.T, tpl, cp string, extra map[string]string) gatetest.Run {
	t.Helper()
	files := map[string]string{"kit/templates/check-foo.sh": tpl, "scripts/check-foo.sh": cp}
	for k, v := range extra {
		files[k] = v
	}
	dir, tree := writeTree(t, files)
	return execWithKits(checkTemplateCopyParity, "check-template-copy-parity", dir, tree, gatetest.Knobs{}, []string{"kit"}, []string{"."})
}

func TestScanSurface(t *testing.T) {
	s := scanSurface([]byte(copyTemplate + `function other_fn {
	x=1; helper_one "$x" && helper_two || helper_three | pipe_four
	y=$(sub_call) ; local_var=3
	echo "${LOWER_ok:=1} ${NODASH} ${NOCOLON-x} $UNBRACED_X"
}
case $1 in
	(secret_pattern|other_secret)
		arm_action "$1"
		;;
	private_word) second_action ;;
esac
# commented_out_call
`))
	want := []string{"case:arm_action", "case:gate_fail", "case:second_action", "func:other_fn", "func:scan_one",
		"knob:GATE_SDK_FOO_LIMIT", "lib:arm_action", "lib:gate_clean", "lib:gate_fail", "lib:helper_one", "lib:helper_three",
		"lib:helper_two", "lib:other_secret", "lib:pipe_four", "lib:private_word", "lib:scan_one", "lib:second_action", "lib:sub_call"}
	if got := strings.Join(s.sortedTokens(), " "); got != strings.Join(want, " ") {
		t.Fatalf("surface\n got %s\nwant %s", got, strings.Join(want, " "))
	}
	if s.spec != "kit/SPEC.md §check-foo" || s.specLine != 2 {
		t.Fatalf("spec %q line %d", s.spec, s.specLine)
	}
	// The privacy seam: no arm pattern reaches the case: class (lib: is
	// lexical and sees a word in command position wherever it sits).
	for tok := range s.tokens {
		if strings.HasPrefix(tok, "case:") && (strings.Contains(tok, "secret") || strings.Contains(tok, "private")) {
			t.Fatalf("a case pattern reached the surface: %s", tok)
		}
	}
}

func TestTemplateCopyParity(t *testing.T) {
	if run := copyRun(t, copyTemplate, strings.Replace(copyTemplate, "the foo rule", "our gloss", 1)+"# a comment of our own\n", nil); run.Code != 0 {
		t.Fatalf("prose difference: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
	red := map[string]string{
		`target "kit/SPEC.md §check-bar"`:         strings.Replace(copyTemplate, "§check-foo", "§check-bar", 1),
		"declares no lib:gate_clean":              strings.Replace(copyTemplate, "gate_clean ok\n", "", 1),
		"declares no knob:GATE_SDK_FOO_LIMIT":     strings.Replace(copyTemplate, "${GATE_SDK_FOO_LIMIT:-10}", "10", 1),
		"adds lib:local_extra":                    copyTemplate + "local_extra\n",
		"adds case:gate_skip":                     strings.Replace(copyTemplate, "*.md)", "gen/*) gate_skip ;; *.md)", 1),
		"copy-divergence: line carries no reason": copyTemplate + "# copy-divergence:   \n",
		"declares no func:scan_one":               strings.Replace(copyTemplate, "scan_one() { :; }", "scan_two() { :; }", 1),
		"adds knob:OUR_KNOB":                      copyTemplate + "V=${OUR_KNOB:=1}\n# copy-divergence: something else entirely\n",
	}
	for want, cp := range red {
		if run := copyRun(t, copyTemplate, cp, nil); run.Code != 1 || !strings.Contains(run.Stdout, want) {
			t.Errorf("%s: exit %d\n%s%s", want, run.Code, run.Stdout, run.Stderr)
		}
	}
	for _, marker := range []string{"# copy-divergence: local_extra — our own screen", "# copy-divergence: lib:local_extra, added here"} {
		if run := copyRun(t, copyTemplate, copyTemplate+"local_extra\n"+marker+"\n", nil); run.Code != 0 {
			t.Errorf("%q: exit %d\n%s", marker, run.Code, run.Stdout)
		}
	}
	// A config pair is never compared; an unpaired template is skipped.
	run := copyRun(t, copyTemplate, copyTemplate, map[string]string{
		"kit/templates/kit-config.sh": "A=${KIT_A_B:-1}\n", "scripts/kit-config.sh": "totally_different\n",
		"kit/templates/check-alone.sh": copyTemplate,
	})
	if run.Code != 0 || !strings.Contains(run.Stdout, "1 template/copy pairs agree across 1 kit roots, 1 templates without a copy") {
		t.Fatalf("exclusions: exit %d\n%s%s", run.Code, run.Stdout, run.Stderr)
	}
}

func TestTemplateCopyParityRefuses(t *testing.T) {
	dir, tree := writeTree(t, map[string]string{"kit/templates/check-foo.sh": copyTemplate})
	if run := execWithKits(checkTemplateCopyParity, "check-template-copy-parity", dir, tree, gatetest.Knobs{}, nil, []string{"."}); run.Code != 2 {
		t.Errorf("no kit root: exit %d", run.Code)
	}
	// No operand outside a repository: git cannot answer the toplevel.
	var out, errb strings.Builder
	c := &gate.Context{Name: "check-template-copy-parity", Dir: dir, GatesDir: "scripts", KitRoots: []string{"kit"},
		SpawnEnv: []string{"GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir), "GIT_DIR=", "GIT_WORK_TREE="},
		Env:      func(string) (string, bool) { return "", false }, Knobs: gatetest.Knobs{}, Tree: tree, Out: &out, Err: &errb}
	if code := checkTemplateCopyParity(c); code != 2 || !strings.Contains(errb.String(), "not inside a git repository") || out.Len() != 0 {
		t.Errorf("outside a repository: exit %d %s", code, errb.String())
	}
	if run := execWithKits(checkTemplateCopyParity, "check-template-copy-parity", dir, tree, gatetest.Knobs{}, []string{"kit"}, []string{"a", "b"}); run.Code != 2 {
		t.Errorf("two operands: exit %d", run.Code)
	}
}

// With no operand the scan root is the repository, reached through the
// kit roots and gates dir the session spells relative to the run
// directory: a run from a subdirectory still finds the pair, where a
// cwd-anchored join would see no kit and pass vacuously.
func TestTemplateCopyParityFromSubdirectory(t *testing.T) {
	dir, tree := writeTree(t, map[string]string{
		"kit/templates/check-foo.sh": copyTemplate,
		"scripts/check-foo.sh":       copyTemplate + "local_extra\n",
		"sub/deeper/keep":            "",
	})
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	var out, errb strings.Builder
	c := &gate.Context{Name: "check-template-copy-parity", Dir: filepath.Join(dir, "sub", "deeper"), GatesDir: "../../scripts", KitRoots: []string{"../../kit"},
		Env: func(string) (string, bool) { return "", false }, Knobs: gatetest.Knobs{}, Tree: tree, Out: &out, Err: &errb}
	if code := checkTemplateCopyParity(c); code != 1 || !strings.Contains(out.String(), "adds lib:local_extra") {
		t.Fatalf("from a subdirectory: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// FuzzScanSurface holds the lexical shell scanner to never panicking and
// to answering only namespaced tokens.
func FuzzScanSurface(f *testing.F) {
	f.Add(copyTemplate)
	f.Add("case $x in\n(a|b)\n c_d ;;\nesac\n")
	f.Add("f() { case \"$1\" in *) g_h;; esac; }\n# copy-divergence:\n")
	f.Fuzz(func(t *testing.T, doc string) {
		s := scanSurface([]byte(doc))
		for tok := range s.tokens {
			class, name, ok := strings.Cut(tok, ":")
			if !ok || name == "" || !map[string]bool{"func": true, "case": true, "lib": true, "knob": true}[class] {
				t.Fatalf("token %q is not a namespaced surface token", tok)
			}
		}
	})
}
