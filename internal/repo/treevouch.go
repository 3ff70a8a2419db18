package repo

import (
	"bytes"
	"crypto/sha1"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gate-sdk/gates/internal/treewatch"
	"github.com/gate-sdk/gates/internal/walk"
)

// The tree watcher's vouch (kits/gate-sdk/SPEC.md, stop-gates K to N).
//
// A Stop asks the watcher for its token (epoch, count, the digest of the
// directories it watches) before anything else. A clean proof by the memo
// (cleanProof) that follows, with the watcher armed on exactly the memo's
// directories, is recorded with that token, the index file's stamp and
// HEAD's tree. A later Stop whose watcher answers the same token, whose
// index stamp and HEAD's tree are the recorded ones and whose memo files
// outside the watched directories (config, exclude files) and environment
// are as recorded, is vouched clean with no stat of a tracked file and no
// read of the index. Anything else is the memo's path, which stays exact.

// treeVouchName is the vouch's file in the harness state directory.
const (
	treeVouchName = "tree-vouch"
	treeVouchHead = "gates tree vouch 1"
)

// StartTreeWatch starts a detached watcher of top serving stateDir's memo
// (the binary's own `--tree-watch` mode). It is nil where the running
// executable cannot serve one (a test binary): then no watcher is started
// and every Stop takes the memo's path.
var StartTreeWatch func(top, stateDir string)

// watchVouched counts the Stops the watcher's vouch answered (tests read it).
var watchVouched atomic.Int64

// treeVouch is a clean proof's record under a watcher's token.
type treeVouch struct {
	top, epoch, digest string
	count              uint64
	env, index, tree   string
	files              []memoStamp
}

func (v treeVouch) encode() []byte {
	var b bytes.Buffer
	rec := func(kind, value string) { b.WriteString(kind + " " + value + "\x00") }
	b.WriteString(treeVouchHead + "\x00")
	rec("top", v.top)
	rec("epoch", v.epoch)
	rec("count", strconv.FormatUint(v.count, 10))
	rec("digest", v.digest)
	rec("env", v.env)
	rec("index", v.index)
	rec("tree", v.tree)
	for _, f := range v.files {
		rec("file", f.stamp+"\t"+f.path)
	}
	return b.Bytes()
}

func decodeTreeVouch(data []byte) (treeVouch, bool) {
	var v treeVouch
	head, rest, ok := bytes.Cut(data, []byte{0})
	if !ok || string(head) != treeVouchHead {
		return v, false
	}
	seen := 0
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return treeVouch{}, false
		}
		kind, val, ok := strings.Cut(string(rest[:i]), " ")
		rest = rest[i+1:]
		if !ok || val == "" {
			return treeVouch{}, false
		}
		switch kind {
		case "top":
			v.top, seen = val, seen|1
		case "epoch":
			v.epoch, seen = val, seen|2
		case "count":
			n, err := strconv.ParseUint(val, 10, 64)
			if err != nil {
				return treeVouch{}, false
			}
			v.count, seen = n, seen|4
		case "digest":
			v.digest, seen = val, seen|8
		case "env":
			v.env, seen = val, seen|16
		case "index":
			v.index, seen = val, seen|32
		case "tree":
			v.tree, seen = val, seen|64
		case "file":
			stamp, path, ok := strings.Cut(val, "\t")
			if !ok {
				return treeVouch{}, false
			}
			v.files = append(v.files, memoStamp{stamp, path})
		default:
			return treeVouch{}, false
		}
	}
	return v, seen == 127
}

// watchAsk is one Stop's exchange with the tree watcher: the token it
// answered before the Stop read anything, or why there is none.
type watchAsk struct {
	addr string
	tok  treewatch.Status
	err  error
}

// askWatch reads the watcher's token; nil when the watcher is off.
func (g Git) askWatch(stateDir string) *watchAsk {
	if !g.TreeWatch || !treewatch.Supported {
		return nil
	}
	w := &watchAsk{addr: treewatch.Address(stateDir, stateDir)}
	w.tok, w.err = treewatch.Ask(w.addr, "query")
	return w
}

// vouched reports whether the token vouches for the tree: a vouch
// recorded under this very token, and the index, HEAD's tree, the
// environment and the memo's files as recorded then.
func (w *watchAsk) vouched(g Git, top, stateDir string) bool {
	if w == nil || w.err != nil || !w.tok.Armed {
		return false
	}
	data, err := os.ReadFile(walk.Child(stateDir, treeVouchName))
	if err != nil {
		return false
	}
	v, ok := decodeTreeVouch(data)
	// assertion K (stop-gates): only the token a clean proof recorded,
	// from the watcher armed on the memo's own directories, vouches.
	if !ok || v.top != top || v.epoch != w.tok.Epoch || v.count != w.tok.Count || v.digest != w.tok.Digest {
		return false
	}
	env := g.Env
	if env == nil {
		env = os.Environ()
	}
	if v.env != envDigest(env) {
		return false
	}
	src, err := g.LocateIndex(top)
	if err != nil || src.Prefix != "" || src.CommonDir == "" || src.File != walk.Child(src.CommonDir, "index") || src.HashLen != sha1.Size {
		return false
	}
	// assertion N (stop-gates): the index and HEAD may move without a
	// work-tree event (`git add`, `git reset --soft`): both are read.
	if s, _, ok := indexStamp(src.File); !ok || s != v.index {
		return false
	}
	for _, f := range v.files {
		if s, ok := fileStamp(f.path, true, fileTime{}); !ok || s != f.stamp {
			return false
		}
	}
	if tree, ok := headTree(src.CommonDir, env); !ok || tree != v.tree {
		return false
	}
	watchVouched.Add(1)
	return true
}

// memoDirs answers the memo's directories, relative to the top.
func memoDirs(m treeMemo) []string {
	out := make([]string, len(m.dirs))
	for i, d := range m.dirs {
		out[i] = d.path
	}
	return out
}

// afterProof follows a clean proof by memo m: recorded under the token
// when the watcher was armed on m's directories before the proof began,
// otherwise the watcher armed (or started) on them for the next Stop.
func (w *watchAsk) afterProof(top, stateDir string, m treeMemo, p memoProof, env []string) {
	if w == nil {
		return
	}
	digest := treewatch.DirsDigest(memoDirs(m))
	if w.err == nil && w.tok.Armed && w.tok.Digest == digest {
		if !p.watchable {
			return
		}
		// assertion K (stop-gates): the token was read before the proof,
		// so any event after it moves the count past the recorded one.
		v := treeVouch{top: top, epoch: w.tok.Epoch, count: w.tok.Count, digest: digest,
			env: envDigest(env), index: p.index, tree: p.tree}
		// Every memo file stays stat-checked, those in the watched
		// directories (the .gitignore files) as well: a handful of stats.
		v.files = append(v.files, m.files...)
		_ = walk.ReplaceFile(walk.Child(stateDir, treeVouchName), v.encode())
		return
	}
	w.arm(top, stateDir)
}

// afterMemo follows a memo just written by a clean listing: the watcher
// armed on its directories unless it already watches exactly them.
func (w *watchAsk) afterMemo(top, stateDir string, m treeMemo) {
	if w == nil {
		return
	}
	if w.err == nil && w.tok.Armed && w.tok.Digest == treewatch.DirsDigest(memoDirs(m)) {
		return
	}
	w.arm(top, stateDir)
}

// arm asks the watcher that answered to place its watches anew, or starts
// one where none answered (or one this binary does not trust did).
func (w *watchAsk) arm(top, stateDir string) {
	if w.err == nil {
		_, _ = treewatch.Ask(w.addr, "arm")
		return
	}
	if treewatch.IsForeign(w.err) {
		// Perhaps the watcher of an earlier build of this binary: asked
		// to stop, it frees the lock the new one takes.
		treewatch.Tell(w.addr, "stop")
	}
	if StartTreeWatch != nil {
		StartTreeWatch(top, stateDir)
	}
}

// ServeTreeWatch is the watcher's process (`--tree-watch <top> <state dir>
// [<idle seconds>]`): it serves the tree until idle, told to stop, or the
// tree or the state directory is gone. The directories it watches are the
// memo's in the state directory, read at each arming.
func ServeTreeWatch(top, stateDir string, idle time.Duration) error {
	s, err := treewatch.Listen(treeWatchConfig(top, stateDir, idle))
	if err != nil {
		return err
	}
	s.Serve()
	return nil
}

// treeWatchConfig is the watcher of top serving stateDir's memo.
func treeWatchConfig(top, stateDir string, idle time.Duration) treewatch.Config {
	return treewatch.Config{
		Top:    top,
		GitDir: stateDir,
		Socket: treewatch.Address(stateDir, stateDir),
		Idle:   idle,
		Dirs: func() ([]string, error) {
			data, err := os.ReadFile(walk.Child(stateDir, treeMemoName))
			if err != nil {
				return nil, err
			}
			m, ok := decodeTreeMemo(data)
			if !ok {
				return nil, os.ErrInvalid
			}
			return memoDirs(m), nil
		},
	}
}
