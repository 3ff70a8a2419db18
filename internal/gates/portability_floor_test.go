package gates

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

func pfRun(t *testing.T, dir string, knobs gatetest.Knobs, kitRoots []string, args ...string) gatetest.Run {
	t.Helper()
	k := gatetest.Knobs{"GATE_SDK_PORTABILITY_PATTERNS": "scripts/portability-patterns.list", "GATE_SDK_PORTABILITY_PATHS": "install"}
	for n, v := range knobs {
		k[n] = v
	}
	return run{rule: checkPortabilityFloor, name: "check-portability-floor", dir: dir, tree: diskTree(t, dir), knobs: k, kitRoots: kitRoots, args: args}.exec()
}

const printfLine = "find . -type f -printf '%p\\n'"

func TestPortabilityRoster(t *testing.T) {
	dir := scratchRepo(t, map[string]string{
		"scripts/portability-patterns.list": "# banned\n\nfind .* -printf\n",
		"install/good.sh": "#!/bin/sh\n" + printfLine + " # portability-declared: GNU path, guarded\n" +
			"# portability-declared: only on the GNU branch\n" + printfLine + "\nls\n",
		"install/bad.sh": "#!/bin/sh\n" + printfLine + "\n" +
			printfLine + " # portability-declared:\n" +
			"# portability-declared: too far\n\n" + printfLine + "\n",
		"install/blob.bin":                                "\x00" + printfLine,
		"kit/templates/portability-patterns.list":         printfLine + "\n",
		"install/kit/templates/portability-patterns.list": printfLine + "\n",
		"elsewhere/x.sh":                                  printfLine + "\n",
	}, nil)
	got := pfRun(t, dir, nil, []string{"install/kit"})
	wantCode(t, got, 1)
	wantOut(t, got,
		"install/bad.sh:2:"+printfLine+" (undeclared construct find .* -printf)",
		"install/bad.sh:3:"+printfLine+" # portability-declared: (undeclared",
		"install/bad.sh:6:"+printfLine+" (undeclared",
		"help: rewrite the line")
	wantNotOut(t, got, "good.sh", "elsewhere", "templates/", "blob.bin")
	if n := strings.Count(got.Stdout, "install/bad.sh:"); n != 3 {
		t.Errorf("%d findings in bad.sh, want 3:\n%s", n, got.Stdout)
	}

	// Clean: the bad file gone from the corpus by pathspec; the binary counted.
	got = pfRun(t, dir, gatetest.Knobs{"GATE_SDK_PORTABILITY_PATHS": "install :(exclude)install/bad.sh"}, []string{"install/kit"})
	wantCode(t, got, 0)
	wantOut(t, got, "PORTABILITY-FLOOR: clean (1 files hold no undeclared construct of 1 patterns; 0 PowerShell members ASCII outside comments; 1 binary members skipped)")
}

func TestPortabilityASCII(t *testing.T) {
	dash := "\u2014"
	dir := scratchRepo(t, map[string]string{
		"install/Setup.PS1": "# note " + dash + " ok\n" +
			"Write-Host \"done " + dash + " ok\"\n" +
			"Write-Host \"x\" # " + dash + "\n" +
			"$s = @\"\n# " + dash + " inside a here-string\n\"@\n" +
			"  # indented comment " + dash + "\n" +
			"<# block " + dash + " #>\n",
		"install/bom.ps1":   "\ufeff# a comment after a BOM\n",
		"install/clean.ps1": "# only comments " + dash + "\nWrite-Host 'x'\n$h = @'\nplain\n'@\n",
		"install/other.sh":  "echo " + dash + "\n",
	}, nil)
	// No roster file at all: the roster arm is off, the ASCII arm still runs.
	got := pfRun(t, dir, nil, nil)
	wantCode(t, got, 1)
	wantOut(t, got,
		"install/Setup.PS1:2:Write-Host \"done "+dash+" ok\" (non-ASCII outside a comment)",
		"install/Setup.PS1:3:",
		"install/Setup.PS1:5:# "+dash+" inside a here-string (non-ASCII",
		"install/Setup.PS1:8:<# block",
		"install/bom.ps1:1:",
		"help: spell the character by code point")
	wantNotOut(t, got, "Setup.PS1:1:", "Setup.PS1:7:", "clean.ps1", "other.sh")

	got = pfRun(t, dir, gatetest.Knobs{"GATE_SDK_PORTABILITY_PATHS": "install/clean.ps1 install/other.sh"}, nil)
	wantCode(t, got, 0)
	wantOut(t, got, "PORTABILITY-FLOOR: clean (roster arm off: no portability pattern in scripts/portability-patterns.list (absent); 2 files; 1 PowerShell members ASCII outside comments; 0 binary members skipped)")
}

func TestPortabilityPostures(t *testing.T) {
	dir := scratchRepo(t, map[string]string{"install/a.sh": "sed -i s/a/b/ f\n", "scripts/portability-patterns.list": "sed -i\n"}, nil)
	// An empty corpus: both arms off, said in its own sentence.
	got := pfRun(t, dir, gatetest.Knobs{"GATE_SDK_PORTABILITY_PATHS": ""}, nil)
	wantCode(t, got, 0)
	wantOut(t, got, "PORTABILITY-FLOOR: clean (no corpus configured: GATE_SDK_PORTABILITY_PATHS is empty, both arms off)")
	// The same knobs, set, find it.
	got = pfRun(t, dir, nil, nil)
	wantCode(t, got, 1)
	wantOut(t, got, "install/a.sh:1:sed -i s/a/b/ f (undeclared construct sed -i)")
	// Empty roster: roster arm off.
	writeFiles(t, dir, map[string]string{"empty.list": "# none\n"})
	got = pfRun(t, dir, nil, nil, "empty.list")
	wantCode(t, got, 0)
	wantOut(t, got, "roster arm off: no portability pattern in empty.list (empty)")
	// GNU escape: exit 2. Unreadable pattern file: exit 2.
	writeFiles(t, dir, map[string]string{"gnu.list": "\\bsed -i\n", "dir.list/x": ""})
	got = pfRun(t, dir, nil, nil, "gnu.list")
	wantCode(t, got, 2)
	if !strings.Contains(got.Stderr, `\bsed -i`) || !strings.Contains(got.Stderr, "gnu.list:1") {
		t.Errorf("GNU refusal: %q", got.Stderr)
	}
	wantCode(t, pfRun(t, dir, gatetest.Knobs{"GATE_SDK_PORTABILITY_PATTERNS": "dir.list"}, nil), 2)
	// Outside a repository: exit 2.
	out := nonRepoDir(t)
	got = run{rule: checkPortabilityFloor, name: "check-portability-floor", dir: out, tree: errTree{},
		knobs: gatetest.Knobs{"GATE_SDK_PORTABILITY_PATHS": "install"}}.exec()
	wantCode(t, got, 2)
}

func TestPsCodeLines(t *testing.T) {
	lines := splitLines([]byte("# c\ncode @\"\n# in\n\"@\n# after\n  x @'  \n'@ tail\n# c2\n"))
	want := []bool{false, true, true, true, false, true, true, false}
	got := psCodeLines(lines)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d %q: code=%v, want %v", i+1, lines[i], got[i], want[i])
		}
	}
}

// TestPortabilityCRLFCopy: a script checked out with CRLF endings is judged
// as its LF form, so a pattern ending in ([[:blank:]]|$) still finds `tac`
// at the end of a line, and the finding quotes the line without its \r.
func TestPortabilityCRLFCopy(t *testing.T) {
	pattern := "(^|[^A-Za-z0-9_-])tac([[:blank:]]|$)\n"
	lf := "#!/bin/sh\nprintf 'a\\nb\\n' | tac\n"
	dir := scratchRepo(t, map[string]string{
		"scripts/portability-patterns.list": pattern,
		"install/lf.sh":                     lf,
		"install/crlf.sh":                   strings.ReplaceAll(lf, "\n", "\r\n"),
	}, nil)
	got := pfRun(t, dir, nil, nil)
	wantCode(t, got, 1)
	wantOut(t, got,
		"install/lf.sh:2:printf 'a\\nb\\n' | tac (undeclared construct",
		"install/crlf.sh:2:printf 'a\\nb\\n' | tac (undeclared construct")
	if strings.Contains(got.Stdout, "\r") {
		t.Errorf("a finding carries the carriage return:\n%q", got.Stdout)
	}
}
