package payload

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/gate-sdk/gates/internal/baseline"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// baselinePath answers the baseline's repository-relative path.
func baselinePath(p *Plan) string { return registry.Join(p.GatesDir, baseline.Name) }

// baselineIsInits reports whether init may write the baseline: there is
// none yet, or the one there is init's own, unedited. An adopter's own
// baseline is never rewritten.
func baselineIsInits(w *InitWorld, p *Plan, lock *Lock) (bool, error) {
	rel := baselinePath(p)
	cur, err := walk.ReadConfigIn(w.Top, joinTop(w.Top, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("init: cannot read %s: %v", rel, err)
	}
	rec, ok := lock.file(rel)
	return ok && rec.SHA256 == Digest(cur), nil
}

// acceptToday records the registered gates' findings of today in the
// baseline, notes the file in the lock, and answers the accepted findings
// per gate. Today is both the tree as init leaves it and the tree the
// adoption commit will hold (the vendored kit tracked), so the battery is
// green before that commit and after it. With no red gate nothing is
// written.
func acceptToday(w *InitWorld, p *Plan, red []string, next *Lock) (map[string]int, error) {
	if len(red) == 0 || w.Baseline == nil {
		return nil, nil
	}
	rel := baselinePath(p)
	var sets [][]baseline.Entry
	for _, asCommitted := range []bool{false, true} {
		data, err := w.Baseline(asCommitted)
		if err != nil {
			return nil, fmt.Errorf("init: gates baseline: %v", err)
		}
		f, err := baseline.Parse(rel, data)
		if err != nil {
			return nil, err
		}
		sets = append(sets, f.Entries)
	}
	var entries []baseline.Entry
	for _, e := range baseline.Union(sets[0], sets[1]) {
		// assertion O: a generated page's staleness is never accepted:
		// init wrote the page, and an accepted stale page would keep
		// every later one accepted.
		if e.Gate == "check-graph" && e.Class == graphStaleClass {
			continue
		}
		entries = append(entries, e)
	}
	data := baseline.Format(entries)
	if err := writeTracked(w.Top, rel, data, false, next); err != nil {
		return nil, err
	}
	recordFile(next, rel, Digest(data), classSeed)
	counts := map[string]int{}
	for _, e := range entries {
		counts[e.Gate] += e.Count
	}
	return counts, nil
}
