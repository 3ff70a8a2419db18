package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const baselineCI = "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n" +
	"      - uses: actions/checkout@v4\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n"

// baselineScratch is a consumer whose tree reds check-action-pinning (two
// identical tag-pinned refs and a third) and check-tree-terms (a home path
// in README.md), with nothing else registered.
func baselineScratch(t *testing.T) *scratch {
	s := newScratch(t)
	s.copyTree(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks"), filepath.Join(s.dir, "gate-sdk", "checks"))
	s.write(".github/workflows/ci.yml", baselineCI, 0o644)
	s.write("README.md", "# demo\nsee "+plantedHome+" for the plan\n", 0o644)
	s.write("scripts/msg-patterns.list", "/home/[a-z]+/\n", 0o644)
	s.write("scripts/gates.list", "check-action-pinning\ncheck-tree-terms\n", 0o644)
	s.git("add", "-A")
	return s
}

func (s *scratch) gates(extra []string, args ...string) (int, string) {
	s.t.Helper()
	return s.run(extra, binPath, args...)
}

func (s *scratch) read(rel string) string {
	s.t.Helper()
	data, err := os.ReadFile(filepath.Join(s.dir, rel))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(data)
}

// acceptAll runs `gates baseline` on the scratch tree and stages the file.
func (s *scratch) acceptAll() string {
	s.t.Helper()
	code, out := s.gates(nil, "baseline")
	if code != 0 {
		s.t.Fatalf("gates baseline: exit %d\n%s", code, out)
	}
	s.git("add", "scripts/gates.baseline")
	return s.read("scripts/gates.baseline")
}

func TestBaselineAcceptsTodaysFindings(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	if code, out := s.gates(nil, "--run"); code != 1 {
		t.Fatalf("the untouched tree is not red: exit %d\n%s", code, out)
	}
	file := s.acceptAll()
	if strings.Contains(file, "marta") || strings.Contains(file, plantedHome) {
		t.Fatalf("the baseline quotes the banned text:\n%s", file)
	}
	// Two identical refs in two steps are two findings of two steps, each
	// its own line with a note naming the action and the step.
	if strings.Count(file, "check-action-pinning\t.github/workflows/ci.yml\tunpinned\t") != 3 ||
		!strings.Contains(file, "\t# unpinned in .github/workflows/ci.yml: actions/checkout in job build, step 2\n") ||
		!strings.Contains(file, "check-tree-terms\tREADME.md\tleak\t") || !strings.Contains(file, "\t# leak in README.md: pattern scripts/msg-patterns.list:1\n") {
		t.Fatalf("the baseline does not record the findings as documented:\n%s", file)
	}
	code, out := s.gates([]string{"GATE_SDK_VERBOSE=1"}, "--run")
	if code != 0 || !strings.Contains(out, "All 2 gates passed.") {
		t.Fatalf("the battery is not green over the baseline: exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"ACTION-PINNING: clean (3 uses: refs pinned across 1 YAML file; 3 findings accepted by scripts/gates.baseline)\n",
		// check-tree-terms reads the tracked baseline and finds nothing in it.
		"; 1 finding accepted by scripts/gates.baseline)\n",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("the clean lines do not count the accepted findings (%q):\n%s", want, out)
		}
	}
	if code, out := s.gates(nil, "check-tree-terms"); code != 0 || !strings.HasPrefix(out, "TREE-TERMS: clean (") {
		t.Fatalf("check-tree-terms over a tree with a baseline: exit %d\n%s", code, out)
	}

	// An unrelated edit that moves every finding to another line keeps
	// them accepted; --for and the hook agree.
	s.write(".github/workflows/ci.yml", "# a comment\n\n"+baselineCI, 0o644)
	s.write("README.md", "# demo\n\nintro\nsee "+plantedHome+" for the plan\n", 0o644)
	s.git("add", "-A")
	if code, out := s.gates(nil, "--run"); code != 0 {
		t.Fatalf("moved findings red the battery: exit %d\n%s", code, out)
	}
	if code, out := s.gates(nil, "--run", "--for", ".github/workflows/ci.yml", "README.md"); code != 0 {
		t.Fatalf("--for disagrees: exit %d\n%s", code, out)
	}
	if code, out := s.gates(nil, "--git-hook", "pre-commit"); code != 0 {
		t.Fatalf("the pre-commit hook disagrees: exit %d\n%s", code, out)
	}

	// A third identical tag-pinned ref is new: two accepted never hide it.
	s.write(".github/workflows/ci.yml", "# a comment\n\n"+baselineCI+"      - uses: actions/checkout@v4\n", 0o644)
	s.git("add", "-A")
	for _, argv := range [][]string{{"--run"}, {"--git-hook", "pre-commit"}, {"--run", "--for", ".github/workflows/ci.yml"}} {
		code, out := s.gates(nil, argv...)
		if code != 1 {
			t.Fatalf("%v: a new tag-pinned ref does not red: exit %d\n%s", argv, code, out)
		}
		if n := strings.Count(out, "is pinned to @"); n != 1 || !strings.Contains(out, "ci.yml:11: uses: actions/checkout@v4") {
			t.Fatalf("%v: want exactly the new finding listed, got %d:\n%s", argv, n, out)
		}
		if !strings.Contains(out, "note: 3 findings accepted by scripts/gates.baseline, not shown\n") {
			t.Fatalf("%v: the red report does not say how many were accepted:\n%s", argv, out)
		}
	}

	// An edit of the line around an accepted match keeps it accepted (the
	// fingerprint is the pattern and the text it matched); another match
	// of the pattern is new and never hidden.
	s.write(".github/workflows/ci.yml", baselineCI, 0o644)
	s.write("README.md", "# demo\nsee "+plantedHome+" for the new plan\n", 0o644)
	s.git("add", "-A")
	if code, out := s.gates(nil, "--run"); code != 0 {
		t.Fatalf("an edit beside an accepted match reds: exit %d\n%s", code, out)
	}
	other := "/" + "home/jbo/notes"
	s.write("README.md", "# demo\nsee "+other+" for the new plan\n", 0o644)
	s.git("add", "-A")
	code, out = s.gates(nil, "--run")
	if code != 1 || !strings.Contains(out, "README.md:2:see "+other+" for the new plan") || strings.Contains(out, "check-action-pinning =====") {
		t.Fatalf("a changed finding is hidden, or an accepted one shown: exit %d\n%s", code, out)
	}
}

// The pre-commit hook judges the baseline the commit records: one on disk
// but not staged accepts nothing there.
func TestBaselineHookReadsTheStagedFile(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	if code, out := s.gates(nil, "baseline"); code != 0 {
		t.Fatalf("gates baseline: exit %d\n%s", code, out)
	}
	if code, out := s.gates(nil, "--run"); code != 0 {
		t.Fatalf("the battery reads the work tree's baseline: exit %d\n%s", code, out)
	}
	if code, out := s.gates(nil, "--git-hook", "pre-commit"); code != 1 {
		t.Fatalf("an unstaged baseline greens the hook: exit %d\n%s", code, out)
	}
	s.git("add", "scripts/gates.baseline")
	if code, out := s.gates(nil, "--git-hook", "pre-commit"); code != 0 {
		t.Fatalf("the staged baseline does not green the hook: exit %d\n%s", code, out)
	}
	// A work-tree copy broken after staging is not what the commit records.
	staged := s.read("scripts/gates.baseline")
	s.write("scripts/gates.baseline", staged+"not an entry\n", 0o644)
	if code, out := s.gates(nil, "--git-hook", "pre-commit"); code != 0 {
		t.Fatalf("the hook read the work tree's baseline, not the staged one: exit %d\n%s", code, out)
	}
	if code, _ := s.gates(nil, "--run"); code != 2 {
		t.Fatalf("the battery did not refuse the work tree's malformed baseline: exit %d", code)
	}
	s.write("scripts/gates.baseline", staged, 0o644)
	s.git("commit", "-qm", "chore: accept today's findings")
}

func TestBaselineSARIFAndJSON(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	s.acceptAll()
	s.write(".github/workflows/ci.yml", baselineCI+"      - uses: actions/cache@v4\n", 0o644)
	s.git("add", "-A")
	sarifPath := filepath.Join(s.dir, ".tmp-out.sarif")
	if code, out := s.gates([]string{"GATE_SDK_SARIF_FILE=" + sarifPath}, "--run"); code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID              string            `json:"ruleId"`
				BaselineState       string            `json:"baselineState"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Suppressions        []struct {
					Kind string `json:"kind"`
				} `json:"suppressions"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	data, err := os.ReadFile(sarifPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, r := range log.Runs[0].Results {
		states[r.BaselineState]++
		suppressed := len(r.Suppressions) == 1 && r.Suppressions[0].Kind == "external"
		if (r.BaselineState == "unchanged") != suppressed {
			t.Errorf("%s %q: baselineState %q with suppressions %v", r.RuleID, r.Message.Text, r.BaselineState, r.Suppressions)
		}
		if fp := r.PartialFingerprints["gatesFingerprint/v1"]; len(fp) != 16 || strings.Trim(fp, "0123456789abcdef") != "" {
			t.Errorf("%s %q: no 16-hex gatesFingerprint/v1 partial fingerprint: %v", r.RuleID, r.Message.Text, r.PartialFingerprints)
		}
		if r.BaselineState == "new" && !strings.Contains(r.Message.Text, "actions/cache@v4") {
			t.Errorf("an accepted finding is new: %q", r.Message.Text)
		}
	}
	if states["unchanged"] != 4 || states["new"] != 1 {
		t.Fatalf("want 4 unchanged and 1 new, got %v\n%s", states, data)
	}

	code, out := s.stdout(nil, "--run", "--format", "json")
	if code != 1 {
		t.Fatalf("json: exit %d\n%s", code, out)
	}
	var doc struct {
		Gates []struct {
			Gate     string `json:"gate"`
			Verdict  string `json:"verdict"`
			Findings int    `json:"findings"`
			Accepted int    `json:"accepted"`
		} `json:"gates"`
		Findings []struct {
			Gate     string `json:"gate"`
			Text     string `json:"text"`
			Accepted bool   `json:"accepted"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := map[string][3]int{"check-action-pinning": {1, 3}, "check-tree-terms": {0, 1}}
	for _, g := range doc.Gates {
		if w := want[g.Gate]; g.Findings != w[0] || g.Accepted != w[1] {
			t.Errorf("%s: %d findings, %d accepted; want %v", g.Gate, g.Findings, g.Accepted, w)
		}
	}
	accepted := 0
	for _, f := range doc.Findings {
		if f.Accepted {
			accepted++
		} else if !strings.Contains(f.Text, "actions/cache@v4") {
			t.Errorf("an accepted finding is not marked: %+v", f)
		}
	}
	if accepted != 4 || len(doc.Findings) != 5 {
		t.Fatalf("want 5 findings, 4 of them accepted:\n%s", out)
	}
}

func TestBaselineStaleEntriesAndPrune(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	before := s.acceptAll()
	if code, out := s.gates(nil, "doctor"); strings.Contains(out, "stale") ||
		!strings.Contains(out, "doctor: note: baseline: check-action-pinning has 3 findings accepted by scripts/gates.baseline") ||
		!strings.Contains(out, "doctor: note: baseline: check-tree-terms has 1 finding accepted by scripts/gates.baseline") {
		t.Fatalf("doctor over a fresh baseline: exit %d\n%s", code, out)
	}
	// Fix one finding: pin setup-go to a commit.
	s.write(".github/workflows/ci.yml", strings.Replace(baselineCI, "setup-go@v5", "setup-go@0123456789abcdef0123456789abcdef01234567 # v5", 1), 0o644)
	s.git("add", "-A")
	var staleLine string
	var lineNo int
	for i, l := range strings.Split(before, "\n") {
		if strings.HasPrefix(l, "check-action-pinning\t") && strings.Contains(l, "actions/setup-go") {
			staleLine, lineNo = l, i+1
		}
	}
	code, out := s.gates(nil, "doctor")
	wantStale := "doctor: baseline: stale entry scripts/gates.baseline:" + itoa(lineNo) + ": " + staleLine + " (no current finding matches it)"
	if code != 1 || !strings.Contains(out, wantStale) || strings.Count(out, "stale entry") != 1 {
		t.Fatalf("doctor does not name the one stale entry %q: exit %d\n%s", wantStale, code, out)
	}
	if code, out := s.gates(nil, "baseline", "--prune"); code != 0 || !strings.Contains(out, "removed 1 stale entry") {
		t.Fatalf("--prune: exit %d\n%s", code, out)
	}
	after := s.read("scripts/gates.baseline")
	if want := strings.Replace(before, staleLine+"\n", "", 1); after != want {
		t.Fatalf("--prune changed more than the stale entry:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if code, out := s.gates(nil, "doctor"); strings.Contains(out, "stale") {
		t.Fatalf("doctor after --prune: exit %d\n%s", code, out)
	}
	if code, out := s.gates(nil, "--run"); code != 0 {
		t.Fatalf("the battery after --prune: exit %d\n%s", code, out)
	}
	if code, out := s.gates(nil, "baseline", "--prune"); code != 0 || !strings.Contains(out, "nothing pruned") {
		t.Fatalf("a second --prune: exit %d\n%s", code, out)
	}

	// A gate the registry does not name is doctor's finding, and --prune
	// drops its entries.
	s.write("scripts/gates.list", "check-action-pinning\n", 0o644)
	code, out = s.gates(nil, "doctor")
	if code != 1 || !strings.Contains(out, "scripts/gates.baseline names check-tree-terms, which is not registered") {
		t.Fatalf("doctor does not name the unregistered gate: exit %d\n%s", code, out)
	}
}

func TestBaselineRefusesAMalformedLine(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	file := s.acceptAll()
	lines := strings.Count(file, "\n")
	s.write("scripts/gates.baseline", file+"check-action-pinning\tci.yml\tunpinned\n", 0o644)
	s.git("add", "-A")
	want := "scripts/gates.baseline:" + itoa(lines+1) + ": "
	for _, argv := range [][]string{{"--run"}, {"baseline"}, {"baseline", "--prune"}, {"doctor"}, {"--git-hook", "pre-commit"}, {"check-tree-terms"}} {
		code, out := s.gates(nil, argv...)
		if code != 2 || !strings.Contains(out, want) {
			t.Errorf("%v: exit %d, want 2 naming %q:\n%s", argv, code, want, out)
		}
	}
	if got := s.read("scripts/gates.baseline"); !strings.HasSuffix(got, "unpinned\n") {
		t.Fatalf("a refused run rewrote the baseline:\n%s", got)
	}
}

func TestBaselineHelp(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	code, out := s.gates(nil, "baseline", "--help")
	if code != 0 || !strings.Contains(out, "usage: gates baseline [--prune]") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if code, out := s.gates(nil, "baseline", "--bogus"); code != 2 {
		t.Fatalf("an unknown option: exit %d\n%s", code, out)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Init registers a gate that reds on the tree it finds, with today's
// findings accepted in the baseline, and says so per gate; the first
// battery is green before the adoption commit and after it, and a new
// finding is still refused at commit.
func TestBaselineInitRegistersRedGates(t *testing.T) {
	t.Parallel()
	a := newAdopter(t)
	a.write(".github/workflows/ci.yml", strings.Replace(pinnedCI, "checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2", "checkout@v4", 1))
	a.write("docs/guide.md", "How to use it.\nSee "+plantedHome+" for more.\n")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "-m", "docs: notes")
	r := a.runIn("", binPath, "init")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"init: check-action-pinning: registered with 1 accepted finding (scripts/gates.baseline)\n",
		"init: check-tree-terms: registered with 1 accepted finding (scripts/gates.baseline)\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("init's report lacks %q:\n%s", want, r.stdout)
		}
	}
	list := a.read("scripts/gates.list")
	for _, g := range []string{"check-action-pinning", "check-tree-terms"} {
		if !strings.Contains(list, "\n"+g+"\n") {
			t.Errorf("%s is not registered:\n%s", g, list)
		}
	}
	if bl := a.read("scripts/gates.baseline"); strings.Contains(bl, plantedHome) {
		t.Fatalf("the baseline quotes the home path:\n%s", bl)
	}
	for _, when := range []string{"uncommitted", "committed"} {
		if b := a.battery(); b.code != 0 {
			t.Fatalf("battery (%s): exit %d\n%s%s", when, b.code, b.stdout, b.stderr)
		}
		if when == "uncommitted" {
			a.must("git", "add", "-A")
			a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
		}
	}
	a.must(binPath, "init", "--hooks")
	a.write(".github/workflows/release.yml", strings.Replace(pinnedCI, "checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2", "checkout@v4", 1))
	a.must("git", "add", "-A")
	c := a.runIn("", "git", "commit", "-q", "-m", "ci: add a release workflow")
	if c.code == 0 || !strings.Contains(c.stdout+c.stderr, "release.yml") || strings.Contains(c.stdout+c.stderr, "ci.yml:") {
		t.Fatalf("the hook does not refuse exactly the new tag-pinned ref: exit %d\n%s%s", c.code, c.stdout, c.stderr)
	}
}

// The agent's edit-gates member judges an edit as the battery does: an
// accepted finding is silent, a new one is handed back alone.
func TestBaselineAgentEditGatesAgrees(t *testing.T) {
	t.Parallel()
	s := baselineScratch(t)
	s.acceptAll()
	payload := map[string]any{
		"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir,
		"hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input":    map[string]any{"file_path": filepath.Join(s.dir, "README.md"), "old_string": "x", "new_string": "y"},
		"tool_response": map[string]any{"success": true},
	}
	if code, out, errs := s.hook("", "edit-gates", payload); code != 0 || out != "" {
		t.Fatalf("an edit leaving only accepted findings: exit %d stdout %q stderr %q", code, out, errs)
	}
	s.write("README.md", "# demo\nsee "+plantedHome+" for the plan\nand "+plantedHome+"/2 too\n", 0o644)
	code, out, _ := s.hook("", "edit-gates", payload)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	reason, _ := envelope(t, out)["reason"].(string)
	if !strings.Contains(reason, "README.md:3:") || strings.Contains(reason, "README.md:2:") || !strings.Contains(reason, "1 finding accepted by scripts/gates.baseline") {
		t.Fatalf("edit-gates does not hand back exactly the new finding:\n%s", reason)
	}
}
