package gates

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

const dumpSHA = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"

var execKnobs = gatetest.Knobs{
	"GATE_SDK_EXEC_GLOBS": "*/checks/*.sh */kpis/*.sh */bin/*.sh .gates/check-*.sh .gates/kpi-*.sh",
	"GATE_SDK_EXEC_PRUNE": "gate-tests fixtures templates smoke",
}

func dump(recs ...string) string {
	var b strings.Builder
	for _, r := range recs {
		mode, path, _ := strings.Cut(r, " ")
		b.WriteString(mode + " " + dumpSHA + " 0\t" + path + "\n")
	}
	return b.String()
}

func execRun(t *testing.T, dumpText string, tree gate.Tree) gatetest.Run {
	t.Helper()
	dir := t.TempDir()
	args := []string(nil)
	if dumpText != "" {
		writeFiles(t, dir, map[string]string{"ls-files.txt": dumpText})
		args = []string{"ls-files.txt"}
	}
	if tree == nil {
		tree = memTree(nil)
	}
	return run{rule: checkExecBit, name: "check-exec-bit", dir: dir, tree: tree, knobs: execKnobs, args: args}.exec()
}

func TestExecBitScripts(t *testing.T) {
	pass := []string{
		"100755 gate-sdk/checks/check-x.sh",
		"100644 gate-sdk/gate-tests/c/bad/checks/z.sh", // pruned segment
		"100644 gate-sdk/lib/gate.sh",                  // no glob
		"100644 gate-sdk/templates/bin/t.sh",           // pruned segment
		"100644 gate-sdk/checks/notes.txt",             // not a script
		"120000 gate-sdk/bin/link.sh",                  // a link is left to its target
		"100644 checks/x.sh",                           // */checks needs a leading segment
		"100644 gate-sdk/checks/check-x.gate",
		"100644 .gates/helper.sh",
	}
	got := execRun(t, dump(pass...), nil)
	wantCode(t, got, 0)
	wantOut(t, got, "EXEC-BIT: clean (1 scripts under the exec globs are 100755, 1 .gate descriptors are 100644)")

	red := []string{
		"100644 gate-sdk/checks/check-x.sh",
		"100644 drift-kit/kpis/kpi-y.sh",
		"100644 .gates/check-local.sh",
		"100644 .gates/kpi-z.sh",
		"100644 kits/gate-sdk/checks/x.sh", // '*' spans '/'
		"100644 a/b/bin/tool.sh",
	}
	for _, r := range red {
		got := execRun(t, dump(r), nil)
		wantCode(t, got, 1)
		path := strings.SplitN(r, " ", 2)[1]
		wantOut(t, got, path+": index mode 100644, a script under an exec glob must be 100755", "help: make each listed script executable")
	}
}

func TestExecBitOneClassAtATime(t *testing.T) {
	both := dump("100644 gate-sdk/checks/check-x.sh", "100755 gate-sdk/checks/check-y.gate")
	got := execRun(t, both, nil)
	wantCode(t, got, 1)
	wantOut(t, got, "gate-sdk/checks/check-x.sh: index mode 100644")
	wantNotOut(t, got, "check-y.gate", "descriptor is data")
	if strings.Count(got.Stdout, "help:") != 1 {
		t.Errorf("want one help line:\n%s", got.Stdout)
	}

	got = execRun(t, dump("100755 gate-sdk/checks/check-x.sh", "100755 gate-sdk/checks/check-y.gate", "100755 gate-tests/t/check-z.gate"), nil)
	wantCode(t, got, 1)
	wantOut(t, got, "gate-sdk/checks/check-y.gate: index mode 100755, a .gate descriptor must be 100644", "help: a .gate descriptor is data")
	// A descriptor under a pruned segment is fixture content, exempt like
	// a script there.
	wantNotOut(t, got, "check-z.gate")
	got = execRun(t, dump("100755 kits/k/gate-tests/check-a/bad/checks/check-a.gate", "100755 x/fixtures/y.gate"), nil)
	wantCode(t, got, 0)
	wantOut(t, got, "0 .gate descriptors are 100644")
}

// TestExecBitQuotedDump pins that the line form's C-quoted names are
// decoded: a quoted script is judged under its real name, and a quoted
// name that does not decode is refused naming the record.
func TestExecBitQuotedDump(t *testing.T) {
	got := execRun(t, dump(`100644 "gate-sdk/checks/new\nline.sh"`, `100644 "gate-sdk/checks/na\303\257ve.sh"`, `100755 "gate-sdk/checks/q\"x.gate"`), nil)
	wantCode(t, got, 1)
	wantOut(t, got, `"gate-sdk/checks/new\nline.sh": index mode 100644`, "gate-sdk/checks/naïve.sh: index mode 100644")
	fs := got.Ctx.Findings()
	if len(fs) != 2 || fs[0].Path != "gate-sdk/checks/new\nline.sh" {
		t.Errorf("findings %+v, want the decoded paths", fs)
	}
	got = execRun(t, dump(`100755 "gate-sdk/checks/q\"x.gate"`), nil)
	wantCode(t, got, 1)
	wantOut(t, got, `"gate-sdk/checks/q\"x.gate": index mode 100755`)
	for _, bad := range []string{`"open.sh`, `"x\q.sh"`, `"bad\377.sh"`} {
		got := execRun(t, dump("100644 "+bad), nil)
		wantCode(t, got, 2)
		if !strings.Contains(got.Stderr, "record 1") {
			t.Errorf("%s: stderr %q does not name the record", bad, got.Stderr)
		}
	}
}

func TestExecBitDumpForms(t *testing.T) {
	nul := strings.ReplaceAll(dump("100755 gate-sdk/checks/a b.sh", "100644 gate-sdk/checks/c.sh"), "\n", "\x00")
	got := execRun(t, nul, nil)
	wantCode(t, got, 1)
	wantOut(t, got, "gate-sdk/checks/c.sh: index mode 100644")
	wantNotOut(t, got, "a b.sh:")

	crlf := strings.ReplaceAll(dump("100644 x/bin/t.sh"), "\n", "\r\n")
	wantOut(t, execRun(t, crlf, nil), "x/bin/t.sh: index mode 100644")

	for _, bad := range []string{"100644 no-tab-here\n", "10064 " + dumpSHA + " 0\tx.sh\n", "100648 " + dumpSHA + " 0\tx.sh\n", "100644 " + dumpSHA + "\tx.sh\n", "100644 " + dumpSHA + " 0\t\n"} {
		got := execRun(t, bad, nil)
		wantCode(t, got, 2)
		if !strings.Contains(got.Stderr, "ls-files.txt: record 1") {
			t.Errorf("malformed dump %q: stderr %q does not name the record", bad, got.Stderr)
		}
	}
	got = run{rule: checkExecBit, name: "check-exec-bit", dir: t.TempDir(), tree: memTree(nil), knobs: execKnobs, args: []string{"missing.txt"}}.exec()
	wantCode(t, got, 2)
}

func TestExecBitLiveIndex(t *testing.T) {
	tree := memTree(map[string]string{"k/checks/a.sh": "", "k/checks/b.gate": "", "k/lib/c.sh": ""})
	tree.Modes["k/checks/a.sh"] = 0o100755
	got := execRun(t, "", tree)
	wantCode(t, got, 0)
	tree.Modes["k/checks/a.sh"] = 0o100644
	got = execRun(t, "", tree)
	wantCode(t, got, 1)
	wantOut(t, got, "k/checks/a.sh: index mode 100644")
	wantCode(t, execRun(t, "", errTree{}), 2)
}

// TestExecBitDumpFromGit feeds the gate git's own newline dump of names
// git quotes, and holds the verdict equal to the one over the live index.
func TestExecBitDumpFromGit(t *testing.T) {
	names := []string{"x/bin/new\nline.sh", "x/bin/tab\there.sh", "x/bin/naïve.sh", `x/bin/back\slash.sh`}
	files := map[string]string{}
	for _, n := range names {
		files[n] = "#!/bin/sh\n"
	}
	dir := scratchRepo(t, files, nil)
	dumpText := git(t, dir, "ls-files", "-s")
	if !strings.Contains(dumpText, `"x/bin/new\nline.sh"`) {
		t.Fatalf("git did not quote the name: %q", dumpText)
	}
	writeFiles(t, dir, map[string]string{"ls-files.txt": dumpText})
	fromDump := run{rule: checkExecBit, name: "check-exec-bit", dir: dir, tree: memTree(nil), knobs: execKnobs, args: []string{"ls-files.txt"}}.exec()
	live := run{rule: checkExecBit, name: "check-exec-bit", dir: dir, tree: diskTree(t, dir), knobs: execKnobs}.exec()
	wantCode(t, fromDump, 1)
	if fromDump.Stdout != live.Stdout {
		t.Errorf("dump verdict:\n%s\nlive verdict:\n%s", fromDump.Stdout, live.Stdout)
	}
	if n := strings.Count(fromDump.Stdout, "index mode 100644"); n != len(names) {
		t.Errorf("want %d findings, got:\n%s", len(names), fromDump.Stdout)
	}
}
