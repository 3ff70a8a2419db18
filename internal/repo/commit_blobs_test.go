package repo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A commit listed through ls-tree has its blobs read in process, from the
// common dir the caller names or, when it names none, the one git's
// layout locates, under the object format of the listed ids: no git
// cat-file is spawned (GIT_TRACE lists every git the reads start).
func TestCommitSnapshotReadsBlobsInProcess(t *testing.T) {
	root, top, env, rev := oneCommitRepo(t)
	bare := bareClone(t, root, top, env)
	for _, common := range []string{filepath.ToSlash(bare), ""} {
		trace := filepath.Join(t.TempDir(), "trace")
		g := Git{Env: append(append([]string(nil), env...), "GIT_TRACE="+trace)}
		s, err := g.CommitSnapshot(bare, common, rev)
		if err != nil {
			t.Fatal(err)
		}
		if data, err := s.Read("a.txt"); err != nil || string(data) != "a\n" {
			t.Fatalf("common %q: Read = %q %v", common, data, err)
		}
		log, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(log), "ls-tree") {
			t.Fatalf("common %q: the trace holds no ls-tree, so it proves nothing: %s", common, log)
		}
		if strings.Contains(string(log), "cat-file") {
			t.Errorf("common %q: a blob was read through git:\n%s", common, log)
		}
	}
}

// assertion C: HEAD is read in process where go-git can: no git is
// spawned, and the answer is the CLI's.
func TestHeadReadsInProcess(t *testing.T) {
	fx := newFixture(t)
	trace := filepath.Join(t.TempDir(), "trace")
	g := Git{Env: append(append([]string(nil), fx.env...), "GIT_TRACE="+trace)}
	h, err := g.Head(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	if log, err := os.ReadFile(trace); err == nil && len(log) > 0 {
		t.Errorf("Head spawned git:\n%s", log)
	}
	cli, err := (Git{Env: fx.env}).ReadHead(fx.top)
	if err != nil {
		t.Fatal(err)
	}
	if h != cli || h.Hash == "" {
		t.Errorf("Head = %+v, the CLI's %+v", h, cli)
	}
}
