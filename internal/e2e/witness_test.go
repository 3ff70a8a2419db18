package e2e

import (
	"strings"
	"testing"
)

// pageGate is a projection freshness gate whose emitter reads two files
// while its manifest couples one of them.
const pageGate = `#!/usr/bin/env bash
# graph: couples=page.txt,src/*.txt dir=bi valve=none tier=precommit
# spec: scripts/SPEC.md §check-page — the page is its sources
# projection: page.txt
if [ "$(cat src/a.txt extra/b.txt)" = "$(cat page.txt)" ]; then echo "PAGE: clean (fresh)"; exit 0; fi
echo "page.txt: stale"; echo "help: regenerate page.txt"; exit 1
`

func TestProjectionWitness(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write("scripts/gates.list", "check-page\n", 0o644)
	s.write("scripts/check-page.sh", pageGate, 0o755)
	s.write("src/a.txt", "a\n", 0o644)
	s.write("extra/b.txt", "b\n", 0o644)
	s.write("page.txt", "a\nb\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-qm", "seed")
	code, out := s.run(nil, binPath, "--projection-witness")
	if code != 1 || !strings.Contains(out, "WITNESS: FAIL check-page edit extra/b.txt: page.txt: stale") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	// The source tree is untouched: the perturbations ran in a scratch.
	if st := s.git("status", "--porcelain"); st != "" {
		t.Fatalf("the witness changed the source tree:\n%s", st)
	}
	s.write("scripts/check-page.sh", strings.Replace(pageGate, "couples=page.txt,src/*.txt", "couples=page.txt,src/*.txt,extra/*.txt", 1), 0o755)
	s.git("commit", "-qam", "declare the read")
	code, out = s.run(nil, binPath, "--projection-witness")
	if code != 0 || !strings.Contains(out, "WITNESS: 1 projection gate,") {
		t.Fatalf("declared read: exit %d\n%s", code, out)
	}
	// A stale projection cannot be witnessed: exit 2.
	s.write("page.txt", "stale\n", 0o644)
	code, out = s.run(nil, binPath, "--projection-witness")
	if code != 2 || !strings.Contains(out, "WITNESS: FAIL(env) check-page is red before any perturbation") {
		t.Fatalf("baseline red: exit %d\n%s", code, out)
	}
	s.write("scripts/gates.list", "\n", 0o644)
	if code, out = s.run(nil, binPath, "--projection-witness"); code != 0 || out != "0 projections\n" {
		t.Fatalf("no projections: exit %d %q", code, out)
	}
}
