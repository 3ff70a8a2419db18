package harness

import "testing"

// A `git init` after a `cd` the guard cannot follow makes the repository
// the rest of the line commits to: its bypasses and messages are not this
// clone's. Without the init, or with the init aimed at another directory,
// the place stays unknown and the git is judged here.
func TestInspectFreshRepositoryAfterUnknownCd(t *testing.T) {
	for _, c := range []struct {
		line  string
		judge bool
	}{
		{`d=$(mktemp -d) && cd "$d" && git init -q && git commit -q --allow-empty -n -m init`, false},
		{`cd "$(mktemp -d)" && git init -b main . && git commit --no-verify -m wip`, false},
		{`cd "$d" && git commit -q -n -m wip`, true},
		{`cd "$d" && git init -q ../other && git commit -q -n -m wip`, true},
		{`git init -q && git commit -q -n -m wip`, true},
		{`cd "$d" && git init -q && cd "$e" && git commit -q -n -m wip`, true},
		{`cd "$d" && git init -q && git -C /abs/elsewhere commit -n -m wip`, true},
	} {
		v, err := InspectAt(c.line, func(string) bool { return false })
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if got := len(v.Bypass) > 0; got != c.judge {
			t.Errorf("%s: bypass judged here %v, want %v (%v)", c.line, got, c.judge, v.Bypass)
		}
	}
}

// A `git init <dir>` below where the line stands makes a repository there:
// a git aimed into it (`-C`, or a `cd` the guard follows) is its business,
// while one aimed elsewhere, or an init that climbs out or names the root,
// is judged as before.
func TestInspectRepositoryMadeBelow(t *testing.T) {
	for _, c := range []struct {
		line  string
		judge bool
	}{
		{`git init -q fixtures/nested && git -C fixtures/nested commit -q --allow-empty -n -m wip`, false},
		{`git init -q fixtures/nested && cd fixtures/nested && git commit -q -n -m wip`, false},
		{`git init -q -b main ./fx && git -C fx/sub commit -q -n -m wip`, false},
		{`cd docs && git init -q nested && git -C nested commit -n -m wip`, false},
		{`git init -q fixtures/nested && git -C fixtures commit -q -n -m wip`, true},
		{`git init -q fixtures/nested && git commit -q -n -m wip`, true},
		{`git init -q ../up && git -C ../up/.. commit -n -m wip`, true},
		{`git init -q . && git -C . commit -n -m wip`, true},
		{`git init -q "$d" && git -C fixtures commit -n -m wip`, true},
		{`git init -q fx && cd "$d" && git -C fx commit -n -m wip`, true},
	} {
		v, err := InspectAt(c.line, func(string) bool { return false })
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if got := len(v.Bypass) > 0; got != c.judge {
			t.Errorf("%s: bypass judged here %v, want %v (%v)", c.line, got, c.judge, v.Bypass)
		}
	}
}
