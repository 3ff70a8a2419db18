package battery

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseContractReadsAShellGatesOutput(t *testing.T) {
	out := "docs/a.md:3: bad word\nsrc/x.go:4:7: tab here\nloose line with no place\nhelp: remove the bad word\nhelp: and the tab\n"
	got := ParseContract([]byte(out))
	if len(got) != 3 {
		t.Fatalf("%d findings: %+v", len(got), got)
	}
	want := []Finding{
		{Path: "docs/a.md", Line: 3, Class: "finding", Message: "bad word", Text: "docs/a.md:3: bad word"},
		{Path: "src/x.go", Line: 4, Column: 7, Class: "finding", Message: "tab here", Text: "src/x.go:4:7: tab here"},
		{Class: "finding", Message: "loose line with no place", Text: "loose line with no place"},
	}
	for i := range want {
		want[i].Help = "remove the bad word; and the tab"
		if got[i] != want[i] {
			t.Errorf("finding %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if f := ParseContract([]byte("PASS: clean (1 file)\n")); len(f) != 0 {
		t.Fatalf("a clean line is no finding: %+v", f)
	}
	for line, clean := range map[string]bool{"X: clean (a)": true, "TREE-TERMS: clean": true, "a b: clean (x)": false, "docs/x.md: clean (x)": false, "X: cleanly": false} {
		if isCleanLine(line) != clean {
			t.Errorf("isCleanLine(%q) != %v", line, clean)
		}
	}
}

func TestDocumentVerdictsAndFindings(t *testing.T) {
	vs := []Verdict{
		{Member: Member{Name: "check-a"}, Outcome: Outcome{Code: 1, Structured: true, Output: []byte("a.md:1: x\nhelp: h\n"),
			Findings: []Finding{{Path: "a.md", Line: 1, Class: "c", Message: "x", Help: "h", Text: "a.md:1: x"}}}},
		{Member: Member{Name: "check-b"}, Outcome: Outcome{Code: 0, Output: []byte("B: clean (1)\n")}},
		{Member: Member{Name: "check-c"}, Outcome: Outcome{Code: 2, Output: []byte("check-c: cannot read x\n")}},
		{Member: Member{Name: "check-d", Unresolved: true}, Outcome: Outcome{Code: 2, Output: []byte("gates.list:4: check-d resolves to nothing\n")}},
	}
	doc := Document(vs, nil, strings.ToUpper)
	if doc.Verdict != "failed" || doc.Exit != 1 || doc.Summary != "3 of 4 gates FAILED: check-a check-c check-d" {
		t.Fatalf("%+v", doc)
	}
	verdicts := []string{}
	for _, g := range doc.Gates {
		verdicts = append(verdicts, g.Verdict)
	}
	if strings.Join(verdicts, " ") != "failed passed could-not-run could-not-run" {
		t.Fatalf("verdicts %q", verdicts)
	}
	if len(doc.Findings) != 3 || doc.Findings[0].ID != "CHECK-A" || doc.Findings[1].Class != CouldNotRun || doc.Findings[1].Message != "check-c: cannot read x" {
		t.Fatalf("findings %+v", doc.Findings)
	}
	data, err := Marshal(doc)
	if err != nil || !json.Valid(data) || !strings.HasSuffix(string(data), "}\n") {
		t.Fatalf("%v %s", err, data)
	}
	green := Document(vs[1:2], nil, strings.ToUpper)
	if green.Verdict != "passed" || green.Exit != 0 || len(green.Findings) != 0 || green.Findings == nil {
		t.Fatalf("green %+v", green)
	}
}

// SARIF places a structured member from its findings, not its text.
func TestSARIFPlacesStructuredFindings(t *testing.T) {
	v := Verdict{Member: Member{Name: "check-a"}, Outcome: Outcome{Code: 1, Structured: true,
		Output:   []byte("a.md:12:34:line text\nhelp: h\n"),
		Findings: []Finding{{Path: "a.md", Line: 12, Class: "leak", Message: "34:line text", Text: "a.md:12:34:line text"}}}}
	data, err := SARIF([]Verdict{v}, SARIFInput{Registry: "scripts/gates.list", IsFile: func(string) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"startLine": 12`) || strings.Contains(string(data), `"startColumn"`) {
		t.Fatalf("a line reading 34:... is no column:\n%s", data)
	}
}

func FuzzParseContract(f *testing.F) {
	f.Add("a.md:1: x\nhelp: y\n")
	f.Add("X: clean (1)\n")
	f.Add("p:1:2:3: odd\n\n\nhelp: \n")
	f.Fuzz(func(t *testing.T, out string) {
		got := ParseContract([]byte(out))
		var want int
		for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if line != "" && !strings.HasPrefix(line, "help: ") && !isCleanLine(line) {
				if got[want].Text != line {
					t.Fatalf("finding %d text %q, line %q", want, got[want].Text, line)
				}
				want++
			}
		}
		if len(got) != want {
			t.Fatalf("%d findings for %d finding lines", len(got), want)
		}
	})
}

// A member's accepted findings are in the document, marked, and counted
// apart from the ones that red it, green or red.
func TestDocumentMarksAcceptedFindings(t *testing.T) {
	accepted := Finding{Path: "a", Line: 1, Class: "c", Message: "old", Text: "a:1: old", Accepted: true}
	fresh := Finding{Path: "a", Line: 2, Class: "c", Message: "new", Text: "a:2: new"}
	doc := Document([]Verdict{
		{Member: Member{Name: "check-green"}, Outcome: Outcome{Code: 0, Structured: true, Findings: []Finding{accepted}}},
		{Member: Member{Name: "check-red"}, Outcome: Outcome{Code: 1, Structured: true, Findings: []Finding{accepted, fresh}}},
	}, nil, func(n string) string { return n })
	if g := doc.Gates[0]; g.Verdict != "passed" || g.Findings != 0 || g.Accepted != 1 {
		t.Errorf("green gate: %+v", g)
	}
	if g := doc.Gates[1]; g.Verdict != "failed" || g.Findings != 1 || g.Accepted != 1 {
		t.Errorf("red gate: %+v", g)
	}
	var marks []bool
	for _, f := range doc.Findings {
		marks = append(marks, f.Accepted)
	}
	if len(marks) != 3 || !marks[0] || !marks[1] || marks[2] {
		t.Fatalf("findings' accepted marks %v, want [true true false]", marks)
	}
}
