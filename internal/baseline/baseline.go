// Package baseline is the file of accepted findings, scripts/gates.baseline:
// its line grammar, the key a finding is matched by, and the ledger one gate
// run consumes while its report is written.
//
// A key is the registered gate name, the finding's path, its failure class
// and a digest of the finding's fingerprint: what the finding is about, as
// its gate defines it (gate.Finding.Identity), or, for a gate that defines
// none, its text with the location taken out. A routine edit (a moved
// line, a bumped tag, a reordered job, a renamed file) keeps the finding
// accepted; a new one of the same kind elsewhere is new. The file never
// holds a finding's text: a tree-terms finding quotes the banned term, and
// the baseline must neither publish it nor trip the gate that bans it.
package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/walk"
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
	// About is the readable note written beside the digest (without its
	// "# "): the class, the file and what the gate says the finding is
	// about. It is for a reviewer; nothing matches on it.
	About string
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

// Fingerprint answers the digest a finding is keyed by: of the identity
// its gate gave it, else of its location-free text.
//
// assertion H: a gate's fingerprint, never its line or its message when
// the gate defines one, keys an accepted finding.
func Fingerprint(f gate.Finding) string {
	if f.Identity != "" {
		return Digest("identity\x00" + f.Identity)
	}
	return Digest(Text(f))
}

// LegacyDigest answers the digest a baseline written before fingerprints
// holds for f, "" when no such entry may accept it: the gate defines no
// identity (the fingerprint is that digest already), or the text is empty
// (a binary file's record, whose old digest named no content at all).
func LegacyDigest(f gate.Finding) string {
	if f.Identity == "" {
		return ""
	}
	t := Text(f)
	if t == "" {
		return ""
	}
	return Digest(t)
}

// KeyOf answers the key of gate's finding f.
func KeyOf(gateName string, f gate.Finding) Key {
	return Key{Gate: gateName, Path: f.Path, Class: f.Class, Digest: Fingerprint(f)}
}

// Seen is one current finding as a baseline is matched with it: its key,
// the digest an entry of the earlier format would hold ("" for none) and
// the note written beside a new entry.
type Seen struct {
	Key    Key
	Legacy string
	About  string
}

// SeenOf answers how gate's finding f is matched and written.
func SeenOf(gateName string, f gate.Finding) Seen {
	return Seen{Key: KeyOf(gateName, f), Legacy: LegacyDigest(f), About: Summary(f)}
}

// Summary answers the note written beside f's entry: its class, its file
// and what its gate says it is about. No gate puts a finding's matched
// text in About, so the note quotes none.
func Summary(f gate.Finding) string {
	s := f.Class
	if f.Path != "" {
		s += " in " + gate.QuotePath(f.Path)
	}
	if f.About != "" {
		s += ": " + f.About
	}
	return oneLine(s)
}

// oneLine replaces every control byte with a blank, so a note stays one
// field of one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// Tally is the current findings a baseline is written from and matched
// against, in the order they were reported.
type Tally struct {
	Seen []Seen
}

// Add counts gate's findings.
func (t *Tally) Add(gateName string, fs []gate.Finding) {
	for _, f := range fs {
		t.Seen = append(t.Seen, SeenOf(gateName, f))
	}
}

// Entries answers the tally as sorted entries, one per key, each with the
// note of its first finding.
func (t *Tally) Entries() []Entry {
	at := map[Key]int{}
	var out []Entry
	for _, s := range t.Seen {
		if i, ok := at[s.Key]; ok {
			out[i].Count++
			continue
		}
		at[s.Key] = len(out)
		out = append(out, Entry{Key: s.Key, Count: 1, About: s.About})
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
#   <gate> <path> <class> <digest> [x<count>] [# <note>]
# gate: the registered name; path: the file, as git quotes it ("-" for none);
# class: the gate's failure class; digest: the first 16 hex digits of the
# SHA-256 of the finding's fingerprint, what its gate says it is about (an
# action and its step, a job, a pattern and the text it matched), or, for
# a gate that defines none, its text with path, line and column removed
# (the text itself is never written here); x<count>: how many identical
# findings in that file are accepted, when more than one; note: what the
# entry accepts, for a reviewer (never the matched text; not matched on).
# An entry follows its file through a rename git detects.
`

// Format renders entries as the file: the header, then one sorted line per
// key (entries of one key merged, their counts summed).
//
// assertion A: sorted, one line per key, the count only past one.
func Format(entries []Entry) []byte {
	at := map[Key]int{}
	var all []Entry
	for _, e := range entries {
		if i, ok := at[e.Key]; ok {
			all[i].Count += e.Count
			if all[i].About == "" {
				all[i].About = e.About
			}
			continue
		}
		at[e.Key] = len(all)
		e.Line = 0
		all = append(all, e)
	}
	sortEntries(all)
	var b strings.Builder
	b.WriteString(Header)
	for _, e := range all {
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
		if about := oneLine(e.About); about != "" {
			fmt.Fprintf(&b, "\t# %s", about)
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
	// A last line without its newline is cut whole all the same. A
	// byte-order mark opening the file is its encoding signature.
	text := walk.TrimBOM(string(data))
	n := 0
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		n++
		line = strings.TrimSuffix(line, "\r")
		// A blank line (nothing but spaces and tabs) holds no key and is
		// a comment, as a # line is.
		if strings.Trim(line, " \t") == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%s:%d: %s", source, n, fmt.Sprintf(format, a...))
		}
		fields := strings.Split(line, "\t")
		// An entry holds four fields, then a count, then a note, each
		// optional; a refusal counts the fields as written, the note's
		// among them, so a line of nine reads as nine.
		written := len(fields)
		wrong := func() error {
			return bad("an entry is <gate> TAB <path> TAB <class> TAB <digest> [TAB x<count>] [TAB # <note>]; this line has %d tab-separated fields", written)
		}
		// A last field opening with # is the note (the earlier format
		// has none, and reads as before).
		about := ""
		if k := len(fields) - 1; k >= 4 && strings.HasPrefix(fields[k], "#") {
			about = strings.TrimPrefix(strings.TrimPrefix(fields[k], "#"), " ")
			fields = fields[:k]
		}
		if len(fields) != 4 && len(fields) != 5 || len(fields) == 5 && strings.HasPrefix(fields[4], "#") {
			// A second note in the count's place is no count either.
			return nil, wrong()
		}
		e := Entry{Count: 1, Line: n, About: about}
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
	return l.spend(SeenOf(l.gate, f))
}

// spend spends the entry keyed by s's fingerprint, else an entry of the
// earlier format holding s's legacy digest.
func (l *Ledger) spend(s Seen) bool {
	if l.left[s.Key] > 0 {
		l.left[s.Key]--
		return true
	}
	if s.Legacy == "" {
		return false
	}
	k := s.Key
	k.Digest = s.Legacy
	if l.left[k] > 0 {
		l.left[k]--
		return true
	}
	return false
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
func (f *File) Match(current *Tally, ran map[string]bool) (accepted map[string]int, stale []Stale) {
	accepted = map[string]int{}
	// The findings spend the entries as a run's ledgers would: each its
	// own fingerprint's entry first, else an earlier-format entry.
	ledgers := map[string]*Ledger{}
	for _, s := range current.Seen {
		g := s.Key.Gate
		l, ok := ledgers[g]
		if !ok {
			l = f.For(g)
			ledgers[g] = l
		}
		if l != nil && l.spend(s) {
			accepted[g]++
		}
	}
	for _, e := range f.Entries {
		if !ran[e.Gate] {
			continue
		}
		l := ledgers[e.Gate]
		left := e.Count
		if l != nil {
			// An entry's share of what is left over: a key given on two
			// lines (a rename mapped one onto another) is split in line
			// order.
			left = min(l.left[e.Key], e.Count)
			l.left[e.Key] -= left
		}
		if left > 0 {
			stale = append(stale, Stale{Entry: e, Unmatched: left})
		}
	}
	return accepted, stale
}

// Pruned answers the file's entries with the stale parts removed and
// nothing else changed.
func (f *File) Pruned(stale []Stale) []Entry {
	drop := map[int]int{}
	for _, s := range stale {
		drop[s.Line] += s.Unmatched
	}
	var out []Entry
	for _, e := range f.Entries {
		e.Count -= drop[e.Line]
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
	about := map[Key]string{}
	for _, es := range [][]Entry{a, b} {
		for _, e := range es {
			if e.Count > most[e.Key] {
				most[e.Key] = e.Count
			}
			if about[e.Key] == "" {
				about[e.Key] = e.About
			}
		}
	}
	out := make([]Entry, 0, len(most))
	for k, n := range most {
		out = append(out, Entry{Key: k, Count: n, About: about[k]})
	}
	sortEntries(out)
	return out
}

// Follow answers the file with each entry whose path git reports renamed
// (old path to new, the old one gone from the tree judged) moved to the
// new path: an accepted finding follows its file. Nothing else changes;
// the lines keep their numbers, so doctor and --prune name them as read.
//
// assertion I: an entry follows its file through a rename.
func (f *File) Follow(renames map[string]string) *File {
	if f == nil || len(renames) == 0 {
		return f
	}
	out := &File{Source: f.Source, Entries: make([]Entry, len(f.Entries))}
	for i, e := range f.Entries {
		if to, ok := renames[e.Path]; ok && e.Path != "" {
			e.Path = to
		}
		out.Entries[i] = e
	}
	return out
}

// ParseRenames reads git's rename listing (`--name-status -z -M
// --diff-filter=R`, from diff or from log with an empty format): a status
// R<score>, the old path and the new one, each NUL-terminated, the empty
// fields log puts between commits passed over. It answers the renames in
// the order listed.
func ParseRenames(out []byte) ([][2]string, error) {
	var pairs [][2]string
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); {
		f := strings.TrimLeft(fields[i], "\n")
		if f == "" {
			i++
			continue
		}
		if i+2 >= len(fields) || !strings.HasPrefix(f, "R") {
			return nil, fmt.Errorf("git's rename listing is not status, old path, new path at field %d", i+1)
		}
		pairs = append(pairs, [2]string{fields[i+1], fields[i+2]})
		i += 3
	}
	return pairs, nil
}

// Chain answers where each renamed path ended up after renames applied in
// order: a file renamed twice maps from its first name to its last.
func Chain(renames [][2]string) map[string]string {
	now := map[string]string{}
	for _, r := range renames {
		moved := false
		for from, to := range now {
			if to == r[0] {
				now[from] = r[1]
				moved = true
			}
		}
		if !moved {
			now[r[0]] = r[1]
		}
	}
	return now
}

// Absent reports whether some entry names a path present reports absent:
// only then can a rename have moved one.
func (f *File) Absent(present func(path string) bool) bool {
	if f == nil {
		return false
	}
	for _, e := range f.Entries {
		if e.Path != "" && !present(e.Path) {
			return true
		}
	}
	return false
}

// Added answers what now accepts beyond before: each key's entry with
// the count it grew by (a new key grows by its whole count), sorted. A
// nil file accepts nothing.
//
// assertion J: a commit that grows the baseline is named by what it adds.
func Added(before, now *File) []Entry {
	if now == nil {
		return nil
	}
	had := map[Key]int{}
	if before != nil {
		for _, e := range before.Entries {
			had[e.Key] += e.Count
		}
	}
	var out []Entry
	for _, e := range now.Entries {
		grew := e.Count - had[e.Key]
		had[e.Key] = max(had[e.Key]-e.Count, 0)
		if grew > 0 {
			e.Count = grew
			out = append(out, e)
		}
	}
	sortEntries(out)
	return out
}

// Describe answers an added entry as one line for a reviewer: its gate,
// path and class, how many it accepts, and its note (never the text).
func (e Entry) Describe() string {
	path := "-"
	if e.Path != "" {
		path = gate.QuotePath(e.Path)
	}
	s := e.Gate + " " + path + " " + e.Class
	if e.Count > 1 {
		s += fmt.Sprintf(" (x%d)", e.Count)
	}
	if e.About != "" {
		s += " — " + oneLine(e.About)
	}
	return s
}
