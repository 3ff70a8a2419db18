package battery

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func validate(t *testing.T, data []byte) map[string]any {
	t.Helper()
	f, err := os.Open("../../testdata/sarif/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF log does not validate against 2.1.0: %v\n%s", err, data)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func results(t *testing.T, log map[string]any) []map[string]any {
	runs := log["runs"].([]any)
	res := runs[0].(map[string]any)["results"].([]any)
	var out []map[string]any
	for _, r := range res {
		out = append(out, r.(map[string]any))
	}
	return out
}

func location(r map[string]any) (string, float64) {
	loc := r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	uri := loc["artifactLocation"].(map[string]any)["uri"].(string)
	line := 0.0
	if reg, ok := loc["region"].(map[string]any); ok {
		line = reg["startLine"].(float64)
	}
	return uri, line
}

func TestSARIFFindingLineLandsAtFileAndLine(t *testing.T) {
	verdicts := []Verdict{
		{Member: Member{Name: "check-a", Line: 3, Spec: "gate-sdk/SPEC.md §check-a — a holds"}, Outcome: Outcome{Code: 1, Output: []byte("docs/a.md:12: bad word\nnowhere.md:1: x\nhelp: fix it\n")}},
		{Member: Member{Name: "check-b", Line: 4}, Outcome: Outcome{Code: 0}},
		{Member: Member{Name: "check-c", Line: 5}, Outcome: Outcome{Code: 2, Output: []byte("check-c: cannot read x\n")}},
		{Member: Member{Name: "check-d", Line: 6, Unresolved: true}},
	}
	data, err := SARIF(verdicts, SARIFInput{
		Registry: "scripts/gates.list",
		Spec:     func(m Member) string { return m.Spec },
		IsFile:   func(p string) bool { return p == "docs/a.md" },
	})
	if err != nil {
		t.Fatal(err)
	}
	res := results(t, validate(t, data))
	if len(res) != 3 {
		t.Fatalf("want 3 results (one placed finding, two registry-line results), got %d:\n%s", len(res), data)
	}
	if uri, line := location(res[0]); uri != "docs/a.md" || line != 12 || res[0]["ruleId"] != "check-a" {
		t.Fatalf("finding landed at %s:%v rule %v", uri, line, res[0]["ruleId"])
	}
	if uri, line := location(res[1]); uri != "scripts/gates.list" || line != 5 {
		t.Fatalf("an unplaceable red should land at its registry line, got %s:%v", uri, line)
	}
	if uri, line := location(res[2]); uri != "scripts/gates.list" || line != 6 {
		t.Fatalf("unresolved member should land at its registry line, got %s:%v", uri, line)
	}
	if !strings.Contains(string(data), "a holds") {
		t.Fatalf("rule description missing the invariant:\n%s", data)
	}
}

func TestSARIFGreenRunHasEmptyResults(t *testing.T) {
	data, err := SARIF([]Verdict{{Member: Member{Name: "check-a", Line: 1}}}, SARIFInput{Registry: "scripts/gates.list"})
	if err != nil {
		t.Fatal(err)
	}
	log := validate(t, data)
	if res := log["runs"].([]any)[0].(map[string]any)["results"].([]any); len(res) != 0 {
		t.Fatalf("green run must carry an empty result set, got %v", res)
	}
}

// TestSARIFStructuredFindingKeepsTheRealPath pins that an in-process
// finding is placed at its real path even where the text line quotes it
// (a name holding a newline), never at the registry.
func TestSARIFStructuredFindingKeepsTheRealPath(t *testing.T) {
	name := "docs/evil\nname.md"
	verdicts := []Verdict{{Member: Member{Name: "check-a", Line: 3}, Outcome: Outcome{Code: 1,
		Output:     []byte("\"docs/evil\\nname.md\":2:leak\nhelp: fix it\n"),
		Structured: true,
		Findings:   []Finding{{Path: name, Line: 2, Class: "leak", Text: "\"docs/evil\\nname.md\":2:leak"}}}}}
	data, err := SARIF(verdicts, SARIFInput{Registry: "scripts/gates.list", IsFile: func(p string) bool { return p == name }})
	if err != nil {
		t.Fatal(err)
	}
	res := results(t, validate(t, data))
	if len(res) != 1 {
		t.Fatalf("want one result, got %d:\n%s", len(res), data)
	}
	if uri, line := location(res[0]); uri != "docs/evil%0Aname.md" || line != 2 {
		t.Fatalf("finding landed at %q:%v, want the real path at line 2", uri, line)
	}
}

// TestSARIFCarriesTheToolVersionAndPlacesEntries: the driver names its
// version, and a finding about a whole file or a top-level directory (no
// line: check-root-tiering's) is placed at that entry, not the registry.
func TestSARIFCarriesTheToolVersionAndPlacesEntries(t *testing.T) {
	verdicts := []Verdict{{Member: Member{Name: "check-root-tiering", Line: 9}, Outcome: Outcome{Code: 1,
		Output:     []byte("scratch: tracked top-level entry is not on the root allowlist\nnotes.txt: same\nhelp: allowlist it\n"),
		Structured: true,
		Findings: []Finding{
			{Path: "scratch", Class: "entry", Text: "scratch: tracked top-level entry is not on the root allowlist"},
			{Path: "notes.txt", Class: "entry", Text: "notes.txt: same"},
		}}}}
	data, err := SARIF(verdicts, SARIFInput{
		Registry: "scripts/gates.list",
		IsFile:   func(p string) bool { return p == "notes.txt" },
		IsDir:    func(p string) bool { return p == "scratch" },
		Version:  "v1.2.0+abc",
	})
	if err != nil {
		t.Fatal(err)
	}
	log := validate(t, data)
	driver := log["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any)
	if driver["version"] != "v1.2.0+abc" {
		t.Errorf("tool.driver.version = %v", driver["version"])
	}
	res := results(t, log)
	if len(res) != 2 {
		t.Fatalf("want a result per entry, got %d:\n%s", len(res), data)
	}
	if uri, line := location(res[0]); uri != "scratch/" || line != 0 {
		t.Errorf("the directory entry landed at %s:%v", uri, line)
	}
	if uri, line := location(res[1]); uri != "notes.txt" || line != 0 {
		t.Errorf("the file entry landed at %s:%v", uri, line)
	}
}

// TestSummaryCountsInTheRightNumber: one member is "gate", not "gates".
func TestSummaryCountsInTheRightNumber(t *testing.T) {
	one := []Verdict{{Member: Member{Name: "check-a"}}}
	if got := Summary(one); got != "The 1 gate passed." {
		t.Errorf("one green member: %q", got)
	}
	two := []Verdict{{Member: Member{Name: "check-a"}}, {Member: Member{Name: "check-b"}}}
	if got := Summary(two); got != "All 2 gates passed." {
		t.Errorf("two green members: %q", got)
	}
	one[0].Outcome.Code = 1
	if got := Summary(one); got != "1 of 1 gate FAILED: check-a" {
		t.Errorf("one red member: %q", got)
	}
}

// An accepted finding is a suppressed result whose baseline state is
// unchanged, a green member's included; every other result is new. The
// log still validates against the 2.1.0 schema.
func TestSARIFMarksAcceptedFindings(t *testing.T) {
	accepted := Finding{Path: "ci.yml", Line: 3, Class: "unpinned", Message: "old", Text: "ci.yml:3: old", Accepted: true}
	fresh := Finding{Path: "ci.yml", Line: 9, Class: "unpinned", Message: "new", Text: "ci.yml:9: new"}
	verdicts := []Verdict{
		{Member: Member{Name: "check-green", Line: 1}, Outcome: Outcome{Code: 0, Structured: true, Findings: []Finding{accepted}}},
		{Member: Member{Name: "check-red", Line: 2}, Outcome: Outcome{Code: 1, Structured: true, Findings: []Finding{accepted, fresh}}},
		{Member: Member{Name: "check-clean", Line: 3}, Outcome: Outcome{Code: 0, Structured: true}},
	}
	data, err := SARIF(verdicts, SARIFInput{Registry: "scripts/gates.list", IsFile: func(string) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	log := validate(t, data)
	run := log["runs"].([]any)[0].(map[string]any)
	results := run["results"].([]any)
	got := map[string]int{}
	for _, r := range results {
		res := r.(map[string]any)
		state, _ := res["baselineState"].(string)
		sup, _ := res["suppressions"].([]any)
		key := res["ruleId"].(string) + " " + state
		got[key]++
		external := len(sup) == 1 && sup[0].(map[string]any)["kind"] == "external"
		if (state == "unchanged") != external {
			t.Errorf("%s: baselineState %q with suppressions %v", key, state, sup)
		}
	}
	want := map[string]int{"check-green unchanged": 1, "check-red unchanged": 1, "check-red new": 1}
	if len(got) != len(want) {
		t.Fatalf("results %v, want %v\n%s", got, want, data)
	}
	for k, n := range want {
		if got[k] != n {
			t.Fatalf("results %v, want %v\n%s", got, want, data)
		}
	}
}
