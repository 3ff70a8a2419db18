package gates

import (
	"testing"
)

// Range ends of the grammars three gates judge by: a commit subject's
// scope ([a-z0-9./-]), a workflow member's version marker
// (^[a-z0-9-]+ v[0-9]+$), and job-ref's markdown fences (three spaces of
// indent at most; a closing run at least as long as the opening one).

func TestCommitSubjectScopeEdges(t *testing.T) {
	for _, scope := range []string{"a", "z", "0", "9", ".", "/", "-", "az09./-"} {
		got := subjectRun(t, "feat("+scope+"): x\n", defaultTypes)
		if got.Code != 0 {
			t.Errorf("scope %q: exit %d, want 0\n%s", scope, got.Code, got.Stdout)
		}
	}
	for _, scope := range []string{"`", "{", ":", "A", "Z", "a`", "a{", "a:", "a,", "a_", "a+"} {
		got := subjectRun(t, "feat("+scope+"): x\n", defaultTypes)
		if got.Code != 1 {
			t.Errorf("scope %q: exit %d, want 1\n%s", scope, got.Code, got.Stdout)
		}
	}
}

func TestContractVersionMarkerEdges(t *testing.T) {
	for _, l := range []string{"# contract: a v0", "# contract: z v9", "# contract: 0 v1", "# contract: 9 v1", "# contract: - v1", "# contract: az09- v90"} {
		if !contractHeader(l) {
			t.Errorf("%q refused, want a version marker", l)
		}
	}
	for _, l := range []string{"# contract: a` v1", "# contract: a{ v1", "# contract: a/ v1", "# contract: a: v1", "# contract: a v/", "# contract: a v:", "# contract: a v1/", "# contract: a v1:", "# contract: A v1", "# contract: a_ v1"} {
		if contractHeader(l) {
			t.Errorf("%q accepted, want refused", l)
		}
	}
}

func TestJobRefFenceEdges(t *testing.T) {
	k := map[string]string{"GATE_SDK_JOB_REF_PATTERNS": "(build|test)-[a-z0-9-]+"}
	ci := wf("jobs:\n  build-linux:\n    runs-on: ubuntu-latest\n")
	md := func(s string) map[string]string { return map[string]string{"ci.yml": ci, "README.md": s} }
	runActionCases(t, checkActionJobRef, "check-action-job-ref", []actionCase{
		{name: "shorter run does not close", files: md("````\n`build-a`\n```\n`build-b`\n````\n"), knobs: k, code: 0},
		{name: "equal run closes", files: md("````\n`build-a`\n````\n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:4: build-gone names no job"}},
		{name: "longer run closes", files: md("```\n`build-a`\n`````\n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:4: build-gone names no job"}},
		{name: "other character does not close", files: md("```\n`build-a`\n~~~\n`build-b`\n```\n"), knobs: k, code: 0},
		{name: "text after the run does not close", files: md("```\n`build-a`\n``` x\n`build-b`\n```\n"), knobs: k, code: 0},
		{name: "blanks after the run close", files: md("```\n`build-a`\n```  \n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:4: build-gone"}},
		{name: "three spaces close", files: md("```\n`build-a`\n   ```\n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:4: build-gone"}},
		{name: "four spaces do not close", files: md("```\n`build-a`\n    ```\n`build-b`\n```\n"), knobs: k, code: 0},
		{name: "three spaces open", files: md("   ~~~\n`build-a`\n~~~\n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:4: build-gone"}, not: []string{"build-a"}},
		{name: "four spaces do not open", files: md("    ```\n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:2: build-gone"}},
		{name: "two backticks do not open", files: md("``\n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:2: build-gone"}},
		{name: "two tildes do not open", files: md("~~\n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:2: build-gone"}},
		{name: "backtick in the info string", files: md("```a`b\n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:2: build-gone"}},
		{name: "tilde info may hold a backtick", files: md("~~~a`b\n`build-a`\n~~~\n"), knobs: k, code: 0},
		{name: "info string after the run", files: md("```go\n`build-a`\n```\n`build-gone`\n"), knobs: k, code: 1,
			want: []string{"README.md:4: build-gone"}},
	})
}
