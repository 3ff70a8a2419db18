package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memoGate is a consumer gate with a record: its first run over a tree
// writes one under the scratch dir knob and says it ran; a run that finds
// the record answers from it instead.
const memoGate = `#!/usr/bin/env bash
# graph: couples=bad.md dir=one valve=none tier=precommit
tmp="${GATE_SDK_TMP_DIR:?}"
if [ -f "$tmp/memo.record" ]; then
  echo "MEMO: clean (cached)"
  exit 0
fi
mkdir -p "$tmp" && echo green > "$tmp/memo.record"
if [ -f bad.md ]; then
  echo "bad.md:1: the file is bad"
  echo "help: delete bad.md"
  exit 1
fi
echo "MEMO: clean (ran)"
`

// TestFixtureCasesNeverAnswerFromAnEarlierRecord: every case of every run
// starts from an empty scratch dir of its own, removed after it, so a gate
// that keeps a record (check-crate-arms' green record) proves its real
// path on the second run as on the first, and nothing of a case is left in
// the invoker's scratch dir.
func TestFixtureCasesNeverAnswerFromAnEarlierRecord(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write("scripts/check-memo.sh", memoGate, 0o755)
	s.write("scripts/gates.list", "check-memo\n", 0o644)
	s.write("scripts/gate-tests/check-memo/good/a.md", "fine\n", 0o644)
	s.write("scripts/gate-tests/check-memo/good/expect.txt", "MEMO: clean (ran)\n", 0o644)
	s.write("scripts/gate-tests/check-memo/bad/bad.md", "bad\n", 0o644)
	s.write("scripts/gate-tests/check-memo/bad/expect.txt", "bad.md:1: the file is bad\n", 0o644)
	s.git("add", "-A")
	for run := 1; run <= 2; run++ {
		if code, out := s.run(nil, binPath, "--run-gate-tests"); code != 0 {
			t.Fatalf("run %d: exit %d:\n%s", run, code, out)
		}
	}
	if left := scratchLeftovers(t, s.dir+"/.tmp", "memo.record"); len(left) > 0 {
		t.Fatalf("cases left their scratch behind: %v", left)
	}
}

// TestCrateArmsFixtureRecordStaysInItsCase runs the crate-arms pair as the
// project ships it, twice: it passes both times and leaves no green record
// in the invoking repository's scratch dir, where a later run would find it.
func TestCrateArmsFixtureRecordStaysInItsCase(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.copyTree(filepath.Join(moduleRoot, "scripts", "gate-tests", "check-crate-arms"), filepath.Join(s.dir, "scripts", "gate-tests", "check-crate-arms"))
	s.copyTree(filepath.Join(moduleRoot, "scripts"), filepath.Join(s.dir, "decl"))
	for _, e := range mustReadDir(t, filepath.Join(s.dir, "decl")) {
		if e.Name() != "check-crate-arms.gate" {
			os.RemoveAll(filepath.Join(s.dir, "decl", e.Name()))
		}
	}
	s.write("scripts/gates.list", "check-crate-arms\n", 0o644)
	s.git("add", "-A")
	for run := 1; run <= 2; run++ {
		if code, out := s.run(nil, binPath, "--run-gate-tests", "scripts/gate-tests", "decl"); code != 0 {
			t.Fatalf("run %d: exit %d:\n%s", run, code, out)
		}
	}
	if left := scratchLeftovers(t, s.dir+"/.tmp", ".green"); len(left) > 0 {
		t.Fatalf("the crate-arms fixture left a green record in the invoker's scratch dir: %v", left)
	}
}

// scratchLeftovers answers the files under dir whose name ends in suffix,
// and every per-case scratch dir still there.
func scratchLeftovers(t *testing.T, dir, suffix string) []string {
	t.Helper()
	var left []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasSuffix(d.Name(), suffix) || (d.IsDir() && strings.HasPrefix(d.Name(), "fixture-case-")) {
			left = append(left, p)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return left
}

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return es
}
