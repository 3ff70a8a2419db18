package githook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// DebtName is the record, under git's common dir, of the files a passing
// pre-commit hook left to the battery: per work tree and member, how many
// unchanged files the member did not judge because its rule inputs or the
// binary changed since its last whole judgement. A green battery at that
// work tree running the member settles its line (SettleDebt).
const DebtName = "gates-debt"

// debtHeader opens the record's text.
const debtHeader = "gates debt v1"

// Debt is one line of the record.
type Debt struct {
	// Top is the work-tree top the hook ran at.
	Top string
	// Member left Files unchanged files unjudged.
	Member string
	Files  int
}

// debtPath answers the record's path under the common dir.
func debtPath(common string) string { return walk.Child(common, DebtName) }

// ReadDebt answers the record's lines, sorted by top then member; none
// when there is no record. A record this binary cannot read is an error:
// a debt nobody can read is never taken for settled.
func ReadDebt(common string) ([]Debt, error) {
	data, err := walk.ReadConfig(debtPath(common))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", debtPath(common), err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if lines[0] != debtHeader {
		return nil, fmt.Errorf("%s: not a debt record this binary writes", debtPath(common))
	}
	var out []Debt
	for i, l := range lines[1:] {
		// <files> <member> <quoted top>
		f := strings.SplitN(l, " ", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: malformed line", debtPath(common), i+2)
		}
		n, err := strconv.Atoi(f[0])
		top, qerr := strconv.Unquote(f[2])
		if err != nil || n <= 0 || qerr != nil || f[1] == "" {
			return nil, fmt.Errorf("%s:%d: malformed line", debtPath(common), i+2)
		}
		out = append(out, Debt{Top: top, Member: f[1], Files: n})
	}
	return out, nil
}

// writeDebt replaces the record with debts (removing it when none is
// left), written whole under a sibling name and renamed over it.
func writeDebt(common string, debts []Debt) error {
	p := debtPath(common)
	if len(debts) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	sort.Slice(debts, func(i, j int) bool {
		if debts[i].Top != debts[j].Top {
			return debts[i].Top < debts[j].Top
		}
		return debts[i].Member < debts[j].Member
	})
	var b strings.Builder
	b.WriteString(debtHeader + "\n")
	for _, d := range debts {
		fmt.Fprintf(&b, "%d %s %s\n", d.Files, d.Member, strconv.Quote(d.Top))
	}
	return walk.ReplaceFile(p, []byte(b.String()))
}

// AddDebt records what a passing hook at top left: each member's line is
// set to this run's count (what is unjudged now), other lines are kept.
func AddDebt(common, top string, left map[string]int) error {
	// assertion V: the debt is recorded per work tree and member.
	debts, err := ReadDebt(common)
	if err != nil {
		return err
	}
	kept := debts[:0]
	for _, d := range debts {
		if _, again := left[d.Member]; !(again && d.Top == top) {
			kept = append(kept, d)
		}
	}
	for m, n := range left {
		if n > 0 {
			kept = append(kept, Debt{Top: top, Member: m, Files: n})
		}
	}
	return writeDebt(common, kept)
}

// SettleDebt is a battery's settlement at top: when the battery passed
// (green), the lines of top for every member it ran are dropped and
// answered; a red battery settles nothing. No record is no work.
func SettleDebt(common, top string, ran []string, green bool) ([]Debt, error) {
	// assertion W: a green battery running the member settles its line; a
	// red one keeps every line.
	if !green {
		return nil, nil
	}
	debts, err := ReadDebt(common)
	if err != nil || len(debts) == 0 {
		return nil, err
	}
	did := map[string]bool{}
	for _, n := range ran {
		did[n] = true
	}
	var kept, settled []Debt
	for _, d := range debts {
		if d.Top == top && did[d.Member] {
			settled = append(settled, d)
		} else {
			kept = append(kept, d)
		}
	}
	if len(settled) == 0 {
		return nil, nil
	}
	return settled, writeDebt(common, kept)
}
