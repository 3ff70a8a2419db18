// Package treewatch is the Stop's file-system monitor (kits/gate-sdk/SPEC.md,
// stop-gates K to N): a process per work tree that watches the directories
// the tree memo records and counts every event in them, so a Stop that
// finds the count where a clean proof left it knows nothing in the tree
// moved since, without a stat per tracked file.
//
// The model is git's fsmonitor protocol: the watcher hands out a token
// (an epoch, new each time it arms, and a counter bumped on every event);
// the caller asks "what moved since the token", and anything the watcher
// cannot vouch for (a lost event, a watch it could not place or lost, a
// watcher it cannot authenticate) is a full scan.
package treewatch

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Status is the watcher's answer to a query: the token of what it has
// seen so far, and whether that token vouches for anything.
type Status struct {
	// Epoch names one arming: new (random) each time the watches are
	// placed, so counters of two armings are never compared.
	Epoch string
	// Count is the number of events seen since the arming.
	Count uint64
	// Digest names the set of directories armed (DirsDigest).
	Digest string
	// Armed is false before the first arming and once anything made
	// the count unreliable (a queue overflow, a watch that could not be
	// placed or was lost): then no count vouches until the next arming.
	Armed bool
}

// DirsDigest names a set of watched directories (paths relative to the
// top, "" for the top itself) whatever their order.
func DirsDigest(dirs []string) string {
	sorted := append([]string(nil), dirs...)
	sort.Strings(sorted)
	h := sha1.New()
	for _, d := range sorted {
		h.Write([]byte(d))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// encode spells a status as the one line the watcher answers.
func (s Status) encode() string {
	armed := "0"
	if s.Armed {
		armed = "1"
	}
	epoch, digest := s.Epoch, s.Digest
	if epoch == "" {
		epoch = "-"
	}
	if digest == "" {
		digest = "-"
	}
	return "ok " + epoch + " " + strconv.FormatUint(s.Count, 10) + " " + digest + " " + armed + "\n"
}

// decodeStatus reads encode's line; false for anything else.
func decodeStatus(line string) (Status, bool) {
	f := strings.Fields(line)
	if len(f) != 5 || f[0] != "ok" || (f[4] != "0" && f[4] != "1") {
		return Status{}, false
	}
	n, err := strconv.ParseUint(f[2], 10, 64)
	if err != nil {
		return Status{}, false
	}
	s := Status{Epoch: f[1], Count: n, Digest: f[3], Armed: f[4] == "1"}
	if s.Epoch == "-" {
		s.Epoch = ""
	}
	if s.Digest == "-" {
		s.Digest = ""
	}
	if s.Armed && (s.Epoch == "" || s.Digest == "") {
		return Status{}, false
	}
	return s, true
}

// Config is one watcher's work tree and where it answers.
type Config struct {
	// Top is the work tree's top, absolute; the watcher exits when it is
	// gone.
	Top string
	// GitDir is the repository's git directory; the watcher exits when
	// it is gone.
	GitDir string
	// Socket is where the watcher answers (Address).
	Socket string
	// Idle is how long the watcher waits for a request before it exits.
	Idle time.Duration
	// Dirs answers the directories to watch, relative to Top ("" is Top
	// itself); read at each arming.
	Dirs func() ([]string, error)
	// Budget is the most watches one arming may hold; 0 is a quarter of
	// the user's limit (fs.inotify.max_user_watches).
	Budget int
}

// DefaultIdle is how long a watcher waits for a request before it exits.
const DefaultIdle = 30 * time.Minute
