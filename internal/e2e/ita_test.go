package e2e

// An intent-to-add entry (`git add -N`) is not in the commit, so the gates
// that ask "is it tracked" answer no for it, in the battery as at commit.

import (
	"strings"
	"testing"
)

func TestIntentToAddIsNotTracked(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	s.write(".github/workflows/ci.yml", "on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./scripts/build.sh\n", 0o644)
	s.write("scripts/core-files.list", "scripts/build.sh\n", 0o644)
	s.git("add", "-A")
	s.write("scripts/build.sh", "#!/bin/sh\necho hi\n", 0o755)
	s.git("add", "-N", "scripts/build.sh")
	code, out := s.run(nil, binPath, "check-action-run-path")
	if code != 1 || !strings.Contains(out, "invokes ./scripts/build.sh, which does not resolve") {
		t.Errorf("check-action-run-path over an intent-to-add script: exit %d\n%s", code, out)
	}
	code, out = s.run(nil, binPath, "check-core-files")
	if code != 1 || !strings.Contains(out, "scripts/build.sh: core file listed in scripts/core-files.list:1 exists but is not tracked") {
		t.Errorf("check-core-files over an intent-to-add file: exit %d\n%s", code, out)
	}
	// Staged for real, both are clean.
	s.git("add", "scripts/build.sh")
	for _, g := range []string{"check-action-run-path", "check-core-files"} {
		if code, out := s.run(nil, binPath, g); code != 0 {
			t.Errorf("%s once the script is staged: exit %d\n%s", g, code, out)
		}
	}
}
