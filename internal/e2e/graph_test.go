package e2e

import (
	"bytes"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/glob"
)

// A constructed mini-consumer for check-graph's whole-tree assertions: a
// registry of script and descriptor members in both spellings, one that
// resolves nowhere, and a vocabulary document.

// recordingGate is a shell member that notes it ran in $RAN_LOG.
func recordingGate(manifest string) string {
	return "#!/usr/bin/env bash\n# graph: " + manifest + "\n# spec: scripts/SPEC.md §x — x\n" +
		`[ -n "${RAN_LOG:-}" ] && echo "$(basename "$0" .sh)" >> "$RAN_LOG"` + "\necho \"X: clean (ran)\"\n"
}

func graphScratch(t *testing.T) *scratch {
	t.Helper()
	s := newScratch(t)
	desc, err := os.ReadFile(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks", "check-graph.gate"))
	if err != nil {
		t.Fatal(err)
	}
	s.write("scripts/check-graph.gate", string(desc), 0o644)
	s.write("scripts/check-core-files.gate", "# graph: couples=knob:GATE_SDK_CORE_FILES_FILE,README.md dir=one valve=none tier=precommit\n", 0o644)
	// The four coverage branches: trigger * (check-star), equality
	// (check-eq), a literal couple under a bash-pattern trigger
	// (check-pat), a *.<ext> trigger over a deeper pattern (check-ext).
	s.write("scripts/check-star.sh", recordingGate("couples=docs/*.md trigger=* dir=one valve=none tier=precommit"), 0o755)
	s.write("scripts/check-eq.sh", recordingGate("couples=src/a.c,docs/*.md dir=one valve=none tier=precommit"), 0o755)
	s.write("scripts/check-pat.sh", recordingGate("couples=src/lib/b.c trigger=src/* dir=bi valve=none tier=precommit"), 0o755)
	s.write("scripts/check-ext.sh", recordingGate("couples=docs/deep/*.md trigger=*.md dir=one valve=none tier=precommit"), 0o755)
	// The three cycle-valve branches: leading and lagging under PROPOSED,
	// leading only under either value, no leading under none.
	s.write("scripts/check-cycle.sh", recordingGate("couples=design/*.md,src/*.c dir=bi valve=PROPOSED tier=precommit"), 0o755)
	s.write("scripts/check-lead.sh", recordingGate("couples=design/*.md dir=bi valve=PROPOSED tier=precommit"), 0o755)
	s.write("scripts/check-lead2.sh", recordingGate("couples=design/*.md dir=bi valve=none tier=precommit"), 0o755)
	s.write("scripts/gates.list", "check-graph\ncheck-core-files\ncheck-star\ncheck-eq\ncheck-pat\ncheck-ext\ncheck-cycle\ncheck-lead\ncheck-lead2\ncheck-nowhere\n", 0o644)
	s.write("scripts/graph-vocab.knobs", "GRAPH_LEADING[] = design/*.md\nGRAPH_LAGGING[] = src/*.c\nGRAPH_LAYERS[] = docs:documents\nGRAPH_LAYER_RULES[] = docs/:docs\n", 0o644)
	s.write("README.md", "hello\n", 0o644)
	s.write("docs/a.md", "a\n", 0o644)
	s.write("src/a.c", "a\n", 0o644)
	// One tracked file under every couple, so no token couples nothing.
	s.write("src/lib/b.c", "b\n", 0o644)
	s.write("docs/deep/c.md", "c\n", 0o644)
	s.write("design/d.md", "d\n", 0o644)
	s.emitArtifact()
	s.git("add", "-A")
	return s
}

func (s *scratch) emitArtifact() {
	s.t.Helper()
	code, out := s.runSplit(nil, binPath, "--emit", "graph")
	if code != 0 {
		s.t.Fatalf("--emit graph: exit %d\n%s", code, out)
	}
	s.write("scripts/CHECK-GRAPH.html", out, 0o644)
}

// runSplit runs a program in the scratch repository and answers its
// stdout alone, with stderr appended only on failure.
func (s *scratch) runSplit(extra []string, name string, args ...string) (int, string) {
	s.t.Helper()
	code, out, errs := s.runStreams("", nil, extra, name, args...)
	if code != 0 {
		return code, out + errs
	}
	return code, out
}

// runStreams runs a program in dir (relative to the scratch repository)
// with stdin, answering its status, stdout and stderr apart.
func (s *scratch) runStreams(dir string, stdin []byte, extra []string, name string, args ...string) (int, string, string) {
	s.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = filepath.Join(s.dir, dir)
	cmd.Env = append(append([]string(nil), s.env...), extra...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

func TestCheckGraphBaselineGreen(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	code, out := s.run(nil, binPath, "check-graph")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "GRAPH: clean (9 members (1 resolving nowhere, skipped)") {
		t.Fatalf("clean line does not count the skipped member:\n%s", out)
	}
}

func expectGraphRed(t *testing.T, s *scratch, extra []string, want ...string) string {
	t.Helper()
	code, out := s.run(extra, binPath, "check-graph")
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Fatalf("missing %q in:\n%s", w, out)
		}
	}
	return out
}

func TestCheckGraphB_TriggerMissingACouple(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	s.write("scripts/check-eq.sh", recordingGate("couples=src/a.c,docs/*.md trigger=docs/*.md dir=one valve=none tier=precommit"), 0o755)
	s.emitArtifact()
	expectGraphRed(t, s, nil, `check-eq: couple "src/a.c" is covered by no trigger= token`, "help: widen trigger=")
}

// TestCheckGraphM_DeadCouple reds a couples= token of the tree's own
// member that matches no tracked path, and greens the "**/" spelling that
// reaches a file right under its directory.
func TestCheckGraphM_DeadCouple(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	s.write("scripts/check-eq.sh", recordingGate("couples=src/a.c,docs/**/*.md,doc/*.md,docs/*.txt,src/b.c dir=one valve=none tier=precommit"), 0o755)
	s.emitArtifact()
	s.git("add", "-A")
	out := expectGraphRed(t, s, nil, `scripts/check-eq.sh:2: check-eq: couples= token "doc/*.md" names no tracked path, so no edit fires the gate`,
		`check-eq: couples= token "src/b.c" names no tracked path`, "help: correct the couples= token")
	// docs/**/*.md matches docs/a.md; docs/*.txt watches a directory the
	// tree tracks, for a kind of file not written yet.
	if strings.Contains(out, `"docs/**/*.md"`) || strings.Contains(out, `"docs/*.txt"`) {
		t.Fatalf("a couple naming a place in the tree was redded:\n%s", out)
	}
}

func TestCheckGraphE_StaleArtifact(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	s.write("scripts/check-eq.sh", recordingGate("couples=src/a.c,docs/*.md,docs/b.md dir=one valve=none tier=precommit"), 0o755)
	out := expectGraphRed(t, s, nil, "scripts/CHECK-GRAPH.html: the coupling-graph page is stale", "help: regenerate the page: gates --emit graph > scripts/CHECK-GRAPH.html")
	// The remedy names the resolved artifact, wherever it is relocated.
	s.write("site/graph.html", "old\n", 0o644)
	out = expectGraphRed(t, s, []string{"GATE_SDK_GRAPH_ARTIFACT=site/graph.html"}, "gates --emit graph > site/graph.html")
	_ = out
}

func TestCheckGraphF_HrefOutsideArtifactDir(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	s.write("scripts/graph-theme/header.html", "<nav><img src=\"logo.png\" alt=\"\"><link rel=\"stylesheet\" href=\"../site.css\"></nav>\n", 0o644)
	s.write("scripts/logo.png", "png\n", 0o644)
	s.write("site.css", "body{}\n", 0o644)
	s.emitArtifact()
	out := expectGraphRed(t, s, nil, `href/src "../site.css" does not name a file under the artifact's directory scripts`)
	if strings.Contains(out, "logo.png") {
		t.Fatalf("an asset under the artifact's directory was redded:\n%s", out)
	}
}

func TestCheckGraphH_ExternalURL(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	s.write("scripts/graph-theme/footer.html", "<footer><a href=\"https://docs.example.org/gates\">docs</a></footer>\n", 0o644)
	s.emitArtifact()
	expectGraphRed(t, s, nil, "external reference https://docs.example.org/gates is outside the allowed set")
	code, out := s.run([]string{"GATE_SDK_GRAPH_EXTERNAL_REFS=https://docs.example.org/"}, binPath, "check-graph")
	if code != 0 {
		t.Fatalf("a sanctioned prefix still reds: exit %d\n%s", code, out)
	}
	// --refs-only reads a page a driver constructs.
	s.write("page.html", `<script type="module">import x from "https://evil.example/x.mjs";</script>`, 0o644)
	code, out = s.run(nil, binPath, "check-graph", "--refs-only", "page.html")
	if code != 1 || !strings.Contains(out, "https://evil.example/x.mjs") {
		t.Fatalf("--refs-only: exit %d\n%s", code, out)
	}
}

func TestCheckGraphI_RenderCap(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	s.emitArtifact()
	code, out := s.run([]string{"GATE_SDK_GRAPH_MAX_EDGES=3"}, binPath, "check-graph")
	// The page now disagrees with a cap of 3 (E) and draws more than 3 (I).
	if code != 1 || !strings.Contains(out, "its cap (data-max-edges) is 3") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	// A page declaring no cap is held to 500.
	var b strings.Builder
	b.WriteString("<svg>\n")
	for i := 0; i < 501; i++ {
		b.WriteString("<path class=\"cg-edge g0 s0\" d=\"M0 0L1 1\"/>\n")
	}
	b.WriteString("</svg>\n")
	s.write("big.html", b.String(), 0o644)
	code, out = s.run(nil, binPath, "check-graph", "--cap-only", "big.html")
	if code != 1 || !strings.Contains(out, "draws 501 edges and its cap (data-max-edges) is 500") {
		t.Fatalf("--cap-only: exit %d\n%s", code, out)
	}
}

func TestCheckGraphA_Manifests(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, file, body, want string
	}{
		{"gen", "scripts/check-star.sh", recordingGate("couples=docs/*.md dir=one valve=none tier=precommit gen=hook"), "gen= is retired"},
		{"undeclared knob", "scripts/check-core-files.gate", "# graph: couples=knob:GATE_SDK_QUEUE_FILE,README.md dir=one valve=none tier=precommit\n", "check-core-files: knob:GATE_SDK_QUEUE_FILE names a knob the member does not declare"},
		{"both spellings", "scripts/check-star.gate", "# graph: couples=docs/*.md dir=one valve=none tier=precommit\n", "ambiguous dispatch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := graphScratch(t)
			s.write(c.file, c.body, 0o755)
			expectGraphRed(t, s, nil, c.want)
		})
	}
	t.Run("vocabulary", func(t *testing.T) {
		s := graphScratch(t)
		s.write("scripts/graph-vocab.knobs", "GRAPH_VOCAB[] = docs/*.md\nGRAPH_VOCAB[] = README.md\n", 0o644)
		s.emitArtifact()
		expectGraphRed(t, s, nil, `check-eq: surface "src/a.c" is not in GRAPH_VOCAB`)
	})
}

func TestCheckGraphC_CycleValve(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	s.write("scripts/check-cycle.sh", recordingGate("couples=design/*.md,src/*.c dir=bi valve=none tier=precommit"), 0o755)
	s.write("scripts/check-eq.sh", recordingGate("couples=src/a.c,docs/*.md dir=one valve=PROPOSED tier=precommit"), 0o755)
	s.emitArtifact()
	expectGraphRed(t, s, nil, "check-cycle: dir=bi spans a leading and a lagging surface", "check-eq: valve=PROPOSED but the gate couples no GRAPH_LEADING surface")
}

func TestCheckGraphRefusals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, file, body string
		env              []string
		want             string
	}{
		{"vocab name", "scripts/graph-vocab.knobs", "GRAPH_LEADING[] = a\nGRAPH_COLOURS[] = red\n", nil, "scripts/graph-vocab.knobs:2: GRAPH_COLOURS is not a graph vocabulary name"},
		{"vocab shape", "scripts/graph-vocab.knobs", "GRAPH_LAYER_DEFAULT[] = x\n", nil, "scripts/graph-vocab.knobs:1: GRAPH_LAYER_DEFAULT is a scalar"},
		{"legacy vocab", "scripts/graph-vocab.sh", "GRAPH_VOCAB=()\n", nil, "the shell vocabulary is retired"},
		{"legacy theme", "scripts/graph-theme.sh", "graph_theme_css() { :; }\n", nil, "the sourced theme is retired"},
		{"retired knob", "README.md", "hello\n", []string{"GATE_SDK_GRAPH_THEME=dark"}, "GATE_SDK_GRAPH_THEME_DIR"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := graphScratch(t)
			s.write(c.file, c.body, 0o644)
			code, out := s.run(c.env, binPath, "check-graph")
			if code != 2 || !strings.Contains(out, c.want) {
				t.Fatalf("exit %d, want 2 with %q:\n%s", code, c.want, out)
			}
			code, out = s.run(c.env, binPath, "--emit", "graph")
			if code != 2 || !strings.Contains(out, c.want) {
				t.Fatalf("--emit graph: exit %d, want 2 with %q", code, c.want)
			}
		})
	}
}

func TestCheckGraphThemeInlinedVerbatim(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	css := "body { color: red; }" // no trailing newline, kept so
	s.write("scripts/graph-theme/theme.css", css, 0o644)
	s.write("scripts/graph-theme/header.html", "<div id=\"site-head\">site</div>\n\n", 0o644)
	code, page := s.runSplit(nil, binPath, "--emit", "graph")
	if code != 0 {
		t.Fatalf("exit %d %s", code, page)
	}
	if !strings.Contains(page, "<style>\n"+css+"</style>") || strings.Contains(page, "--accent") {
		t.Fatal("theme.css did not replace the kit stylesheet byte for byte")
	}
	if !strings.Contains(page, "<body>\n<div id=\"site-head\">site</div>\n\n<header") {
		t.Fatal("header.html is not directly after <body>, verbatim")
	}
}

var firesRe = regexp.MustCompile(`<tr><td><code>([^<]+)</code>.*<td class="cg-fires">(.*)</td></tr>`)
var codeRe = regexp.MustCompile(`<code>([^<]*)</code>`)

// TestHookForAndGraphSelectOneSet holds three readers of the effective
// trigger to one answer for a set of paths: the pre-commit hook's
// selection, --for's, and the expansion check-graph validates, read off
// the page it keeps fresh.
func TestHookForAndGraphSelectOneSet(t *testing.T) {
	t.Parallel()
	s := graphScratch(t)
	// --for refuses a registry with an unresolvable member; drop it here.
	s.write("scripts/gates.list", "check-graph\ncheck-core-files\ncheck-star\ncheck-eq\ncheck-pat\ncheck-ext\ncheck-cycle\ncheck-lead\ncheck-lead2\n", 0o644)
	s.emitArtifact()
	s.git("add", "-A")
	s.git("commit", "-qm", "seed")
	code, page := s.runSplit(nil, binPath, "--emit", "graph")
	if code != 0 {
		t.Fatal(page)
	}
	fires := map[string][]string{}
	for _, m := range firesRe.FindAllStringSubmatch(page, -1) {
		for _, c := range codeRe.FindAllStringSubmatch(m[2], -1) {
			fires[m[1]] = append(fires[m[1]], html.UnescapeString(c[1]))
		}
	}
	shell := map[string]bool{"check-star": true, "check-eq": true, "check-pat": true, "check-ext": true, "check-cycle": true, "check-lead": true, "check-lead2": true}
	for _, paths := range [][]string{
		{"docs/a.md"},
		{"src/a.c"},
		{"src/lib/b.c", "design/x.md"},
		{"docs/deep/z.md"},
		{"README.md"},
		{"other.txt"},
	} {
		var graphSel []string
		for name, pats := range fires {
			if !shell[name] {
				continue
			}
			for _, p := range paths {
				if slices.ContainsFunc(pats, func(pat string) bool { return glob.Match(pat, p) }) {
					graphSel = append(graphSel, name)
					break
				}
			}
		}
		sort.Strings(graphSel)
		ran := func(args ...string) []string {
			log := filepath.Join(t.TempDir(), "ran")
			code, out := s.run([]string{"RAN_LOG=" + log}, binPath, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d\n%s", args, code, out)
			}
			data, _ := os.ReadFile(log)
			got := strings.Fields(string(data))
			sort.Strings(got)
			return got
		}
		forSel := ran(append([]string{"--for"}, paths...)...)
		for _, p := range paths {
			s.write(p, "edit "+p+"\n", 0o644)
		}
		s.git(append([]string{"add", "--"}, paths...)...)
		hookSel := ran("--git-hook", "pre-commit")
		s.git("reset", "-q", "--hard")
		s.git("clean", "-qfd")
		if len(graphSel) == 0 {
			t.Fatalf("paths %v select nothing; the comparison would hold over nothing", paths)
		}
		if !slices.Equal(graphSel, forSel) || !slices.Equal(forSel, hookSel) {
			t.Fatalf("paths %v: check-graph's expansion selects %v, --for %v, the pre-commit hook %v", paths, graphSel, forSel, hookSel)
		}
	}
}
