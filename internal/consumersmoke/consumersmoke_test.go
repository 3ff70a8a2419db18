package consumersmoke

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const transcript = `===== check-a =====
a.yml:3: bad pin
help: pin it
  FAIL: check-a (exit 1)
    spec: gate-sdk/SPEC.md §check-a — every pin is a SHA
===== check-b =====
b.md:1: nope
  FAIL: check-b (exit 1)
===== check-c =====
  FAIL: check-cc (exit 2)
===== check-d =====
2 of 4 gates FAILED: check-a check-b
`

func TestExcerpt(t *testing.T) {
	cases := []struct {
		gate string
		want string
		ok   bool
	}{
		{"check-a", "===== check-a =====\na.yml:3: bad pin\nhelp: pin it\n  FAIL: check-a (exit 1)\n    spec: gate-sdk/SPEC.md §check-a — every pin is a SHA\n", true},
		{"check-b", "===== check-b =====\nb.md:1: nope\n  FAIL: check-b (exit 1)\n", true},
		{"check-c", "", false}, // its block holds another gate's verdict only; the next block never joins
		{"check-d", "", false},
		{"check-z", "", false},
	}
	for _, c := range cases {
		got, ok := Excerpt([]byte(transcript), c.gate)
		if got != c.want || ok != c.ok {
			t.Errorf("Excerpt(%s) = %q, %v; want %q, %v", c.gate, got, ok, c.want, c.ok)
		}
	}
}

func TestVerdictReaders(t *testing.T) {
	if !Green(0, []byte("x\nAll 7 gates passed.\n")) || Green(1, []byte("All 7 gates passed.\n")) || Green(0, []byte("All gates passed.\n")) {
		t.Error("Green misreads the token")
	}
	if GreenToken([]byte("a\nAll 3 gates passed.\nb")) != "All 3 gates passed." {
		t.Error("GreenToken")
	}
	if !Green(0, []byte("The 1 gate passed.\n")) || Green(0, []byte("The 2 gate passed.\n")) {
		t.Error("Green misreads the one-member token")
	}
	if !FailLine([]byte(transcript), "check-b") || FailLine([]byte(transcript), "check-c") || FailLine([]byte(transcript), "check") {
		t.Error("FailLine matches a prefix of a name or misses one")
	}
	if got := strings.Join(FailedGates([]byte(transcript)), " "); got != "check-a check-b check-cc" {
		t.Errorf("FailedGates = %q", got)
	}
}

func TestSARIFHasRule(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.sarif")
	os.WriteFile(p, []byte(`{"version":"2.1.0","runs":[{"results":[{"ruleId":"check-a"}]}]}`), 0o644)
	if ok, err := SARIFHasRule(p, "check-a"); !ok || err != nil {
		t.Errorf("check-a: %v %v", ok, err)
	}
	if ok, _ := SARIFHasRule(p, "check-b"); ok {
		t.Error("check-b found")
	}
	os.WriteFile(p, []byte(`not json`), 0o644)
	if _, err := SARIFHasRule(p, "check-a"); err == nil {
		t.Error("a broken log read as fine")
	}
}

func TestScratchEnv(t *testing.T) {
	env := ScratchEnv([]string{"PATH=/bin", "GATE_SDK_ROOT=kits/gate-sdk", "GATE_SDK_NATIVE_BIN=/x", "GIT_DIR=/r/.git",
		"GIT_INDEX_FILE=/r/.git/index", "GIT_AUTHOR_NAME=me", "SMOKE_KIT_ROOT=/k", "HOME=/h"})
	got := strings.Join(env, " ")
	for _, gone := range []string{"GATE_SDK_", "GIT_DIR", "GIT_INDEX_FILE", "GIT_AUTHOR_NAME=me", "SMOKE_KIT_ROOT"} {
		if strings.Contains(got, gone) {
			t.Errorf("%s leaked into the scratch env: %s", gone, got)
		}
	}
	for _, kept := range []string{"PATH=/bin", "HOME=/h", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_COMMITTER_EMAIL="} {
		if !strings.Contains(got, kept) {
			t.Errorf("%s missing from the scratch env: %s", kept, got)
		}
	}
}

func world(t *testing.T, roots ...string) (World, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	dir := t.TempDir()
	return World{Dir: dir, Stdout: &out, Stderr: &errb,
		KitRoots:  func() ([]string, error) { return roots, nil },
		NativeBin: func() (string, error) { return "bin/gates", nil }}, &out, &errb
}

func TestRunSmokeRefusals(t *testing.T) {
	kit, other := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(kit, "smoke"), 0o755)
	os.WriteFile(filepath.Join(kit, "smoke/install.sh"), nil, 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--keep", "--bogus"}, `run-consumer-smoke: unknown option "--bogus"`},
		{[]string{filepath.Join(kit, "nope")}, "is not a directory"},
		{[]string{other}, "ships no smoke/install.sh"},
	}
	for _, c := range cases {
		w, out, errb := world(t, kit)
		if code := RunSmoke(c.args, w); code != 2 || !strings.Contains(errb.String(), c.want) || out.Len() != 0 {
			t.Errorf("%v: code %d stderr %q stdout %q", c.args, code, errb.String(), out.String())
		}
	}
}

func TestRunDemoUsage(t *testing.T) {
	w, out, errb := world(t)
	if code := RunDemo([]string{"--keep"}, w); code != 2 || errb.String() != DemoUsage+"\n" || out.Len() != 0 {
		t.Fatalf("code %d stderr %q", code, errb.String())
	}
}

func TestGateDescriptors(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(a, "checks/sub"), 0o755)
	for _, f := range []string{"checks/x.gate", "checks/y.gate", "checks/z.sh", "checks/sub/w.gate"} {
		os.WriteFile(filepath.Join(a, f), nil, 0o644)
	}
	n, err := GateDescriptors([]string{a, b})
	if err != nil || n != 2 {
		t.Fatalf("GateDescriptors = %d, %v; want 2", n, err)
	}
}

// accountingScratch builds a scratch by hand: one kit "kit" whose checks
// are shell gates with given exit codes, its install.sh carrying valves,
// and the host checkout's copy of the same kit with other exit codes.
func accountingScratch(t *testing.T, scratchCodes, hostCodes map[string]int, registered []string, valves string) (*Scratch, Host) {
	t.Helper()
	mk := func(root string, codes map[string]int) {
		os.MkdirAll(filepath.Join(root, "kit/checks"), 0o755)
		os.MkdirAll(filepath.Join(root, "kit/smoke"), 0o755)
		for name, code := range codes {
			body := "#!/bin/sh\n# graph: couples=x dir=one valve=none tier=precommit\n# install: zero-config\nexit " + string(rune('0'+code)) + "\n"
			os.WriteFile(filepath.Join(root, "kit/checks", name+".sh"), []byte(body), 0o755)
		}
		os.WriteFile(filepath.Join(root, "kit/smoke/install.sh"), []byte(valves), 0o644)
	}
	sdir, hdir := t.TempDir(), t.TempDir()
	mk(sdir, scratchCodes)
	mk(hdir, hostCodes)
	os.MkdirAll(filepath.Join(sdir, "scripts"), 0o755)
	os.WriteFile(filepath.Join(sdir, "scripts/gates.list"), []byte(strings.Join(registered, "\n")+"\n"), 0o644)
	s := &Scratch{Dir: sdir, Kits: []string{"kit"}, Env: os.Environ(), Bin: filepath.Join(sdir, "bin/gates"), SdkAt: "kit"}
	return s, Host{Top: hdir, Bin: filepath.Join(hdir, "bin/gates"), Roots: []string{filepath.Join(hdir, "kit")}, Environ: os.Environ()}
}

func TestAccount(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	s, h := accountingScratch(t,
		map[string]int{"check-reg": 0, "check-absent": 2, "check-broken": 2, "check-green": 0, "check-red": 1, "check-valved": 0},
		map[string]int{"check-reg": 0, "check-absent": 0, "check-broken": 2, "check-green": 0, "check-red": 1, "check-valved": 0},
		[]string{"check-reg"},
		"# smoke-unregistered: check-valved \u2014 passes vacuously here\n"+
			"# smoke-unregistered: check-reg \u2014 stale: it is registered\n"+
			"# smoke-unregistered: check-absent \u2014 stale: the probe exempts it\n"+
			"# smoke-unregistered: check-nowhere \u2014 stale: not shipped\n"+
			"# smoke-unregistered: check-noreason\n")
	a, err := Account(s, h)
	if err != nil {
		t.Fatal(err)
	}
	if a.Probed != 5 || a.Self != 1 || a.Hand != 1 || a.Unaccounted != 3 || a.Registered != 1 {
		t.Fatalf("counts: %+v", a)
	}
	all := strings.Join(a.Findings, "\n")
	for _, want := range []string{"check-broken (kit) ships unregistered", "check-green (kit)", "check-red (kit)",
		"stale # smoke-unregistered: check-reg", "check-absent is owed no reason", "check-nowhere: kit ships no such gate", "needs both fields"} {
		if !strings.Contains(all, want) {
			t.Errorf("findings lack %q:\n%s", want, all)
		}
	}
	if len(a.Notes) != 1 || !strings.Contains(a.Notes[0], "check-absent") {
		t.Errorf("zero-config contradiction not noted: %v", a.Notes)
	}
	if !strings.HasPrefix(a.Line(), "CONSUMER-SMOKE: accounting \u2014 5 unregistered gate(s) probed in ") ||
		!strings.HasSuffix(a.Line(), "(1 self-declared, 1 hand-declared, 3 unaccounted)") {
		t.Errorf("line %q", a.Line())
	}
}

func TestAccountGateProbeNeedsBinary(t *testing.T) {
	s, h := accountingScratch(t, nil, nil, nil, "")
	os.WriteFile(filepath.Join(s.Dir, "kit/checks/check-x.gate"), []byte("# graph: couples=x dir=one valve=none tier=precommit\n"), 0o644)
	_, err := Account(s, h)
	if err == nil || !strings.Contains(err.Error(), s.Bin) {
		t.Fatalf("err = %v, want an environment failure naming %s", err, s.Bin)
	}
}
