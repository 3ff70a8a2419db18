package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// benchFiles is the size of the generated benchmark repository.
const benchFiles = 20000

type benchRepo struct {
	top string
	env []string
	err error
}

// The generated repository is built once per test binary and removed by
// TestMain; benchmarks share it read-only.
var (
	benchOnce sync.Once
	bench     benchRepo
	benchRoot string
)

func TestMain(m *testing.M) {
	if addr := os.Getenv(fakeWatchEnv); addr != "" {
		// A copy of this binary playing a watcher (treevouch_test.go).
		fakeWatch(addr, os.Getenv(fakeWatchLineEnv))
		return
	}
	code := m.Run()
	if benchRoot != "" {
		os.RemoveAll(benchRoot)
	}
	os.Exit(code)
}

func largeRepo(b *testing.B) benchRepo {
	b.Helper()
	benchOnce.Do(func() {
		root, err := os.MkdirTemp("", "gates-repo-bench-")
		if err != nil {
			bench.err = err
			return
		}
		benchRoot = root
		bench.top = filepath.Join(root, "repo")
		bench.env = testEnv(filepath.Join(root, "home"))
		line := strings.Repeat("lorem ipsum dolor sit amet ", 3) + "\n"
		for i := 0; i < benchFiles; i++ {
			p := filepath.Join(bench.top, fmt.Sprintf("d%03d", i/100), fmt.Sprintf("s%d", i%7), fmt.Sprintf("file %05d.md", i))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				bench.err = err
				return
			}
			body := fmt.Sprintf("# file %d\n%s", i, strings.Repeat(line, 1+i%12))
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				bench.err = err
				return
			}
		}
		runGit(b, bench.top, bench.env, "init", "-q", "-b", "main")
		runGit(b, bench.top, bench.env, "add", "-A")
		runGit(b, bench.top, bench.env, "commit", "-q", "-m", "bench")
		runGit(b, bench.top, bench.env, "remote", "add", "origin", "https://example.invalid/r.git")
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench
}

func BenchmarkTrackedCLI(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		names, err := g.Tracked(r.top)
		if err != nil || len(names) != benchFiles {
			b.Fatal(len(names), err)
		}
	}
}

func BenchmarkIndexCLI(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := g.IndexModes(r.top)
		if err != nil || len(e) != benchFiles {
			b.Fatal(len(e), err)
		}
	}
}

func BenchmarkIndexGoGit(b *testing.B) {
	r := largeRepo(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := IndexEntriesAt(r.top)
		if err != nil || len(e) != benchFiles {
			b.Fatal(len(e), err)
		}
	}
}

func BenchmarkSnapshotBuildCLI(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s, err := g.NewSnapshot(r.top); err != nil || s.Len() != benchFiles {
			b.Fatal(err)
		}
	}
}

func BenchmarkSnapshotBuildGoGit(b *testing.B) {
	r := largeRepo(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := IndexEntriesAt(r.top)
		if err != nil {
			b.Fatal(err)
		}
		if s := SnapshotOf(r.top, e); s.Len() != benchFiles {
			b.Fatal(s.Len())
		}
	}
}

// BenchmarkSnapshotReadAll builds the snapshot and reads every file once,
// serially: the floor the battery's shared read sits on.
func BenchmarkSnapshotReadAll(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	b.ResetTimer()
	var total int64
	for i := 0; i < b.N; i++ {
		s, err := g.NewSnapshot(r.top)
		if err != nil {
			b.Fatal(err)
		}
		total = 0
		for _, f := range s.Files() {
			data, err := s.Read(f)
			if err != nil {
				b.Fatal(err)
			}
			total += int64(len(data))
		}
	}
	b.ReportMetric(float64(total)/1e6, "MB/op-read")
}

// BenchmarkSnapshotReadAllParallel has GOMAXPROCS readers each read every
// file, as concurrent gates do: each file's bytes still come off disk once.
func BenchmarkSnapshotReadAllParallel(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	workers := runtime.GOMAXPROCS(0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := g.NewSnapshot(r.top)
		if err != nil {
			b.Fatal(err)
		}
		files := s.Files()
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for j := range files {
					f := files[(j+w*len(files)/workers)%len(files)]
					if _, err := s.Read(f); err != nil {
						b.Error(err)
						return
					}
				}
			}(w)
		}
		wg.Wait()
	}
}

// BenchmarkReadAllDirect is the control: every tracked file read straight
// off disk with no snapshot, after one listing.
func BenchmarkReadAllDirect(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		names, err := g.Tracked(r.top)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range names {
			if _, err := os.ReadFile(walk.Child(r.top, n)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkHeadCLI(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if h, err := g.ReadHead(r.top); err != nil || h.Hash == "" {
			b.Fatal(h, err)
		}
	}
}

func BenchmarkHeadGoGit(b *testing.B) {
	r := largeRepo(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if h, err := HeadAt(r.top); err != nil || h.Hash == "" {
			b.Fatal(h, err)
		}
	}
}

func BenchmarkRemotesCLI(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rs, err := g.Remotes(r.top); err != nil || len(rs) != 1 {
			b.Fatal(rs, err)
		}
	}
}

func BenchmarkRemotesGoGit(b *testing.B) {
	r := largeRepo(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rs, err := RemotesAt(r.top); err != nil || len(rs) != 1 {
			b.Fatal(rs, err)
		}
	}
}

// BenchmarkIndexInProcess is the snapshot's index read: one rev-parse
// spawn to locate the file, then our decoder.
func BenchmarkIndexInProcess(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := g.Index(r.top)
		if err != nil || len(e) != benchFiles {
			b.Fatal(len(e), err)
		}
	}
}

// BenchmarkIndexDecode is the decoder alone over the file.
func BenchmarkIndexDecode(b *testing.B) {
	r := largeRepo(b)
	data, err := os.ReadFile(filepath.Join(r.top, ".git/index"))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		idx, err := ParseIndex(data, 20)
		if err != nil || len(idx.Entries) != benchFiles {
			b.Fatal(err)
		}
	}
}

// BenchmarkBlobs reads 200 staged blobs: through go-git's object store
// (what the staged snapshot uses), and through one `git cat-file --batch`.
func BenchmarkBlobs(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	entries, err := g.Index(r.top)
	if err != nil {
		b.Fatal(err)
	}
	entries = entries[:200]
	src, err := g.LocateIndex(r.top)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("go-git", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			bs := newBlobStore(g, r.top, src)
			for _, e := range entries {
				if _, err := bs.read(e.Path, e.Hash); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("cat-file-batch", func(b *testing.B) {
		var ids strings.Builder
		for _, e := range entries {
			ids.WriteString(e.Hash + "\n")
		}
		for i := 0; i < b.N; i++ {
			res := spawn.RunStreamed(spawn.Cmd{Program: spawn.Git(), Args: []string{"cat-file", "--batch"}, Dir: r.top, Env: r.env}, []byte(ids.String()))
			if res.Code() != 0 {
				b.Fatal(res.Code())
			}
		}
	})
}

// BenchmarkStagedSnapshot is the pre-commit hook's first step: the index
// located, decoded and built into the snapshot the members share.
func BenchmarkStagedSnapshot(b *testing.B) {
	r := largeRepo(b)
	g := Git{Env: r.env}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := g.StagedSnapshot(r.top)
		if err != nil || s.Len() != benchFiles {
			b.Fatal(err)
		}
	}
}
