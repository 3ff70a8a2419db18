package battery

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// runWithin runs the members and fails the test when the battery has not
// answered in time (a pool that can start nothing never answers).
func runWithin(t *testing.T, members []Member, opts Options) []Verdict {
	t.Helper()
	done := make(chan []Verdict, 1)
	go func() { done <- Run(members, opts) }()
	select {
	case v := <-done:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("the battery with %d job(s) did not answer in 10 s", opts.Jobs)
		return nil
	}
}

// Issue 42 item 19: a worker count below one runs on one worker, and a
// count of two runs two members at once (each here waits for the other
// to have started).
func TestJobsBoundThePool(t *testing.T) {
	quick := Member{Name: "check-q", Exec: func(context.Context, string) Outcome { return Outcome{Output: []byte("Q: clean (x)\n")} }}
	for _, jobs := range []int{0, -3} {
		if v := runWithin(t, []Member{quick, quick}, Options{Jobs: jobs}); v[0].Code != 0 || v[1].Code != 0 || string(v[1].Output) != "Q: clean (x)\n" {
			t.Errorf("jobs %d: verdicts %+v", jobs, v)
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	pair := Member{Name: "check-pair", Exec: func(context.Context, string) Outcome {
		wg.Done()
		wg.Wait()
		return Outcome{}
	}}
	if v := runWithin(t, []Member{pair, pair}, Options{Jobs: 2}); v[0].Code != 0 || v[1].Code != 0 {
		t.Errorf("two jobs: verdicts %+v", v)
	}
}

// Issue 42 item 19: a member refused before it could run is exit 2 with
// its reason on one line, a member with nothing to run and no reason is
// an empty pass, and a scratch directory that cannot be made is the
// member's exit 2 naming it, while one that can is handed to the member.
func TestHarnessAndScratchOutcomes(t *testing.T) {
	ran := false
	refused := Member{Name: "check-r", Harness: "gates.list:3: ambiguous\n\n", Exec: func(context.Context, string) Outcome {
		ran = true
		return Outcome{}
	}}
	v := Run([]Member{refused, {Name: "check-empty"}}, Options{Jobs: 1})
	if ran || v[0].Code != 2 || string(v[0].Output) != "gates.list:3: ambiguous\n" {
		t.Errorf("a harness refusal: ran %v, exit %d %q", ran, v[0].Code, v[0].Output)
	}
	if v[1].Code != 0 || len(v[1].Output) != 0 || !v[1].Passed() {
		t.Errorf("a member with no Exec: exit %d %q", v[1].Code, v[1].Output)
	}
	got := ""
	echo := Member{Name: "check-s", Exec: func(_ context.Context, scratch string) Outcome {
		got = scratch
		return Outcome{}
	}}
	v = Run([]Member{echo}, Options{Jobs: 1, Scratch: func(name string) (string, error) { return "/scratch/" + name, nil }})
	if v[0].Code != 0 || got != "/scratch/check-s" {
		t.Errorf("scratch: exit %d, member saw %q", v[0].Code, got)
	}
	got = "unset"
	v = Run([]Member{echo}, Options{Jobs: 1, Scratch: func(string) (string, error) { return "", errors.New("disk full") }})
	if got != "unset" || v[0].Code != 2 || string(v[0].Output) != "run-gates: cannot make scratch for check-s: disk full\n" {
		t.Errorf("no scratch: member ran %v, exit %d %q", got != "unset", v[0].Code, v[0].Output)
	}
}

// Issue 42 item 19: with no grace given, a shell member past its budget
// that ends a moment later is still waited for (5 s), and what it
// printed is kept.
func TestBoundedDefaultGraceWaits(t *testing.T) {
	out := Bounded("check-late", false, 50*time.Millisecond, 0, func(context.Context) Outcome {
		time.Sleep(400 * time.Millisecond)
		return Outcome{Code: 1, Output: []byte("late")}
	})
	if want := "late\ncheck-late: timed out after 0.05 s (GATE_SDK_GATE_TIMEOUT); stopped with its child processes\n"; out.Code != 2 || string(out.Output) != want {
		t.Errorf("exit %d %q, want 2 %q", out.Code, out.Output, want)
	}
}

// Issue 42 item 19: a budget of whole seconds is spelled as the knob is
// written, however many.
func TestSecondsSpelling(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Second:             "1 s",
		600 * time.Second:       "600 s",
		1000000 * time.Second:   "1000000 s",
		1500 * time.Millisecond: "1.5 s",
	} {
		if got := seconds(d); got != want {
			t.Errorf("seconds(%v) = %q, want %q", d, got, want)
		}
	}
}

// Issue 42 item 19: the text report prints a red member's whole block
// (a newline added where its output lacks one), its verdict by kind,
// the spec line when there is one, nothing for a green member unless
// verbose, then the summary and the omissions; it answers the red count.
func TestReportRendersEachKind(t *testing.T) {
	vs := []Verdict{
		{Member: Member{Name: "check-ok"}, Outcome: Outcome{Output: []byte("OK: clean (x)\n")}},
		{Member: Member{Name: "check-red", Spec: "s"}, Outcome: Outcome{Code: 1, Output: []byte("a.md:1: bad")}},
		{Member: Member{Name: "check-un", Unresolved: true}, Outcome: Outcome{Code: 2, Output: []byte("gates.list:2: nothing\n")}},
		{Member: Member{Name: "check-h", Harness: "broken"}, Outcome: Outcome{Code: 2, Output: []byte("broken\n")}},
		{Member: Member{Name: "check-empty"}, Outcome: Outcome{Code: 2}},
	}
	spec := func(m Member) string {
		if m.Spec == "" {
			return ""
		}
		return "SPEC.md#" + m.Name
	}
	var b strings.Builder
	red := Report(&b, vs, false, spec, []Omission{{Reason: "slow", Count: 2}})
	want := "===== check-red =====\na.md:1: bad\n  FAIL: check-red (exit 1)\n    spec: SPEC.md#check-red\n" +
		"===== check-un =====\ngates.list:2: nothing\n  FAIL: check-un (unresolved)\n" +
		"===== check-h =====\nbroken\n  FAIL: check-h (dispatch harness error, exit 2)\n" +
		"===== check-empty =====\n  FAIL: check-empty (exit 2)\n" +
		"4 of 5 gates FAILED: check-red check-un check-h check-empty\n" +
		"2 gate(s) omitted from the registry for \"slow\"; restore them by deleting their `# omitted:` lines when the reason no longer holds.\n"
	if red != 4 || b.String() != want {
		t.Errorf("Report answered %d and wrote\n%s\nwant 4 and\n%s", red, b.String(), want)
	}
	b.Reset()
	if red := Report(&b, vs[:1], true, nil, nil); red != 0 || b.String() != "===== check-ok =====\nOK: clean (x)\n  PASS: check-ok\nThe 1 gate passed.\n" {
		t.Errorf("verbose green: %d %q", red, b.String())
	}
}

// Issue 42 item 19: a member that could not run and printed nothing is
// still one finding naming it, and a dispatch error is exit 2 in the
// document whatever code the verdict carries.
func TestDocumentCouldNotRunEdges(t *testing.T) {
	vs := []Verdict{
		{Member: Member{Name: "check-mute"}, Outcome: Outcome{Code: 2}},
		{Member: Member{Name: "check-h", Harness: "ambiguous"}},
	}
	doc := Document(vs, nil, strings.ToUpper)
	if len(doc.Findings) != 2 || doc.Findings[0].Message != "check-mute could not run" || doc.Findings[0].Class != CouldNotRun {
		t.Errorf("findings %+v, want check-mute's to name it", doc.Findings)
	}
	if doc.Gates[1].Exit != 2 || doc.Gates[1].Verdict != CouldNotRun {
		t.Errorf("a dispatch error reads as %+v", doc.Gates[1])
	}
}

// Issue 42 item 19: a help address is written only when there is one; an
// accepted finding that names nothing in the tree lands at its member's
// registry line; the suppression's guid follows the fingerprint, not the
// wording, and tells two fingerprints apart.
func TestSARIFHelpURIAndAcceptedPlacement(t *testing.T) {
	fp := Finding{Path: "gone.yml", Line: 3, Class: "unpinned", Message: "old", Text: "gone.yml:3: old", Accepted: true, Fingerprint: "0123456789abcdef"}
	verdicts := []Verdict{
		{Member: Member{Name: "check-a", Line: 4}, Outcome: Outcome{Code: 0, Structured: true, Findings: []Finding{fp}}},
		{Member: Member{Name: "check-b", Line: 5}, Outcome: Outcome{Code: 1, Output: []byte("b failed\n")}},
	}
	data, err := SARIF(verdicts, SARIFInput{
		Registry: "scripts/gates.list",
		IsFile:   func(string) bool { return false },
		HelpURI: func(m Member) string {
			if m.Name == "check-b" {
				return "https://example.com/b"
			}
			return ""
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	log := validate(t, data)
	rules := log["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
	if len(rules) != 2 {
		t.Fatalf("rules %v", rules)
	}
	if _, ok := rules[0].(map[string]any)["helpUri"]; ok {
		t.Errorf("a member with no help address has one: %v", rules[0])
	}
	if rules[1].(map[string]any)["helpUri"] != "https://example.com/b" {
		t.Errorf("check-b's help address: %v", rules[1])
	}
	res := results(t, log)
	if uri, line := location(res[0]); uri != "scripts/gates.list" || line != 4 {
		t.Errorf("the accepted finding with no file landed at %s:%v, want the registry line 4", uri, line)
	}
	unplaced := Verdict{Member: Member{Name: "check-c"}}
	if r := placed(unplaced, fp, SARIFInput{Registry: "scripts/gates.list"}); r.Locations[0].PhysicalLocation.Region != nil {
		t.Errorf("a member with no registry line placed a region: %+v", r.Locations[0].PhysicalLocation.Region)
	}
	reworded := fp
	reworded.Message = "new words"
	if resultGUID("check-a", fp) != resultGUID("check-a", reworded) {
		t.Error("a reworded message changed the suppression's guid")
	}
	other := fp
	other.Fingerprint = "fedcba9876543210"
	if resultGUID("check-a", fp) == resultGUID("check-a", other) {
		t.Error("two fingerprints share a guid")
	}
	bare, bare2 := fp, fp
	bare.Fingerprint, bare2.Fingerprint, bare2.Message = "", "", "other"
	if resultGUID("check-a", bare) == resultGUID("check-a", bare2) {
		t.Error("with no fingerprint, two messages share a guid")
	}
}

// Issue 42 item 19: a red member with nothing placed lands at its
// registry line, with no region when it has none, and says it failed
// when it printed nothing; only a finding with a fingerprint carries one.
func TestSARIFRegistryResultEdges(t *testing.T) {
	verdicts := []Verdict{
		{Member: Member{Name: "check-mute", Line: 0}, Outcome: Outcome{Code: 1}},
		{Member: Member{Name: "check-fp", Line: 2}, Outcome: Outcome{Code: 1, Structured: true, Findings: []Finding{
			{Path: "a.yml", Line: 1, Class: "c", Text: "a.yml:1: x", Fingerprint: "0123456789abcdef"},
			{Path: "a.yml", Line: 2, Class: "c", Text: "a.yml:2: y"},
		}}},
	}
	data, err := SARIF(verdicts, SARIFInput{Registry: "scripts/gates.list", IsFile: func(p string) bool { return p == "a.yml" }})
	if err != nil {
		t.Fatal(err)
	}
	res := results(t, validate(t, data))
	if len(res) != 3 {
		t.Fatalf("want 3 results, got %d:\n%s", len(res), data)
	}
	if uri, line := location(res[0]); uri != "scripts/gates.list" || line != 0 {
		t.Errorf("a member with no registry line landed at %s:%v, want the registry with no region", uri, line)
	}
	if msg := res[0]["message"].(map[string]any)["text"]; msg != "check-mute failed" {
		t.Errorf("a mute red member's message: %v", msg)
	}
	if fp, ok := res[1]["partialFingerprints"].(map[string]any); !ok || fp[FingerprintKey] != "0123456789abcdef" {
		t.Errorf("the fingerprinted finding carries %v", res[1]["partialFingerprints"])
	}
	if fp, ok := res[2]["partialFingerprints"]; ok {
		t.Errorf("a finding with no fingerprint carries %v", fp)
	}
}

// Issue 42 item 19: equal costs keep registry order in the longest-first
// split (the first of two equals is placed first).
func TestPartitionTiesKeepRegistryOrder(t *testing.T) {
	got := Partition([]string{"a", "b", "c"}, map[string]int64{"a": 10, "b": 10, "c": 5}, 2)
	if want := [][]int{{0, 2}, {1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("split %v, want %v", got, want)
	}
}

// Issue 42 item 19: a per-file mark list shorter than the names leaves
// the unmarked rest aggregate (placed once), never read past its end.
func TestShortPerFileMarks(t *testing.T) {
	names := []string{"pf", "a", "b"}
	perFile := []bool{true}
	costs := map[string]int64{"pf": 300, "a": 100, "b": 100}
	split := Split(names, perFile, costs, 2)
	if want := [][]int{{0, 1}, {0, 2}}; !reflect.DeepEqual(split, want) {
		t.Fatalf("Split = %v, want %v", split, want)
	}
	shares := FileShares(names, perFile, costs, split)
	if len(shares) != 2 || shares[0] != 150 || shares[1] != 150 {
		t.Errorf("FileShares = %v, want [150 150]", shares)
	}
}

// Issue 42 item 19: with no per-file member there is nothing to share,
// and every share is the equal one.
func TestFileSharesWithNoPerFileMember(t *testing.T) {
	names := []string{"a", "b"}
	perFile := []bool{false, false}
	costs := map[string]int64{"a": 500, "b": 10}
	if got := FileShares(names, perFile, costs, Split(names, perFile, costs, 2)); !reflect.DeepEqual(got, []float64{1, 1}) {
		t.Errorf("FileShares = %v, want [1 1]", got)
	}
}

// Issue 42 item 19: an empty record costs every member 1 ms, and so does
// a record whose mean is below 1 ms (the mean, not a product of sums).
func TestMemberCostsFill(t *testing.T) {
	if got := memberCosts([]string{"a", "b"}, map[string]int64{}); !reflect.DeepEqual(got, []int64{1, 1}) {
		t.Errorf("no record: %v, want [1 1]", got)
	}
	if got := memberCosts([]string{"a", "b", "new"}, map[string]int64{"a": 0, "b": 1}); !reflect.DeepEqual(got, []int64{1, 1, 1}) {
		t.Errorf("a record of 0 and 1 ms: %v, want [1 1 1]", got)
	}
}

// Issue 42 item 19: a finding with a line is never placed at a
// directory (a line names a place in a file); one with none is.
func TestPlacementAtADirectoryOnlyWithoutALine(t *testing.T) {
	in := SARIFInput{IsFile: func(string) bool { return false }, IsDir: func(p string) bool { return p == "scratch" }}
	if uri, _, ok := placement(Finding{Path: "scratch"}, in); !ok || uri != "scratch/" {
		t.Errorf("a line-less finding on a directory: %q %v, want scratch/", uri, ok)
	}
	if uri, _, ok := placement(Finding{Path: "scratch", Line: 1}, in); ok {
		t.Errorf("a finding at line 1 of a directory is placed at %q", uri)
	}
}
