// Package baseline is the file of accepted findings, scripts/gates.baseline:
// its line grammar, the key a finding is matched by, and the ledger one gate
// run consumes while its report is written.
//
// A key is the registered gate name, the finding's path, its failure class
// and a digest of its text with the location taken out, so an edit that only
// moves a finding to another line keeps it accepted, and any change to what
// the finding says makes it new. The file never holds a finding's text: a
// tree-terms finding quotes the banned term, and the baseline must neither
// publish it nor trip the gate that bans it.
package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
)

// Name is the file's name inside the gates directory.
const Name = "gates.baseline"

// DigestLen is the number of hex digits a line's digest carries.
const DigestLen = 16

// Key identifies one accepted finding.
type Key struct {
	Gate   string // registered name, e.g. check-action-pinning
	Path   string // repository-relative, "" when the finding names no file
	Class  string // the gate's failure class
	Digest string // DigestLen hex digits of the location-free text
}

// Entry is one line of the file: a key and how many identical findings it
// accepts.
type Entry struct {
	Key
	Count int
	Line  int // 1-based line in the file it was read from; 0 when built
}

// File is a parsed baseline.
type File struct {
	Source  string // how the file is named in messages, e.g. scripts/gates.baseline
	Entries []Entry
}

// Text answers what a finding's key digests: its message, or, for a gate
// whose line shape is pinned, the printed text with the leading location
// (path, line and column) cut off.
//
// assertion B: the line number never enters the key.
func Text(f gate.Finding) string {
	if f.Msg != "" {
		return f.Msg
	}
	t := f.Text
	if t == "" {
		return f.String()
	}
	if f.Path == "" {
		return t
	}
	q := gate.QuotePath(f.Path)
	if !strings.HasPrefix(t, q) {
		return t
	}
	rest := t[len(q):]
	for i := 0; i < 2; i++ {
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if len(rest) == 0 || rest[0] != ':' || j == 1 {
			break
		}
		rest = rest[j:]
	}
	rest = strings.TrimPrefix(rest, ":")
	return strings.TrimPrefix(rest, " ")
}

// Digest answers the DigestLen-digit digest of a location-free text.
func Digest(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])[:DigestLen]
}

// KeyOf answers the key of gate's finding f.
func KeyOf(gateName string, f gate.Finding) Key {
	return Key{Gate: gateName, Path: f.Path, Class: f.Class, Digest: Digest(Text(f))}
}

// Tally counts findings by key: the multiset a baseline is matched against.
type Tally map[Key]int

// Add counts gate's findings.
func (t Tally) Add(gateName string, fs []gate.Finding) {
	for _, f := range fs {
		t[KeyOf(gateName, f)]++
	}
}

// Entries answers the tally as sorted entries.
func (t Tally) Entries() []Entry {
	out := make([]Entry, 0, len(t))
	for k, n := range t {
		out = append(out, Entry{Key: k, Count: n})
	}
	sortEntries(out)
	return out
}

func sortEntries(es []Entry) {
	sort.Slice(es, func(i, j int) bool { return es[i].Key.less(es[j].Key) })
}

func (k Key) less(o Key) bool {
	if k.Gate != o.Gate {
		return k.Gate < o.Gate
	}
	if k.Path != o.Path {
		return k.Path < o.Path
	}
	if k.Class != o.Class {
		return k.Class < o.Class
	}
	return k.Digest < o.Digest
}

// Header is the comment block the file opens with.
const Header = `# gates.baseline: findings this repository has accepted. A finding listed
# here is counted on its gate's clean line instead of turning it red; one
# that is not listed reds as before. Written by ` + "`gates baseline`" + `; ` + "`gates doctor`" + `
# names entries no finding matches any more, ` + "`gates baseline --prune`" + ` drops them.
#
# One line per finding, sorted, fields split by a tab:
#   <gate> <path> <class> <digest> [x<count>]
# gate: the registered name; path: the file, as git quotes it ("-" for none);
# class: the gate's failure class; digest: the first 16 hex digits of the
# SHA-256 of the finding's text with its path, line and column removed (the
# text itself is never written here); x<count>: how many identical findings
# in that file are accepted, when more than one.
`

// Format renders entries as the file: the header, then one sorted line per
// key (entries of one key merged, their counts summed).
//
// assertion A: sorted, one line per key, the count only past one.
func Format(entries []Entry) []byte {
	merged := map[Key]int{}
	for _, e := range entries {
		merged[e.Key] += e.Count
	}
	var b strings.Builder
	b.WriteString(Header)
	for _, e := range Tally(merged).Entries() {
		if e.Count < 1 {
			continue
		}
		path := "-"
		switch e.Path {
		case "":
		case "-":
			path = `"-"`
		default:
			path = gate.QuotePath(e.Path)
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s", e.Gate, path, e.Class, e.Digest)
		if e.Count > 1 {
			fmt.Fprintf(&b, "\tx%d", e.Count)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Parse reads a baseline. A line that is not a comment, blank, or a
// well-formed entry is refused with the file and line named; so is a key
// given twice.
//
// assertion C: a malformed line is a refusal naming file and line.
func Parse(source string, data []byte) (*File, error) {
	f := &File{Source: source}
	seen := map[Key]int{}
	text := string(data)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	n := 0
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		n++
		line = strings.TrimSuffix(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%s:%d: %s", source, n, fmt.Sprintf(format, a...))
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 4 && len(fields) != 5 {
			return nil, bad("an entry is <gate> TAB <path> TAB <class> TAB <digest> [TAB x<count>]; this line has %d tab-separated fields", len(fields))
		}
		e := Entry{Count: 1, Line: n}
		e.Gate, e.Class, e.Digest = fields[0], fields[2], fields[3]
		if !word(e.Gate) {
			return nil, bad("gate %q is not a gate name", e.Gate)
		}
		if !word(e.Class) {
			return nil, bad("class %q is not a failure class", e.Class)
		}
		if len(e.Digest) != DigestLen || strings.Trim(e.Digest, "0123456789abcdef") != "" {
			return nil, bad("digest %q is not %d lower-case hex digits", e.Digest, DigestLen)
		}
		switch p := fields[1]; {
		case p == "-":
		case p == "":
			return nil, bad("the path is empty (write - for a finding that names no file)")
		default:
			up, err := gate.UnquotePath(p)
			if err != nil {
				return nil, bad("%v", err)
			}
			if up == "" {
				return nil, bad("path %s names no file", p)
			}
			e.Path = up
		}
		if len(fields) == 5 {
			c := fields[4]
			v, err := strconv.Atoi(strings.TrimPrefix(c, "x"))
			if !strings.HasPrefix(c, "x") || err != nil || v < 2 || strconv.Itoa(v) != c[1:] {
				return nil, bad("count %q is not x<n> with n of 2 or more", c)
			}
			e.Count = v
		}
		if first, ok := seen[e.Key]; ok {
			return nil, bad("the same finding as line %d; give one line with its count", first)
		}
		seen[e.Key] = n
		f.Entries = append(f.Entries, e)
	}
	return f, nil
}

// word reports whether s is a non-empty token with no blank or control byte.
func word(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f || c == '#' {
			return false
		}
	}
	return true
}

// Gates answers the gate names the file names, sorted, each once.
func (f *File) Gates() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range f.Entries {
		if !seen[e.Gate] {
			seen[e.Gate] = true
			out = append(out, e.Gate)
		}
	}
	sort.Strings(out)
	return out
}

// For answers the ledger one run of gate consumes. A nil file answers nil,
// which accepts nothing.
func (f *File) For(gateName string) *Ledger {
	if f == nil {
		return nil
	}
	l := &Ledger{gate: gateName, source: f.Source, left: map[Key]int{}}
	for _, e := range f.Entries {
		if e.Gate == gateName {
			l.left[e.Key] += e.Count
		}
	}
	if len(l.left) == 0 {
		return nil
	}
	return l
}

// Ledger is what one gate run may still accept: each entry's count,
// spent as matching findings arrive, so two accepted identical findings
// never hide a third. Not safe for concurrent use; a report is written
// by one goroutine.
type Ledger struct {
	gate   string
	source string
	left   map[Key]int
}

// Accept spends one entry matching the gate's finding f and reports
// whether there was one.
//
// assertion D: a count of n accepts n identical findings, never n+1.
func (l *Ledger) Accept(f gate.Finding) bool {
	if l == nil {
		return false
	}
	k := KeyOf(l.gate, f)
	if l.left[k] < 1 {
		return false
	}
	l.left[k]--
	return true
}

// Source names the file the ledger was read from.
func (l *Ledger) Source() string { return l.source }

// Stale is one entry (or the part of its count) no current finding
// matches.
type Stale struct {
	Entry
	Unmatched int // how many of Count matched nothing
}

// Match compares the file with the findings of the gates that ran. An
// entry of a gate that did not run is neither matched nor stale.
//
// assertion E: stale means no current finding of a gate that ran matches
// it; a count larger than the findings is stale by the difference.
func (f *File) Match(current Tally, ran map[string]bool) (accepted map[string]int, stale []Stale) {
	accepted = map[string]int{}
	for _, e := range f.Entries {
		if !ran[e.Gate] {
			continue
		}
		got := current[e.Key]
		if got > e.Count {
			got = e.Count
		}
		accepted[e.Gate] += got
		if got < e.Count {
			stale = append(stale, Stale{Entry: e, Unmatched: e.Count - got})
		}
	}
	return accepted, stale
}

// Pruned answers the file's entries with the stale parts removed and
// nothing else changed.
func (f *File) Pruned(stale []Stale) []Entry {
	drop := map[Key]int{}
	for _, s := range stale {
		drop[s.Key] += s.Unmatched
	}
	var out []Entry
	for _, e := range f.Entries {
		e.Count -= drop[e.Key]
		if e.Count > 0 {
			out = append(out, e)
		}
	}
	return out
}

// String renders an entry as its file line (without the newline).
func (e Entry) String() string {
	line := strings.TrimSuffix(strings.TrimPrefix(string(Format([]Entry{e})), Header), "\n")
	return line
}

// Union answers the entries of two files, each key once with the larger
// of its two counts: a finding either tree has is accepted, never more
// copies of it than one tree holds.
func Union(a, b []Entry) []Entry {
	most := map[Key]int{}
	for _, es := range [][]Entry{a, b} {
		for _, e := range es {
			if e.Count > most[e.Key] {
				most[e.Key] = e.Count
			}
		}
	}
	return Tally(most).Entries()
}
