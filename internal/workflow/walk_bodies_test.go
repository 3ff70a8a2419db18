package workflow

import (
	"testing"
)

// callLines answers the lines of a job's gh calls.
func callLines(j *JobWalk) []int {
	var out []int
	for _, c := range j.Calls {
		out = append(out, c.Line)
	}
	return out
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestWalkBlockBodies: a run: block's body is its own lines: not the
// line before it, and with an indentation indicator, lines left of the
// first body line still belong to it; an aliased block is the anchored
// block alone, not what follows it.
func TestWalkBlockBodies(t *testing.T) {
	w := walkOf("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: |\n          gh api one\n      - run: |\n          echo two\n")
	if got := callLines(w.Jobs[0]); !sameInts(got, []int{7}) || w.Jobs[0].Calls[0].Step != 0 {
		t.Errorf("adjacent blocks: calls %v %+v, want one on line 7 in step 0", got, w.Jobs[0].Calls)
	}
	w = walkOf("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: |4\n              gh api a\n            gh api b\n      - run: echo\n")
	if got := callLines(w.Jobs[0]); !sameInts(got, []int{7, 8}) {
		t.Errorf("indentation indicator: calls on %v, want 7 and 8", got)
	}
	w = walkOf("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: &blk |\n          gh api y\n      - run: |\n          gh api z\n  b:\n    runs-on: x\n    steps:\n      - run: *blk\n")
	if got := callLines(w.Jobs[1]); !sameInts(got, []int{7}) {
		t.Errorf("aliased block: job b's calls on %v, want the anchored body's line 7 alone", got)
	}
}

// TestWalkTokenOnTheJobsLastLine: a full-line comment naming the token on
// the last line of a job's extent is the job's.
func TestWalkTokenOnTheJobsLastLine(t *testing.T) {
	w := walkOf("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo\n    # github.token at the end\n  b:\n    runs-on: x\n")
	if !w.Jobs[0].TokenRef || w.Jobs[1].TokenRef {
		t.Errorf("token refs %v %v, want job a only", w.Jobs[0].TokenRef, w.Jobs[1].TokenRef)
	}
}

// TestWalkMarkerColumn: a marker before a job id binds the job when it
// sits at or left of the id's column; one indented past it binds nothing
// and is answered as dangling.
func TestWalkMarkerColumn(t *testing.T) {
	for _, c := range []struct {
		indent string
		bound  bool
	}{{"", true}, {" ", true}, {"  ", true}, {"   ", false}, {"    ", false}} {
		w := walkOf("on: push\njobs:\n" + c.indent + "# m-exempt: why\n  a:\n    runs-on: x\n")
		if w.Jobs[0].Exempt != c.bound || (len(w.Dangling) == 0) != c.bound {
			t.Errorf("marker indented %d: exempt %v dangling %v, want bound %v", len(c.indent), w.Jobs[0].Exempt, w.Dangling, c.bound)
		}
	}
}

// TestWalkExemptStepComments: a token named in a comment inside the step
// a marker exempts is not the job's; one in the next step's comment is.
// A marker binds across blank and comment lines to the content after.
func TestWalkExemptStepComments(t *testing.T) {
	head := "on: push\njobs:\n  e:\n    runs-on: x\n    steps:\n      # m-exempt: drops the token\n\n      # more prose\n"
	w := walkOf(head + "      - run: echo\n        # github.token in the exempt step\n        shell: bash\n      - run: echo\n")
	if w.Jobs[0].TokenRef || len(w.Dangling) != 0 {
		t.Errorf("exempt step's comment: token %v dangling %v, want neither", w.Jobs[0].TokenRef, w.Dangling)
	}
	w = walkOf(head + "      - run: echo\n        shell: bash\n      - run: echo\n        # github.token in the next step\n        shell: bash\n")
	if !w.Jobs[0].TokenRef {
		t.Error("the next step's comment: the token was not found")
	}
	w = walkOf(head + "      - run: echo\n        shell: bash\n    # github.token after the steps\n    env: {A: 1}\n")
	if !w.Jobs[0].TokenRef {
		t.Error("a comment after the exempt step: the token was not found")
	}
	w = walkOf("on: push\njobs:\n  # m-exempt: why\n\n  # prose\n\n  a:\n    runs-on: x\n")
	if !w.Jobs[0].Exempt || w.Jobs[0].ExemptLine != 3 {
		t.Errorf("marker across blank lines: %+v", w.Jobs[0])
	}
}
