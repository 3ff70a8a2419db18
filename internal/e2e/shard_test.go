package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	shardLine  = regexp.MustCompile(`(?m)^shard ([0-9]+)/([0-9]+): ([0-9]+) of ([0-9]+) gates? \((.*)\)$`)
	failedLine = regexp.MustCompile(`(?m)^  FAIL: (\S+) `)
	passedLine = regexp.MustCompile(`(?m)^  PASS: (\S+)$`)
)

// TestShardsTogetherAreTheBattery: over a registry of green and red
// members, the shards of a split run every member exactly once, each
// shard's summary names its part and its size, and the union of the
// shards' verdicts is the whole battery's — with a cost record from the
// whole run and, without one, split evenly by count. A bad K/N is refused.
func TestShardsTogetherAreTheBattery(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write("docs/a.md", "hello\n", 0o644)
	var reg []string
	for i := 0; i < 9; i++ {
		name := fmt.Sprintf("check-g%d", i)
		body := passGate
		if i%3 == 1 {
			body = failGate
		}
		// Uneven costs, so a split by cost differs from one by count.
		if i%4 == 0 {
			body = strings.Replace(body, "#!/usr/bin/env bash\n", "#!/usr/bin/env bash\nsleep 0.3\n", 1)
		}
		s.write("scripts/"+name+".sh", body, 0o755)
		reg = append(reg, name)
	}
	s.write("scripts/gates.list", strings.Join(reg, "\n")+"\n", 0o644)
	s.git("add", "-A")
	verbose := []string{"GATE_SDK_VERBOSE=1"}
	code, whole := s.frontEnd(verbose)
	if code != 1 {
		t.Fatalf("the whole battery: exit %d, want 1\n%s", code, whole)
	}
	wantPass, wantFail := shardNames(passedLine, whole), shardNames(failedLine, whole)
	if len(wantPass)+len(wantFail) != len(reg) {
		t.Fatalf("the whole battery judged %d of %d members:\n%s", len(wantPass)+len(wantFail), len(reg), whole)
	}
	for _, record := range []bool{true, false} {
		// The split reads only a tracked record: the project tracks the
		// whole run's, then drops it.
		if record {
			s.run(nil, "cp", ".tmp/gate-timings.txt", "scripts/gate-timings.txt")
			s.git("add", "scripts/gate-timings.txt")
		} else {
			s.git("rm", "-q", "-f", "scripts/gate-timings.txt")
		}
		var pass, fail []string
		total := 0
		for k := 1; k <= 4; k++ {
			code, out := s.frontEnd(verbose, "--shard", fmt.Sprintf("%d/4", k))
			m := shardLine.FindStringSubmatch(out)
			if m == nil || m[1] != fmt.Sprint(k) || m[2] != "4" || m[4] != fmt.Sprint(len(reg)) {
				t.Fatalf("shard %d/4 (record %v): no summary naming it\n%s", k, record, out)
			}
			if how := "split evenly by count: no tracked cost record"; record == (m[5] == how) {
				t.Errorf("shard %d/4 (record %v) split %q", k, record, m[5])
			}
			p, f := shardNames(passedLine, out), shardNames(failedLine, out)
			if fmt.Sprint(len(p)+len(f)) != m[3] {
				t.Errorf("shard %d/4 says %s gates and judged %d", k, m[3], len(p)+len(f))
			}
			if want := map[bool]int{true: 1, false: 0}[len(f) > 0]; code != want {
				t.Errorf("shard %d/4: exit %d with %d red, want %d\n%s", k, code, len(f), want, out)
			}
			pass, fail = append(pass, p...), append(fail, f...)
			total += len(p) + len(f)
		}
		sort.Strings(pass)
		sort.Strings(fail)
		if total != len(reg) || strings.Join(pass, " ") != strings.Join(wantPass, " ") || strings.Join(fail, " ") != strings.Join(wantFail, " ") {
			t.Errorf("record %v: the shards judged %d members, passed %v and failed %v; the whole battery passed %v and failed %v", record, total, pass, fail, wantPass, wantFail)
		}
	}
	for _, bad := range []string{"0/4", "5/4", "1/0", "x", "2"} {
		code, out := s.frontEnd(nil, "--shard", bad)
		if code != 2 || !strings.Contains(out, "--shard") || strings.Contains(out, "passed") {
			t.Errorf("--shard %s: exit %d, want 2 and a refusal naming --shard\n%s", bad, code, out)
		}
	}
	if code, out := s.frontEnd(nil, "--shard"); code != 2 || !strings.Contains(out, "--shard takes one K/N") {
		t.Errorf("a bare --shard: exit %d\n%s", code, out)
	}
}

// shardNames answers re's first group over out, sorted.
func shardNames(re *regexp.Regexp, out string) []string {
	var got []string
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		got = append(got, m[1])
	}
	sort.Strings(got)
	return got
}

// TestShardsSplitPerFileGatesByFile: a per-file gate (check-tree-terms)
// runs in every shard over the files hashing to it, so the four shards'
// findings are split among them, each shard's report says it judged part
// of the tree, and the union of the shards' findings is the whole run's,
// each finding once. An aggregate member (check-fail) still runs in one
// shard only.
func TestShardsSplitPerFileGatesByFile(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.copyTree(filepath.Join(moduleRoot, "kits", "gate-sdk", "checks"), filepath.Join(s.dir, "gate-sdk", "checks"))
	s.write("scripts/msg-patterns.list", "xyzzy-[0-9]+\n", 0o644)
	for i := 0; i < 24; i++ {
		body := fmt.Sprintf("note %d\n", i)
		if i%2 == 0 {
			body += fmt.Sprintf("the codename is xyzzy-%d\n", i)
		}
		s.write(fmt.Sprintf("docs/n%02d.md", i), body, 0o644)
	}
	s.write("scripts/check-fail.sh", failGate, 0o755)
	s.write("scripts/gates.list", "check-tree-terms\ncheck-fail\n", 0o644)
	s.git("add", "-A")
	code, whole := s.stdout(nil, "--run")
	if code != 1 {
		t.Fatalf("the whole run: exit %d\n%s", code, whole)
	}
	want := textFindings(whole)["check-tree-terms"]
	if len(want) != 12 {
		t.Fatalf("the whole run printed %d tree-terms findings, want 12:\n%s", len(want), whole)
	}
	var union []string
	withFindings, failRuns := 0, 0
	for k := 1; k <= 4; k++ {
		_, out := s.stdout([]string{"GATE_SDK_VERBOSE=1"}, "--run", "--shard", fmt.Sprintf("%d/4", k))
		if !strings.Contains(out, "===== check-tree-terms =====") {
			t.Errorf("shard %d/4 did not run the per-file check-tree-terms:\n%s", k, out)
		}
		if !regexp.MustCompile(fmt.Sprintf(`(?m)^(note: |TREE-TERMS: clean \(.*)shard %d/4: [0-9]+ of [0-9]+ files judged here`, k)).MatchString(out) {
			t.Errorf("shard %d/4: check-tree-terms does not say it judged part of the tree:\n%s", k, out)
		}
		if strings.Contains(out, "===== check-fail =====") {
			failRuns++
		}
		var got []string
		for _, l := range textFindings(out)["check-tree-terms"] {
			if !strings.HasPrefix(l, "note: ") && !strings.HasPrefix(l, "TREE-TERMS: clean") && !strings.HasPrefix(l, "  PASS: ") {
				got = append(got, l)
			}
		}
		if len(got) > 0 {
			withFindings++
		}
		union = append(union, got...)
	}
	sort.Strings(union)
	sort.Strings(want)
	if strings.Join(union, "\n") != strings.Join(want, "\n") {
		t.Errorf("the shards' findings:\n%s\nthe whole run's:\n%s", strings.Join(union, "\n"), strings.Join(want, "\n"))
	}
	if withFindings < 2 {
		t.Errorf("the findings fell to %d shard(s); a split by file spreads them", withFindings)
	}
	if failRuns != 1 {
		t.Errorf("the aggregate check-fail ran in %d shards, want 1", failRuns)
	}
}
