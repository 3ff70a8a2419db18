package repo

import (
	"bytes"
	"fmt"
	"strings"
)

// SourceStamp answers the source stamp of the module tracked under dir: the
// one derivation every holder of the stamp shares (this function, which the
// binary-fresh gate and the e2e builds call; gate_native_source_stamp in
// lib/gate.sh, which the Makefile and the build script bake in with
// -ldflags -X).
//
// The stamp is git's own content identity, in three steps:
//  1. the path set is `git ls-files -z` under dir, in index order (the
//     index decides which files count, so staging a new file moves it);
//  2. each path's blob id over its worktree bytes, `git hash-object --
//     <path>...` (the worktree is what the compiler read);
//  3. one record per path, "<blob-id> <path>" ended by a NUL, in index
//     order, hashed again with `git hash-object --stdin`.
//
// git is the only hasher, so the Go and the shell holder cannot disagree
// about a canonical form. A tracked path that is not UTF-8 refuses, as
// every tracked listing does; a tracked path missing from the worktree
// refuses, because git cannot hash it.
func SourceStamp(dir string) (string, error) { return Git{}.SourceStamp(dir) }

// hashBatch bounds the operands of one hash-object call, far below any
// platform's argument limit.
const hashBatch = 256

// SourceStamp is the package-level SourceStamp under g's environment.
func (g Git) SourceStamp(dir string) (string, error) {
	// assertion A: the index's path set, in index order.
	paths, err := g.Tracked(dir)
	if err != nil {
		return "", err
	}
	var listing bytes.Buffer
	for start := 0; start < len(paths); start += hashBatch {
		end := min(start+hashBatch, len(paths))
		// assertion B: worktree blob ids, batched; assertion D: any failure refuses.
		args := append([]string{"hash-object", "--"}, paths[start:end]...)
		out, err := g.run(dir, "hash the tracked source", args...)
		if err != nil {
			return "", err
		}
		ids := strings.Fields(string(out))
		if len(ids) != end-start {
			return "", &ListingError{Dir: dir, What: "hash the tracked source",
				Err: reportError(fmt.Sprintf("git hash-object answered %d ids for %d paths", len(ids), end-start))}
		}
		for i, id := range ids {
			fmt.Fprintf(&listing, "%s %s\x00", id, paths[start+i])
		}
	}
	// assertion C: the NUL-ended listing, hashed again.
	out, err := g.runStdin(dir, "hash the source listing", &listing, "hash-object", "--stdin")
	if err != nil {
		return "", err
	}
	stamp := strings.TrimSpace(string(out))
	if stamp == "" {
		return "", &ListingError{Dir: dir, What: "hash the source listing", Err: reportError("git hash-object printed no id")}
	}
	return stamp, nil
}

// StampSymbol is the package variable the build bakes the stamp into, the
// operand of `-ldflags -X <symbol>=<stamp>` (the Makefile's LDFLAGS spells
// the same symbol; a test holds the two equal).
const StampSymbol = "github.com/gate-sdk/gates/internal/cli.sourceStamp"

// StampLDFlag answers the -X flag that bakes the stamp of the module under
// dir into a build, for a caller assembling a go build's -ldflags.
func StampLDFlag(dir string) (string, error) { return Git{}.StampLDFlag(dir) }

// StampLDFlag is the package-level StampLDFlag under g's environment.
func (g Git) StampLDFlag(dir string) (string, error) {
	s, err := g.SourceStamp(dir)
	if err != nil {
		return "", err
	}
	return "-X " + StampSymbol + "=" + s, nil
}
