package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/gate-sdk/gates/internal/githook"
)

// recordSite answers the git common dir that keeps the hooks' records
// and the work-tree top they are kept for; ok is false when either is
// unknown, and the record is then left alone in silence.
func (s *Session) recordSite() (common, top string, ok bool) {
	snap, err := s.Snapshot()
	if err != nil || snap.CommonDir() == "" {
		return "", "", false
	}
	top, err = s.Top()
	if err != nil {
		return "", "", false
	}
	return snap.CommonDir(), top, true
}

// reportUnjudged names, under the battery's report, the commits that
// reached the branch at this work tree with no pre-commit judgement since
// the last whole green battery (§--git-hook, Y), and settles them when
// this battery is whole and green: it judged the tree they reached. A
// record that cannot be read or written is a note; the battery's verdict
// does not depend on it.
func (s *Session) reportUnjudged(out io.Writer, settle bool) {
	common, top, ok := s.recordSite()
	if !ok {
		return
	}
	var landed []githook.Landing
	var err error
	if settle {
		landed, err = githook.SettleUnjudged(common, top)
	} else {
		landed, err = unjudgedAt(common, top)
	}
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: the record of commits that landed past the pre-commit hook was not read: %v\n", s.prog, err)
		return
	}
	if len(landed) == 0 {
		return
	}
	if settle {
		fmt.Fprintf(out, "unjudged: judged now: %d commit(s) that reached the branch with no pre-commit judgement: %s\n", len(landed), landingList(landed))
		return
	}
	fmt.Fprintf(out, "unjudged: %d commit(s) reached the branch with no pre-commit judgement since the last whole green battery: %s; a whole green battery (gates --run) settles them\n", len(landed), landingList(landed))
}

// unjudgedAt answers the recorded landings at top.
func unjudgedAt(common, top string) ([]githook.Landing, error) {
	all, err := githook.ReadUnjudged(common)
	if err != nil {
		return nil, err
	}
	var out []githook.Landing
	for _, l := range all {
		if l.Top == top {
			out = append(out, l)
		}
	}
	return out, nil
}

// landingList spells landings for one line.
func landingList(ls []githook.Landing) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		id := l.Commit
		if len(id) > 12 {
			id = id[:12]
		}
		parts[i] = id + " (" + l.How() + ")"
	}
	return strings.Join(parts, ", ")
}

// doctorUnjudged is doctor's check of the same record: each commit that
// landed at this work tree unjudged is a finding.
func (s *Session) doctorUnjudged() ([]string, error) {
	snap, err := s.Snapshot()
	if err != nil || snap.CommonDir() == "" {
		return nil, nil
	}
	top, err := s.Top()
	if err != nil {
		return nil, err
	}
	landed, err := unjudgedAt(snap.CommonDir(), top)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range landed {
		out = append(out, fmt.Sprintf("unjudged: %s reached the branch with no pre-commit judgement; run gates --run: a whole green battery settles it", landingList([]githook.Landing{l})))
	}
	return out, nil
}
