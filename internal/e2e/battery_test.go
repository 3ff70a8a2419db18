package e2e

import (
	"os"
	"strings"
	"testing"
)

const passGate = `#!/usr/bin/env bash
# graph: couples=docs/*.md dir=one valve=none tier=precommit
# spec: scripts/SPEC.md §check-pass — docs stay tidy
echo "PASS: clean (1 file)"
`

const failGate = `#!/usr/bin/env bash
# graph: couples=kit:lib/*.sh dir=one valve=none tier=precommit
# spec: scripts/SPEC.md §check-fail — nothing bad in docs
echo "docs/a.md:1: bad word"
echo "help: remove the bad word"
exit 1
`

// crashGate's awk capture dies; fail_closed must turn that into exit 2.
const crashGate = `#!/usr/bin/env bash
# graph: couples=knob:GATE_SDK_CORE_FILES_FILE dir=one valve=none tier=precommit
. "${GATE_SDK_ROOT:-gate-sdk}/lib/gate.sh"
out="$(awk 'BEGIN { exit 3 }' docs/a.md)"; st=$?
fail_closed "$st" check-crash awk
[ -z "$out" ] && echo "CRASH: clean (nothing found)"
`

// subjectDescriptor declares a compiled gate, dispatched in process.
const subjectDescriptor = `# graph: couples=.git/COMMIT_EDITMSG dir=one valve=none tier=commit-msg
# spec: gate-sdk/SPEC.md §check-commit-subject — commit subjects follow the convention
`

func batteryScratch(t *testing.T) *scratch {
	s := newScratch(t)
	s.write("docs/a.md", "hello\n", 0o644)
	s.write("scripts/check-pass.sh", passGate, 0o755)
	s.write("scripts/check-fail.sh", failGate, 0o755)
	s.write("scripts/check-crash.sh", crashGate, 0o755)
	s.write("scripts/check-commit-subject.gate", subjectDescriptor, 0o644)
	s.write("scripts/gates.list", "# the registry\ncheck-pass\ncheck-fail\ncheck-missing\ncheck-commit-subject\n", 0o644)
	s.git("add", "-A")
	return s
}

func TestBatteryQuietGreenLoudRed(t *testing.T) {
	t.Parallel()
	s := batteryScratch(t)
	code, out := s.frontEnd(nil)
	want := "===== check-fail =====\n" +
		"docs/a.md:1: bad word\n" +
		"help: remove the bad word\n" +
		"  FAIL: check-fail (exit 1)\n" +
		"    spec: scripts/SPEC.md §check-fail — nothing bad in docs\n" +
		"===== check-missing =====\n" +
		"scripts/gates.list:4: check-missing resolves to no <name>.sh or <name>.gate in any search dir\n" +
		"  FAIL: check-missing (unresolved)\n" +
		"2 of 4 gates FAILED: check-fail check-missing\n"
	if code != 1 || out != want {
		t.Fatalf("exit %d, output:\n%s\nwant exit 1 and:\n%s", code, out, want)
	}
	_, serial := s.frontEnd([]string{"GATE_SDK_JOBS=1"})
	_, wide := s.frontEnd([]string{"GATE_SDK_JOBS=8"})
	if serial != wide || serial != out {
		t.Fatalf("output differs by worker count:\nJOBS=1:\n%s\nJOBS=8:\n%s", serial, wide)
	}
	if data, err := os.ReadFile(s.dir + "/.tmp/gate-timings.txt"); err != nil || !strings.Contains(string(data), "TOTAL ") {
		t.Fatalf("timings file not written on an unfiltered run: %v %q", err, data)
	}
	if data, _ := os.ReadFile(s.dir + "/.tmp/.gitignore"); string(data) != "*\n" {
		t.Fatalf(".tmp/.gitignore = %q", data)
	}
}

func TestBatteryVerboseShowsPassingBanners(t *testing.T) {
	t.Parallel()
	s := batteryScratch(t)
	s.write("scripts/gates.list", "check-pass\ncheck-commit-subject\n", 0o644)
	code, out := s.frontEnd([]string{"GATE_SDK_VERBOSE=1"})
	if code != 0 || !strings.Contains(out, "===== check-pass =====\nPASS: clean (1 file)\n  PASS: check-pass\n") ||
		!strings.HasSuffix(out, "All 2 gates passed (1 checked nothing: check-commit-subject).\n") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out = s.frontEnd(nil)
	if code != 0 || out != "All 2 gates passed (1 checked nothing: check-commit-subject).\n" {
		t.Fatalf("quiet green: exit %d:\n%s", code, out)
	}
}

func TestFailClosedCrashIsRedNeverGreen(t *testing.T) {
	t.Parallel()
	s := batteryScratch(t)
	s.write("scripts/gates.list", "check-crash\n", 0o644)
	code, out := s.frontEnd(nil)
	if code != 1 || !strings.Contains(out, "  FAIL: check-crash (exit 2)") || strings.Contains(out, "clean") {
		t.Fatalf("a crashed capture must red the battery with the member's exit 2; exit %d:\n%s", code, out)
	}
}

func TestForSelectsThroughLiteralKitAndKnobTokens(t *testing.T) {
	t.Parallel()
	s := batteryScratch(t)
	s.write("scripts/gates.list", "check-pass\ncheck-fail\ncheck-crash\n", 0o644)
	cases := []struct {
		path, want string
	}{
		{"docs/a.md", "check-pass"},                // literal couples=docs/*.md
		{"gate-sdk/lib/gate.sh", "check-fail"},     // kit:lib/*.sh
		{"scripts/core-files.list", "check-crash"}, // knob:GATE_SDK_CORE_FILES_FILE
	}
	for _, c := range cases {
		_, out := s.frontEnd([]string{"GATE_SDK_VERBOSE=1"}, "--for", c.path)
		for _, g := range []string{"check-pass", "check-fail", "check-crash"} {
			ran := strings.Contains(out, "===== "+g+" =====")
			if ran != (g == c.want) {
				t.Errorf("--for %s: %s ran=%v\n%s", c.path, g, ran, out)
			}
		}
	}
	code, out := s.frontEnd(nil, "--for", "README.md")
	if code != 0 || out != "no registered gate couples to README.md\n" {
		t.Fatalf("uncoupled path: exit %d:\n%s", code, out)
	}
}

func TestManifestRefusalsAreReported(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ field, want string }{
		{"dir=two", "dir="},
		{"valve=maybe", "valve="},
		{"tier=push", "tier="},
		{"gen=x", "gen="},
		{"couples=web:x", "web:"},
	} {
		s := newScratch(t)
		line := "# graph: couples=docs/*.md dir=one valve=none tier=precommit"
		switch {
		case strings.HasPrefix(c.field, "couples="):
			line = "# graph: " + c.field + " dir=one valve=none tier=precommit"
		case strings.HasPrefix(c.field, "gen="):
			line += " " + c.field
		default:
			key := strings.SplitN(c.field, "=", 2)[0]
			fields := strings.Fields(line)
			for i, f := range fields {
				if strings.HasPrefix(f, key+"=") {
					fields[i] = c.field
				}
			}
			line = strings.Join(fields, " ")
		}
		s.write("scripts/check-x.sh", "#!/usr/bin/env bash\n"+line+"\necho 'X: clean (x)'\n", 0o755)
		s.write("scripts/gates.list", "check-x\n", 0o644)
		code, out := s.frontEnd(nil)
		if code != 1 || !strings.Contains(out, "FAIL: check-x (dispatch harness error, exit 2)") || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d, want a dispatch harness red naming %q:\n%s", c.field, code, c.want, out)
		}
		code, out = s.frontEnd(nil, "--for", "docs/a.md")
		if code != 2 || !strings.Contains(out, c.want) {
			t.Errorf("%s under --for: exit %d, want 2 naming %q:\n%s", c.field, code, c.want, out)
		}
	}
}

func TestOnlySelectorGrammar(t *testing.T) {
	t.Parallel()
	s := batteryScratch(t)
	s.write("scripts/gates.list", "check-pass\ncheck-commit-subject\n", 0o644)
	_, ab := s.frontEnd([]string{"GATE_SDK_VERBOSE=1"}, "--only", "check-pass", "check-commit-subject")
	_, ba := s.frontEnd([]string{"GATE_SDK_VERBOSE=1"}, "--only", "check-commit-subject", "check-pass")
	if ab != ba {
		t.Fatalf("--only must run in registry order:\n%s\nvs\n%s", ab, ba)
	}
	if code, out := s.frontEnd(nil, "--only", "check-pass", "check-pass"); code != 0 || out != "The 1 gate passed.\n" {
		t.Fatalf("duplicates collapse: exit %d %q", code, out)
	}
	if code, out := s.frontEnd(nil, "--only", "typo"); code != 2 || !strings.Contains(out, "typo") || !strings.Contains(out, "scripts/gates.list") {
		t.Fatalf("unknown name: exit %d %q", code, out)
	}
	if code, out := s.frontEnd(nil, "--only", "check-fail"); code != 1 || !strings.Contains(out, "1 of 1 gate FAILED") {
		t.Fatalf("sole unregistered but declared name runs: exit %d %q", code, out)
	}
	if code, out := s.frontEnd(nil, "--only", "check-pass", "check-fail"); code != 2 {
		t.Fatalf("two names with one unregistered: exit %d %q", code, out)
	}
	s.write("msg.txt", "feat: x\n", 0o644)
	if code, out := s.frontEnd([]string{"GATE_SDK_VERBOSE=1"}, "--only", "check-commit-subject", "--", "msg.txt"); code != 0 || !strings.Contains(out, "COMMIT-SUBJECT: clean") {
		t.Fatalf("-- forwards to the one member: exit %d %q", code, out)
	}
	if code, out := s.frontEnd(nil, "--only", "check-pass", "check-commit-subject", "--", "x"); code != 2 || !strings.Contains(out, "exactly one") {
		t.Fatalf("-- with two members: exit %d %q", code, out)
	}
	if code, out := s.frontEnd(nil, "--only"); code != 2 || !strings.Contains(out, "run-gates: --only needs at least one gate name") {
		t.Fatalf("empty --only: exit %d %q", code, out)
	}
	if code, out := s.frontEnd(nil, "--only", "--bogus"); code != 2 || !strings.Contains(out, "unrecognized option '--bogus'") {
		t.Fatalf("--only --bogus: exit %d %q", code, out)
	}
}

func TestSARIFFindingLandsAtFileAndLine(t *testing.T) {
	t.Parallel()
	s := batteryScratch(t)
	s.write("scripts/gates.list", "check-fail\n", 0o644)
	code, out := s.frontEnd([]string{"GATE_SDK_SARIF_FILE=" + s.dir + "/out.sarif"})
	data, err := os.ReadFile(s.dir + "/out.sarif")
	if code != 1 || err != nil {
		t.Fatalf("exit %d err %v\n%s", code, err, out)
	}
	text := string(data)
	if !strings.Contains(text, `"uri": "docs/a.md"`) || !strings.Contains(text, `"startLine": 1`) || !strings.Contains(text, `"ruleId": "check-fail"`) {
		t.Fatalf("finding not placed at docs/a.md:1:\n%s", text)
	}
	code, out = s.frontEnd([]string{"GATE_SDK_SARIF_FILE=/nonexistent/dir/x.sarif"})
	if code != 2 || !strings.Contains(out, "/nonexistent/dir/x.sarif") || !strings.Contains(out, "FAIL: check-fail") {
		t.Fatalf("unwritable SARIF path: exit %d\n%s", code, out)
	}
}

func TestFrontEndOutsideARepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := &scratch{t: t, dir: dir, env: cleanEnv(dir)}
	s.copyTree(moduleRoot+"/kits/gate-sdk/bin", dir+"/gate-sdk/bin")
	s.copyTree(moduleRoot+"/kits/gate-sdk/lib", dir+"/gate-sdk/lib")
	code, out := s.frontEnd(nil)
	if code != 2 || out != "run-gates: not inside a git repository\n" {
		t.Fatalf("exit %d %q", code, out)
	}
	code, out = s.run(nil, binPath, "--emit", "kit-roots")
	if code != 2 {
		t.Fatalf("--emit kit-roots outside a repository: exit %d %q", code, out)
	}
}
