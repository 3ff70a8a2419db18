package e2e

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The workplace's shared corpus: eight projects outside the Go ecosystem
// (Python, Rust, JavaScript), each as its .github tree, front page,
// contributing guide and licence at the commit its SOURCES.txt names. It
// lies beside the project's clone (../shared/corpus), read-only; the noise
// corpus adopts each tree as it adopts a module's, and keeps the reviews
// of its findings in the same file, under the key shared/<name>.

// sharedPrefix opens every key of a shared-corpus finding.
const sharedPrefix = "shared/"

// sharedCorpusRoot is where the shared corpus lies, beside the clone.
func sharedCorpusRoot() string {
	return filepath.Join(filepath.Dir(moduleRoot), "shared", "corpus") // consumer-value-exempt: the workplace's own folder beside the clone
}

// sharedCorpus answers the shared corpus's trees, and false when it is not
// here (a clone outside the workplace has none).
func sharedCorpus(t *testing.T) ([]corpusModule, bool) {
	t.Helper()
	root := sharedCorpusRoot()
	f, err := os.Open(filepath.Join(root, "SOURCES.txt"))
	if os.IsNotExist(err) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusModule
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) < 2 {
			continue
		}
		dir := filepath.Join(root, w[0])
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			t.Fatalf("%s names %s, which is no directory there", filepath.Join(root, "SOURCES.txt"), w[0])
		}
		out = append(out, corpusModule{id: sharedPrefix + w[0] + "@" + w[1], module: sharedPrefix + w[0], dir: dir})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s names no tree", filepath.Join(root, "SOURCES.txt"))
	}
	return out, true
}
