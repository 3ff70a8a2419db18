package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The stamp of the binary that made testdata/upgrade's adoption.
const olderStamp = "2f24242be8775bcd41542823d9ac2d3614dbb8a7"

// olderHook stands in for a hook the older binary placed (a copy of that
// binary): bytes that are not the current binary's.
const olderHook = "#!/bin/sh\n# stands in for a hook the older gates binary placed\nexit 0\n"

// unpackOlderAdoption lays the archived adoption out at <parent>/repo as
// the older init and its commit left it: the tree committed, the records
// it wrote under .git/, core.hooksPath at its hooks dir and stand-ins for
// the hooks. The placed binary (ignored, as init writes it) is absent, as
// in a clone: the lock's digest of it would refuse any stand-in.
func unpackOlderAdoption(t *testing.T) *scratch {
	t.Helper()
	parent, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	unpacked := filepath.Join(parent, "unpacked")
	if err := os.MkdirAll(unpacked, 0o755); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(moduleRoot, "internal/e2e/testdata/upgrade/adopted-"+olderStamp[:7]+".tar.gz")
	if out, err := exec.Command("tar", "-xzf", archive, "-C", unpacked).CombinedOutput(); err != nil {
		t.Fatalf("unpack %s: %v\n%s", archive, err, out)
	}
	s := &scratch{t: t, dir: filepath.Join(parent, "repo")}
	for _, kv := range cleanEnv(s.dir) {
		if !strings.HasPrefix(kv, "GATE_SDK_NATIVE_BIN=") {
			s.env = append(s.env, kv)
		}
	}
	s.copyTree(filepath.Join(unpacked, "tree"), s.dir)
	s.git("init", "-q", "-b", "main")
	s.git("add", "-A")
	s.git("commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	for _, rec := range []string{"gate-hooks.placed", "gates-init-hooks.json"} {
		data, err := os.ReadFile(filepath.Join(unpacked, "git", rec))
		if err != nil {
			t.Fatal(err)
		}
		s.write(".git/"+rec, string(data), 0o644)
	}
	for _, h := range []string{"pre-commit", "commit-msg", "pre-merge-commit"} {
		s.write(".git/gate-hooks/"+h, olderHook, 0o755)
	}
	s.git("config", "core.hooksPath", ".git/gate-hooks")
	return s
}

func fileDigest(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// workFiles answers every file under dir, by slash path, outside .git,
// the placed binary and the scratch dir.
func workFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".git" || rel == ".tmp" {
				return filepath.SkipDir
			}
			return nil
		}
		if rel == "bin/gates" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUpgradeFromAnOlderAdoption re-runs init with this binary over a tree
// a binary 166 commits older adopted with its hooks and the claude
// harness, the README's "Upgrading" route: the hooks and the placed binary
// become this binary, the harness registrations and every seeded file the
// user never edited become what a fresh adoption by this binary writes,
// the one the user edited is kept, what the release changes is printed,
// and the battery and a commit through the refreshed hooks are green.
func TestUpgradeFromAnOlderAdoption(t *testing.T) {
	t.Parallel()
	s := unpackOlderAdoption(t)
	knobs := "scripts/gate-sdk-config.knobs"
	edited := s.read(knobs) + "\n# ours: the docs are held to the portability floor too\nGATE_SDK_PORTABILITY_PATHS = docs\n"
	s.write(knobs, edited, 0o644)
	s.git("commit", "-q", "--no-verify", "-am", "chore: our knobs")

	code, out := s.gates(nil, "init")
	if code != 0 {
		t.Fatalf("init over the older adoption: exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"init: the kit moves from the build stamped " + olderStamp + " to ",
		"init:   templates changed: ",
		"init:   knobs added: GATE_SDK_GATE_TIMEOUT",
		"init: placed the gates binary at bin/gates",
		"init: updated scripts/msg-patterns.list (unedited since init, and this release's template differs)",
		"init: kept " + knobs + " (edited since init)",
		"init: refreshed the git hooks in ",
		"init: refreshed the gate-sdk hook members in .claude/settings.json",
		"next:\n  git status && git diff          what the release changed in your tree\n  bin/gates doctor                 exit 0: nothing wrong\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("init does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "init --hooks ") || strings.Contains(out, "the first battery") {
		t.Errorf("the upgrade's next steps are a first adoption's:\n%s", out)
	}
	if got := s.read(knobs); got != edited {
		t.Errorf("the edited knob file was not kept:\n%s", got)
	}
	// The hooks and the placed binary are this binary, byte for byte.
	want := fileDigest(t, binPath)
	if got := fileDigest(t, filepath.Join(s.dir, "bin/gates")); got != want {
		t.Errorf("bin/gates is not this binary")
	}
	for _, h := range []string{"pre-commit", "commit-msg", "pre-merge-commit"} {
		if got := fileDigest(t, filepath.Join(s.dir, ".git/gate-hooks", h)); got != want {
			t.Errorf("the %s hook is not this binary", h)
		}
	}

	// Every other file is what this binary's own adoption of the same
	// repository writes: the seeds, the kit, the lock, the registry and
	// the harness registrations.
	fresh := newScratchBare(t)
	fresh.dir = filepath.Join(filepath.Dir(fresh.dir), "fresh", "repo")
	fresh.env = nil
	for _, kv := range cleanEnv(fresh.dir) {
		if !strings.HasPrefix(kv, "GATE_SDK_NATIVE_BIN=") {
			fresh.env = append(fresh.env, kv)
		}
	}
	fresh.write("README.md", s.read("README.md"), 0o644)
	fresh.write("docs/guide.md", s.read("docs/guide.md"), 0o644)
	fresh.git("init", "-q", "-b", "main")
	fresh.git("add", "-A")
	fresh.git("commit", "-q", "-m", "chore: start")
	if code, out := fresh.gates(nil, "init", "--hooks", "--harness", "claude"); code != 0 {
		t.Fatalf("a fresh adoption by this binary: exit %d\n%s", code, out)
	}
	got, wantFiles := workFiles(t, s.dir), workFiles(t, fresh.dir)
	delete(got, knobs)
	delete(wantFiles, knobs)
	for rel, body := range wantFiles {
		if g, ok := got[rel]; !ok {
			t.Errorf("the upgrade left out %s", rel)
		} else if g != body {
			t.Errorf("%s differs from a fresh adoption's: %s", rel, firstDifference(g, body))
		}
	}
	for rel := range got {
		if _, ok := wantFiles[rel]; !ok {
			t.Errorf("the upgrade kept %s, which a fresh adoption does not write", rel)
		}
	}

	// Doctor finds nothing wrong, the battery is green, and a commit goes
	// through the refreshed hooks.
	s.git("add", "-A")
	if code, out := s.run(nil, "bin/gates", "doctor"); code != 0 {
		t.Errorf("doctor after the upgrade: exit %d\n%s", code, out)
	}
	if code, out := s.run(nil, "bin/gates", "--run"); code != 0 {
		t.Fatalf("the battery after the upgrade: exit %d\n%s", code, out)
	}
	code, out = s.run(nil, "git", "commit", "-m", "chore: upgrade gate-sdk")
	if code != 0 || !strings.Contains(out, "pre-commit: ") || !strings.Contains(out, "commit-msg: ") {
		t.Fatalf("the upgrade's commit through the refreshed hooks: exit %d\n%s", code, out)
	}
}

// firstDifference names the first line where got and want part.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d is %.120q, a fresh adoption's is %.120q", i+1, gl, wl)
		}
	}
	return "same lines"
}
