package repo

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// histCommit is one commit of a history built by fast-import: its
// parents (indexes of earlier commits) and its committer date.
type histCommit struct {
	parents []int
	date    int64
}

// history writes the commits (empty trees; one ref, at the last) in one
// git fast-import and answers their ids in order.
func (r *inprocRepo) history(commits []histCommit) []string {
	r.t.Helper()
	var in strings.Builder
	for i, c := range commits {
		msg := fmt.Sprintf("c%d", i)
		if len(c.parents) == 0 {
			in.WriteString("reset refs/heads/built\n")
		}
		fmt.Fprintf(&in, "commit refs/heads/built\nmark :%d\ncommitter t <t@example.invalid> %d +0000\ndata %d\n%s\n", i+1, c.date, len(msg), msg)
		for k, p := range c.parents {
			if k == 0 {
				fmt.Fprintf(&in, "from :%d\n", p+1)
			} else {
				fmt.Fprintf(&in, "merge :%d\n", p+1)
			}
		}
		in.WriteString("\n")
	}
	marks := filepath.Join(r.t.TempDir(), "marks")
	cmd := exec.Command("git", "fast-import", "--quiet", "--export-marks="+marks)
	cmd.Dir, cmd.Env, cmd.Stdin = r.dir, cleanEnv(), strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("fast-import: %v\n%s", err, out)
	}
	data, err := os.ReadFile(marks)
	if err != nil {
		r.t.Fatal(err)
	}
	ids := make([]string, len(commits))
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var n int
		var id string
		if _, err := fmt.Sscanf(l, ":%d %s", &n, &id); err != nil {
			r.t.Fatalf("marks line %q: %v", l, err)
		}
		ids[n-1] = id
	}
	return ids
}

// listed answers the in-process listing, failing the test when it was
// left to git.
func listed(t *testing.T, o *Objects, include, exclude []string, since int64) []string {
	t.Helper()
	got, ok := o.Commits(include, exclude, since)
	if !ok {
		t.Fatalf("the listing %v ^%v was left to git", include, exclude)
	}
	return got
}

// A listing whose excluded history ends first (two unrelated roots) runs
// until its list is empty, as git's does.
func TestObjectsListDisjointHistories(t *testing.T) {
	r := newInprocRepo(t)
	ids := r.history([]histCommit{
		{date: 1700000001},                    // 0: the included root
		{parents: []int{0}, date: 1700000005}, // 1: the included tip
		{date: 1700000010},                    // 2: an unrelated root, excluded, newest
		{parents: []int{0}, date: 1700000003}, // 3
		{parents: []int{3}, date: 1700000004}, // 4
	})
	r.assertList([]string{ids[1]}, []string{ids[2]}, 0, "disjoint")
	r.assertList([]string{ids[4], ids[1]}, []string{ids[2]}, 0, "disjoint, two tips")
	if got := listed(t, r.objects(), []string{ids[1]}, []string{ids[2]}, 0); len(got) != 2 {
		t.Errorf("disjoint: %v, want the tip and its root", got)
	}
}

// --max-age keeps a commit dated exactly at the cut (git drops only the
// older ones).
func TestObjectsListSinceAtACommitsDate(t *testing.T) {
	r := newInprocRepo(t)
	var hist []histCommit
	for i := 0; i < 6; i++ {
		c := histCommit{date: 1700000000 + int64(i)}
		if i > 0 {
			c.parents = []int{i - 1}
		}
		hist = append(hist, c)
	}
	ids := r.history(hist)
	for since := int64(1700000001); since <= 1700000005; since++ {
		r.assertList([]string{ids[5]}, []string{ids[0]}, since, "since at a date")
	}
	if got := listed(t, r.objects(), []string{ids[5]}, []string{ids[0]}, 1700000003); len(got) != 3 {
		t.Errorf("since the fourth commit's date: %v, want it and the two after", got)
	}
}

// The walk reads at most walkBudget parents in process: exactly that many
// is answered, one more is left to git.
func TestObjectsListWalkBudget(t *testing.T) {
	r := newInprocRepo(t)
	n := walkBudget + 2
	hist := make([]histCommit, n)
	for i := range hist {
		hist[i].date = 1700000000 + int64(i)
		if i > 0 {
			hist[i].parents = []int{i - 1}
		}
	}
	ids := r.history(hist)
	o := r.objects()
	// From commit k down to the root, k parents are read.
	got := listed(t, o, []string{ids[walkBudget]}, []string{ids[0]}, 0)
	if len(got) != walkBudget || got[0] != ids[walkBudget] || got[len(got)-1] != ids[1] {
		t.Errorf("a walk of exactly the budget: %d commits", len(got))
	}
	if got, ok := o.Commits([]string{ids[walkBudget+1]}, []string{ids[0]}, 0); ok {
		t.Errorf("a walk past the budget answered in process (%d commits)", len(got))
	}
}

// The walk ends as git's limited walk ends under clock skew: once only
// excluded commits remain, it reads five more and stops (so a commit the
// excluded side reaches only past them stays listed, as git lists it),
// but a remaining commit dated at or after the last listed one keeps it
// going.
func TestObjectsListClockSkew(t *testing.T) {
	r := newInprocRepo(t)
	// S, the shared base; I on it, included; E1..E8 a chain onto S,
	// excluded, each dated before S.
	skew := []histCommit{{date: 1700000100}, {parents: []int{0}, date: 1700000101}}
	prev := 0
	for i := 0; i < 8; i++ {
		skew = append(skew, histCommit{parents: []int{prev}, date: 1700000050 - int64(i)})
		prev = len(skew) - 1
	}
	ids := r.history(skew)
	s, in, ex := ids[0], ids[1], ids[len(ids)-1]
	r.assertList([]string{in}, []string{ex}, 0, "skewed")
	if got := listed(t, r.objects(), []string{in}, []string{ex}, 0); len(got) != 2 || got[1] != s {
		t.Errorf("skewed: %v, want I and S (git stops before the excluded chain reaches S)", got)
	}
	// Every length of the excluded chain: the walk stops as git's does,
	// one commit early or late changing whether S is reached.
	for k := 2; k < len(ids); k++ {
		r.assertList([]string{in}, []string{ids[k]}, 0, fmt.Sprintf("skewed, a chain of %d", k-1))
	}
	// Three excluded commits only: the chain reaches S within the slop.
	r.assertList([]string{in}, []string{ids[4]}, 0, "skewed, short chain")
	if got := listed(t, r.objects(), []string{in}, []string{ids[4]}, 0); len(got) != 1 {
		t.Errorf("skewed, short chain: %v, want I alone", got)
	}

	// The same shape with the chain dated at S's date: the walk goes on
	// while the next commit is not older than the last listed one.
	r2 := newInprocRepo(t)
	even := []histCommit{{date: 1700000100}, {parents: []int{0}, date: 1700000101}}
	prev = 0
	for i := 0; i < 8; i++ {
		even = append(even, histCommit{parents: []int{prev}, date: 1700000100})
		prev = len(even) - 1
	}
	ids = r2.history(even)
	r2.assertList([]string{ids[1]}, []string{ids[len(ids)-1]}, 0, "chain at the base's date")
	if got := listed(t, r2.objects(), []string{ids[1]}, []string{ids[len(ids)-1]}, 0); len(got) != 1 {
		t.Errorf("chain at the base's date: %v, want I alone", got)
	}
}

// Random histories with skewed and equal dates, merges and several
// roots: every listing read in process equals git rev-list's.
func TestObjectsListRandomHistories(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		rng := rand.New(rand.NewSource(seed))
		r := newInprocRepo(t)
		n := 60
		hist := make([]histCommit, n)
		for i := range hist {
			d := 1700000000 + int64(i/2)
			if rng.Intn(5) == 0 {
				d -= int64(rng.Intn(30))
			}
			hist[i].date = d
			if i == 0 || rng.Intn(12) == 0 {
				continue
			}
			hist[i].parents = []int{i - 1 - rng.Intn(min(i, 4))}
			if i > 2 && rng.Intn(5) == 0 {
				if q := rng.Intn(i); q != hist[i].parents[0] {
					hist[i].parents = append(hist[i].parents, q)
				}
			}
		}
		ids := r.history(hist)
		pick := func() []string {
			out := []string{ids[rng.Intn(n)]}
			if rng.Intn(3) == 0 {
				out = append(out, ids[rng.Intn(n)])
			}
			return out
		}
		for q := 0; q < 40; q++ {
			var since int64
			if rng.Intn(4) == 0 {
				since = 1700000000 + int64(rng.Intn(n/2))
			}
			r.assertList(pick(), pick(), since, fmt.Sprintf("seed %d", seed))
		}
	}
}
