package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/battery"
)

// redScratch is a consumer with the whole kit vendored and a tree that
// reddens compiled gates (pinning, tree terms), a shell gate and an
// unresolved name: every kind of red the battery prints.
func redScratch(t *testing.T) *scratch {
	s := newScratch(t)
	s.copyTree(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks"), filepath.Join(s.dir, "gate-sdk", "checks"))
	s.write(".github/workflows/ci.yml", "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"+
		"      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5 # unpinned too\n", 0o644)
	s.write("docs/a.md", "hello\nthe codename is xyzzy-7\n", 0o644)
	s.write("scripts/msg-patterns.list", "xyzzy-[0-9]\n", 0o644)
	s.write("scripts/check-fail.sh", failGate, 0o755)
	s.write("scripts/gates.list", "check-action-pinning\ncheck-tree-terms\ncheck-fail\ncheck-missing\ncheck-pass\n", 0o644)
	s.write("scripts/check-pass.sh", passGate, 0o755)
	s.git("add", "-A")
	return s
}

// stdout runs the binary in the scratch repository and answers its exit
// status and stdout alone.
func (s *scratch) stdout(extra []string, args ...string) (int, string) {
	s.t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Dir = s.dir
	cmd.Env = append(append([]string(nil), s.env...), extra...)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		}
		s.t.Fatal(err)
	}
	return 0, string(out)
}

// textFindings answers, per red member, the lines of its block that are
// findings: everything but the banner, the verdict tail, the spec and the
// help: lines.
func textFindings(out string) map[string][]string {
	got := map[string][]string{}
	member := ""
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "===== ") && strings.HasSuffix(line, " ====="):
			member = strings.TrimSuffix(strings.TrimPrefix(line, "===== "), " =====")
		case member == "", line == "", strings.HasPrefix(line, "help: "), strings.HasPrefix(line, "  FAIL: "), strings.HasPrefix(line, "    spec: "):
			if strings.HasPrefix(line, "  FAIL: ") {
				member = ""
			}
		default:
			got[member] = append(got[member], line)
		}
	}
	return got
}

// The battery's JSON document carries every finding the text run prints,
// member by member, with the verdict; the text is unchanged by the option.
func TestBatteryJSONCarriesEveryTextFinding(t *testing.T) {
	t.Parallel()
	s := redScratch(t)
	code, text := s.stdout(nil, "--run")
	if code != 1 {
		t.Fatalf("text run: exit %d\n%s", code, text)
	}
	want := textFindings(text)
	for _, m := range []string{"check-action-pinning", "check-tree-terms", "check-fail", "check-missing"} {
		if len(want[m]) == 0 {
			t.Fatalf("the red tree does not redden %s:\n%s", m, text)
		}
	}
	code, out := s.stdout(nil, "--run", "--format", "json")
	var doc battery.JSONReport
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--format json is not JSON: %v\n%s", err, out)
	}
	if code != 1 || doc.Exit != 1 || doc.Verdict != "failed" || !strings.HasPrefix(doc.Summary, "4 of 5 gates FAILED") {
		t.Fatalf("verdict: exit %d, document %+v", code, doc)
	}
	got := map[string][]string{}
	for _, f := range doc.Findings {
		got[f.Gate] = append(got[f.Gate], f.Text)
		if f.ID == "" || f.Class == "" || f.Message == "" {
			t.Errorf("finding lacks its id, class or message: %+v", f)
		}
	}
	for m, lines := range want {
		if strings.Join(got[m], "\n") != strings.Join(lines, "\n") {
			t.Errorf("%s: text prints\n%q\njson carries\n%q", m, lines, got[m])
		}
	}
	if len(got) != len(want) {
		t.Errorf("json has findings for %d members, the text for %d", len(got), len(want))
	}
	for _, f := range doc.Findings {
		switch f.Gate {
		case "check-action-pinning":
			if f.Path != ".github/workflows/ci.yml" || f.Line < 6 || f.Class == "" || !strings.Contains(f.Help, "SHA") {
				t.Errorf("pinning finding not structured: %+v", f)
			}
		case "check-fail":
			if f.Path != "docs/a.md" || f.Line != 1 || f.Message != "bad word" || f.Help != "remove the bad word" {
				t.Errorf("shell finding not read by the contract: %+v", f)
			}
		case "check-missing":
			if f.Class != "could-not-run" {
				t.Errorf("unresolved member's finding: %+v", f)
			}
		}
	}
	_, explicit := s.stdout(nil, "--run", "--format", "text")
	if explicit != text {
		t.Fatalf("--format text differs from the default:\n%s\nvs\n%s", explicit, text)
	}
}

// The text transcript is byte for byte what the binary printed before
// --format existed; the want is that build's output over this tree.
func TestTextTranscriptUnchangedByFormats(t *testing.T) {
	t.Parallel()
	s := redScratch(t)
	_, out := s.stdout(nil, "--run")
	golden, err := os.ReadFile(filepath.Join(moduleRoot, "internal", "e2e", "testdata", "red-battery.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if out != string(golden) {
		t.Fatalf("transcript differs from the pre-format build's:\n%s\nwant:\n%s", out, golden)
	}
	_, standalone := s.stdout(nil, "check-tree-terms")
	if !strings.Contains(string(golden), standalone) {
		t.Fatalf("standalone text is not the battery block:\n%s", standalone)
	}
}

// A gate's own --format json renders its findings and verdict.
func TestGateJSON(t *testing.T) {
	t.Parallel()
	s := redScratch(t)
	_, text := s.stdout(nil, "check-action-pinning")
	code, out := s.stdout(nil, "check-action-pinning", "--format", "json")
	var doc battery.JSONReport
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if code != 1 || doc.Verdict != "failed" || len(doc.Gates) != 1 || doc.Gates[0].ID != "ACTION-PINNING" {
		t.Fatalf("exit %d document %+v", code, doc)
	}
	var lines []string
	for _, f := range doc.Findings {
		lines = append(lines, f.Text)
	}
	if want := textFindings("===== g =====\n" + text + "  FAIL: g\n")["g"]; strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("json findings %q, text findings %q", lines, want)
	}
	code, out = s.stdout(nil, "check-action-pinning", "--format=json", "nonexistent-root")
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 2 || doc.Verdict != "could-not-run" || len(doc.Findings) != 1 {
		t.Fatalf("refused gate: exit %d %v %+v\n%s", code, err, doc, out)
	}
	if code, _ := s.stdout(nil, "check-action-pinning", "--format", "yaml"); code != 2 {
		t.Fatalf("an unknown format must be refused; exit %d", code)
	}
}
