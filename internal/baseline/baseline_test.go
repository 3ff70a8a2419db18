package baseline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
)

// home is a home path spelled so that this file does not hold one.
var home = "/" + "home/marta/notes"

func pinning(line int, ref string) gate.Finding {
	return gate.Finding{Class: "unpinned", Path: ".github/workflows/ci.yml", Line: line, Msg: "uses: " + ref + " is pinned to a tag"}
}

func TestRoundTripAndSort(t *testing.T) {
	tally := &Tally{}
	tally.Add("check-tree-terms", []gate.Finding{{Class: "leak", Path: "b.md", Line: 3, Msg: home}})
	tally.Add("check-action-pinning", []gate.Finding{pinning(9, "z@v1"), pinning(4, "a@v2"), pinning(5, "a@v2")})
	tally.Add("check-x", []gate.Finding{{Class: "c", Path: "a\tb", Msg: "m"}, gate.Finding{Class: "c", Path: "-", Msg: "m"}, gate.Finding{Class: "c", Msg: "no path"}})
	data := Format(tally.Entries())
	f, err := Parse("scripts/gates.baseline", data)
	if err != nil {
		t.Fatalf("the written file does not parse: %v\n%s", err, data)
	}
	if again := Format(f.Entries); !bytes.Equal(again, data) {
		t.Fatalf("round trip changed the file:\n%s\n---\n%s", data, again)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimPrefix(string(data), Header), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) != 6 {
		t.Fatalf("want 6 entry lines, got %d:\n%s", len(lines), data)
	}
	for i := 1; i < len(f.Entries); i++ {
		if !f.Entries[i-1].Key.less(f.Entries[i].Key) {
			t.Fatalf("entries %d and %d out of order:\n%s", i, i+1, data)
		}
	}
	got := map[Key]int{}
	for _, e := range f.Entries {
		got[e.Key] = e.Count
	}
	for _, e := range tally.Entries() {
		if got[e.Key] != e.Count {
			t.Errorf("%v: count %d read back as %d", e.Key, e.Count, got[e.Key])
		}
	}
	if !strings.Contains(string(data), "\t\"a\\tb\"\t") || !strings.Contains(string(data), "\t\"-\"\t") || !strings.Contains(string(data), "check-x\t-\tc\t") {
		t.Errorf("paths are not quoted as documented:\n%s", data)
	}
	if !strings.Contains(string(data), "\tx2\t# ") {
		t.Errorf("two identical findings are not one line with x2:\n%s", data)
	}
}

func TestNoFindingTextIsWritten(t *testing.T) {
	tally := &Tally{}
	tally.Add("check-tree-terms", []gate.Finding{{Class: "leak", Path: "README.md", Line: 1, Msg: "see " + home,
		Text: "README.md:1:see " + home}})
	if data := Format(tally.Entries()); strings.Contains(string(data), "marta") {
		t.Fatalf("the baseline quotes the banned text:\n%s", data)
	}
}

func TestKeyIgnoresLineNumber(t *testing.T) {
	cases := []struct{ a, b gate.Finding }{
		{pinning(4, "a@v1"), pinning(40, "a@v1")},
		// A pinned line shape: the location comes off the printed text.
		{gate.Finding{Class: "leak", Path: "a.md", Line: 2, Text: "a.md:2:secret"}, gate.Finding{Class: "leak", Path: "a.md", Line: 12, Text: "a.md:12:secret"}},
		{gate.Finding{Class: "k", Path: "a b", Line: 2, Column: 5, Text: "a b:2:5: msg"}, gate.Finding{Class: "k", Path: "a b", Line: 3, Column: 1, Text: "a b:3:1: msg"}},
		{gate.Finding{Class: "k", Path: "x\ny", Line: 2, Text: "\"x\\ny\":2:t"}, gate.Finding{Class: "k", Path: "x\ny", Line: 7, Text: "\"x\\ny\":7:t"}},
	}
	for _, c := range cases {
		if KeyOf("g", c.a) != KeyOf("g", c.b) {
			t.Errorf("%q and %q key apart: %v vs %v", c.a.String(), c.b.String(), KeyOf("g", c.a), KeyOf("g", c.b))
		}
	}
	apart := []struct{ a, b gate.Finding }{
		{pinning(4, "a@v1"), pinning(4, "a@v2")},
		{gate.Finding{Class: "leak", Path: "a.md", Line: 2, Text: "a.md:2:secret"}, gate.Finding{Class: "leak", Path: "a.md", Line: 2, Text: "a.md:2:secret2"}},
		{gate.Finding{Class: "leak", Path: "a.md", Line: 2, Msg: "m"}, gate.Finding{Class: "leak", Path: "b.md", Line: 2, Msg: "m"}},
		{gate.Finding{Class: "c1", Path: "a.md", Msg: "m"}, gate.Finding{Class: "c2", Path: "a.md", Msg: "m"}},
	}
	for _, c := range apart {
		if KeyOf("g", c.a) == KeyOf("g", c.b) {
			t.Errorf("%q and %q share a key", c.a.String(), c.b.String())
		}
	}
	if KeyOf("g1", pinning(1, "a")) == KeyOf("g2", pinning(1, "a")) {
		t.Error("two gates share a key")
	}
}

func TestMultiplicity(t *testing.T) {
	tally := &Tally{}
	tally.Add("g", []gate.Finding{pinning(1, "a"), pinning(2, "a")})
	f, err := Parse("b", Format(tally.Entries()))
	if err != nil {
		t.Fatal(err)
	}
	l := f.For("g")
	for i, want := range []bool{true, true, false} {
		if got := l.Accept(pinning(10+i, "a")); got != want {
			t.Fatalf("finding %d: accepted %v, want %v", i+1, got, want)
		}
	}
	if f.For("other") != nil {
		t.Error("a gate the file does not name has a ledger")
	}
	if l := f.For("g"); !l.Accept(pinning(3, "a")) {
		t.Error("a fresh run's ledger starts spent")
	}
}

func TestMalformedRefused(t *testing.T) {
	ok := "g\tp\tc\t0123456789abcdef\n"
	cases := map[string]string{
		"three fields":    "g\tp\tc\n",
		"space separated": "g p c 0123456789abcdef\n",
		"short digest":    "g\tp\tc\t0123\n",
		"upper digest":    "g\tp\tc\t0123456789ABCDEF\n",
		"count one":       "g\tp\tc\t0123456789abcdef\tx1\n",
		"count word":      "g\tp\tc\t0123456789abcdef\t3\n",
		"count padded":    "g\tp\tc\t0123456789abcdef\tx02\n",
		"empty path":      "g\t\tc\t0123456789abcdef\n",
		"open quote":      "g\t\"p\tc\t0123456789abcdef\n",
		"duplicate":       ok,
		"blank gate":      " \tp\tc\t0123456789abcdef\n",
	}
	for name, line := range cases {
		data := "# header\n" + ok + line
		_, err := Parse("scripts/gates.baseline", []byte(data))
		if err == nil {
			t.Errorf("%s: %q parsed", name, line)
			continue
		}
		if !strings.HasPrefix(err.Error(), "scripts/gates.baseline:3: ") {
			t.Errorf("%s: the refusal does not name file and line: %v", name, err)
		}
	}
	if _, err := Parse("b", []byte("# only a comment\n\n"+ok)); err != nil {
		t.Errorf("a well-formed file is refused: %v", err)
	}
}

func TestMatchAndPrune(t *testing.T) {
	tally := &Tally{}
	tally.Add("g", []gate.Finding{pinning(1, "a"), pinning(2, "a"), pinning(3, "b"), pinning(4, "c")})
	tally.Add("sh", []gate.Finding{pinning(1, "a")})
	f, err := Parse("b", Format(tally.Entries()))
	if err != nil {
		t.Fatal(err)
	}
	now := &Tally{}
	now.Add("g", []gate.Finding{pinning(7, "a"), pinning(9, "c")})
	accepted, stale := f.Match(now, map[string]bool{"g": true})
	if accepted["g"] != 2 {
		t.Errorf("accepted %v, want g:2", accepted)
	}
	if len(stale) != 2 {
		t.Fatalf("stale %v, want the b entry and one of the two a", stale)
	}
	pruned := f.Pruned(stale)
	want := &Tally{}
	want.Add("g", []gate.Finding{pinning(1, "a"), pinning(1, "c")})
	want.Add("sh", []gate.Finding{pinning(1, "a")})
	if got, w := Format(pruned), Format(want.Entries()); !bytes.Equal(got, w) {
		t.Fatalf("pruned:\n%s\nwant:\n%s", got, w)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(Header + "g\tp\tc\t0123456789abcdef\tx3\n"))
	f.Add([]byte("g\t\"a\\tb\"\tc\t0123456789abcdef\n# c\n\r\n"))
	f.Add([]byte("g\t-\tc\t0123456789abcdef"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Parse("f", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("a refusal names no file: %v", err)
			}
			return
		}
		out := Format(b.Entries)
		again, err := Parse("f", out)
		if err != nil {
			t.Fatalf("the file Format wrote does not parse: %v\n%q", err, out)
		}
		if !bytes.Equal(Format(again.Entries), out) {
			t.Fatalf("Format is not stable over its own output:\n%q", out)
		}
	})
}

func TestUnionTakesTheLargerCount(t *testing.T) {
	a, b := &Tally{}, Tally{}
	a.Add("g", []gate.Finding{pinning(1, "x"), pinning(2, "x"), pinning(3, "only-a")})
	b.Add("g", []gate.Finding{pinning(1, "x"), pinning(5, "only-b")})
	want := &Tally{}
	want.Add("g", []gate.Finding{pinning(1, "x"), pinning(2, "x"), pinning(3, "only-a"), pinning(4, "only-b")})
	if got, w := Format(Union(a.Entries(), b.Entries())), Format(want.Entries()); !bytes.Equal(got, w) {
		t.Fatalf("union:\n%s\nwant:\n%s", got, w)
	}
}

// pinned is a pinning finding as the gate makes it now: a fingerprint of
// the action and its step, a message naming the ref.
func pinned(line int, ref, step string) gate.Finding {
	f := pinning(line, ref)
	action, _, _ := strings.Cut(ref, "@")
	f.Identity = "action=" + action + "\x00job=build\x00step=" + step
	f.About = action + " in job build"
	return f
}

func TestFingerprintNotTextKeysTheFinding(t *testing.T) {
	old := pinned(4, "actions/checkout@v4", "name=Check out#1")
	bumped := pinned(9, "actions/checkout@v5", "name=Check out#1")
	bumped.Msg = "a reworded message about " + bumped.Msg
	if KeyOf("g", old) != KeyOf("g", bumped) {
		t.Error("a tag bump, a moved line or a reworded message changed the key")
	}
	other := pinned(4, "actions/checkout@v4", "name=Check out#2")
	if KeyOf("g", old) == KeyOf("g", other) {
		t.Error("a second step of the same action shares the first one's key")
	}
	f, err := Parse("b", Format((&Tally{Seen: []Seen{SeenOf("g", old)}}).Entries()))
	if err != nil {
		t.Fatal(err)
	}
	l := f.For("g")
	if l.Accept(other) {
		t.Error("the entry of one step accepted another step's finding")
	}
	if !l.Accept(bumped) {
		t.Error("the entry does not accept its finding after a tag bump")
	}
}

// TestEarlierFormatStillReads holds a file written before fingerprints:
// four or five fields, no note, digests of the location-free text.
func TestEarlierFormatStillReads(t *testing.T) {
	f1 := pinned(7, "actions/checkout@v4", "uses=actions/checkout#1")
	legacy := "# gates.baseline, earlier format\n" +
		"check-action-pinning\t.github/workflows/ci.yml\tunpinned\t" + Digest(f1.Msg) + "\n" +
		"check-tree-terms\tlogo.png\tleak\t" + Digest("") + "\n"
	f, err := Parse("scripts/gates.baseline", []byte(legacy))
	if err != nil {
		t.Fatalf("a file in the earlier format is refused: %v", err)
	}
	if !f.For("check-action-pinning").Accept(f1) {
		t.Error("an earlier-format entry no longer accepts its finding")
	}
	now := &Tally{}
	now.Add("check-action-pinning", []gate.Finding{f1})
	accepted, stale := f.Match(now, map[string]bool{"check-action-pinning": true})
	if accepted["check-action-pinning"] != 1 || len(stale) != 0 {
		t.Errorf("earlier-format entry: accepted %v stale %v, want one accepted, none stale", accepted, stale)
	}
	// A binary file's earlier entry is the digest of the empty text: it
	// named no content, so it accepts no binary finding now.
	bin := gate.Finding{Class: "leak", Path: "logo.png", Text: "logo.png", Identity: "binary\x00pattern=x\x01matched=x"}
	if f.For("check-tree-terms").Accept(bin) {
		t.Error("an empty-text entry accepts a binary file's finding")
	}
}

func TestNoteWrittenAndRead(t *testing.T) {
	tally := &Tally{}
	tally.Add("check-tree-terms", []gate.Finding{{Class: "leak", Path: "README.md", Line: 1, Msg: "see " + home,
		Identity: "pattern=/home/\x01matched=" + home, About: "pattern scripts/banned.list:3\tand\nmore"}})
	data := Format(tally.Entries())
	want := "check-tree-terms\tREADME.md\tleak\t"
	line := ""
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, want) {
			line = l
		}
	}
	if !strings.HasSuffix(line, "\t# leak in README.md: pattern scripts/banned.list:3 and more") {
		t.Fatalf("the entry carries no readable note on one line: %q", line)
	}
	if strings.Contains(string(data), "marta") {
		t.Fatalf("the baseline quotes the banned text:\n%s", data)
	}
	f, err := Parse("b", data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Entries[0].About != "leak in README.md: pattern scripts/banned.list:3 and more" {
		t.Errorf("the note reads back as %q", f.Entries[0].About)
	}
}

func TestFollowRenames(t *testing.T) {
	out := []byte("R100\x00.github/workflows/old.yml\x00.github/workflows/new.yml\x00R087\x00a b\x00c\x00")
	pairs, err := ParseRenames(out)
	if err != nil {
		t.Fatal(err)
	}
	m := Chain(pairs)
	if m[".github/workflows/old.yml"] != ".github/workflows/new.yml" || m["a b"] != "c" || len(m) != 2 {
		t.Fatalf("renames read as %v", m)
	}
	if _, err := ParseRenames([]byte("M\x00a\x00")); err == nil {
		t.Error("a listing that is not renames is read")
	}
	// Two commits, log's empty field between them: a file renamed twice
	// maps from its first name to its last.
	pairs, err = ParseRenames([]byte("R100\x00a\x00b\x00\x00R090\x00b\x00c\x00"))
	if err != nil {
		t.Fatal(err)
	}
	if twice := Chain(pairs); twice["a"] != "c" || len(twice) != 1 {
		t.Errorf("a file renamed twice maps as %v", twice)
	}
	fin := pinned(3, "actions/checkout@v4", "id=co")
	tally := &Tally{}
	tally.Add("g", []gate.Finding{fin})
	f, err := Parse("b", Format(tally.Entries()))
	if err != nil {
		t.Fatal(err)
	}
	moved := fin
	moved.Path = ".github/workflows/new.yml"
	fin.Path = ".github/workflows/old.yml"
	if f.For("g").Accept(moved) {
		t.Fatal("setup: the entry accepts the finding at another path before any rename")
	}
	f = (&File{Source: f.Source, Entries: []Entry{{Key: KeyOf("g", fin), Count: 1, Line: 9}}}).Follow(m)
	if !f.For("g").Accept(moved) {
		t.Error("the entry does not follow its file's rename")
	}
	if f.Entries[0].Line != 9 {
		t.Error("following a rename renumbered the entry")
	}
}

func TestAddedNamesWhatACommitAccepts(t *testing.T) {
	before := &Tally{}
	before.Add("check-action-pinning", []gate.Finding{pinned(3, "actions/checkout@v4", "id=co")})
	leak := gate.Finding{Class: "leak", Path: "README.md", Line: 2, Msg: "see " + home,
		Identity: "pattern=/home/\x01matched=" + home, About: "pattern scripts/banned.list:1"}
	now := &Tally{}
	now.Add("check-action-pinning", []gate.Finding{pinned(3, "actions/checkout@v4", "id=co")})
	now.Add("check-tree-terms", []gate.Finding{leak, leak})
	b, err := Parse("b", Format(before.Entries()))
	if err != nil {
		t.Fatal(err)
	}
	n, err := Parse("b", Format(now.Entries()))
	if err != nil {
		t.Fatal(err)
	}
	added := Added(b, n)
	if len(added) != 1 {
		t.Fatalf("added %v, want the tree-terms entry alone", added)
	}
	want := "check-tree-terms README.md leak (x2) — leak in README.md: pattern scripts/banned.list:1"
	if got := added[0].Describe(); got != want {
		t.Errorf("described as %q, want %q", got, want)
	}
	if strings.Contains(added[0].Describe(), "marta") {
		t.Error("the description quotes the matched text")
	}
	if len(Added(n, b)) != 0 || len(Added(n, n)) != 0 {
		t.Error("a shrinking or unchanged baseline is reported as adding")
	}
	// A count that grows adds the difference.
	more := &Tally{}
	more.Add("check-tree-terms", []gate.Finding{leak, leak, leak})
	m, _ := Parse("b", Format(more.Entries()))
	if a := Added(n, m); len(a) != 1 || a[0].Count != 1 {
		t.Errorf("a count grown by one adds %v", a)
	}
}

// Issue 42 item 17 (a mutant that survived): Pruned drops an entry whose
// whole count is stale, itself and not only through Format's filter, and
// keeps the rest of a partly stale one.
func TestPrunedDropsAWhollyStaleEntry(t *testing.T) {
	f, err := Parse("b", []byte("g\ta\tc\t0123456789abcdef\n"+"g\tb\tc\t0123456789abcdef\tx3\n"+"g\tc\tc\t0123456789abcdef\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, stale := f.Match(&Tally{Seen: []Seen{{Key: f.Entries[1].Key}, {Key: f.Entries[2].Key}}}, map[string]bool{"g": true})
	got := f.Pruned(stale)
	if len(got) != 2 || got[0].Path != "b" || got[0].Count != 1 || got[1].Path != "c" || got[1].Count != 1 {
		t.Fatalf("Pruned = %+v, want b x1 and c, a dropped", got)
	}
}

// Issue 42 item 17: a line holding no key (empty, blanks alone, a comment)
// is a comment as the grammar says, counted in the line numbers; a line
// holding more fields than an entry has (four, a count, a note) is refused
// naming its line and the count of fields it holds as written.
func TestLineWithNoKeyOrTooManyFields(t *testing.T) {
	ok := "g\tp\tc\t0123456789abcdef"
	for name, line := range map[string]string{
		"empty":              "",
		"spaces":             "   ",
		"a tab":              "\t",
		"tabs and spaces":    " \t \t",
		"three tabs":         "\t\t\t",
		"a CR alone":         "\r",
		"a comment":          "# c",
		"a bare hash":        "#",
		"a comment with tab": "# c\td",
	} {
		f, err := Parse("scripts/gates.baseline", []byte(line+"\n"+ok+"\tx2\n"))
		if err != nil {
			t.Errorf("%s: %q is refused: %v", name, line, err)
			continue
		}
		if len(f.Entries) != 1 || f.Entries[0].Line != 2 || f.Entries[0].Count != 2 {
			t.Errorf("%s: %q: entries %+v, want the one entry of line 2", name, line, f.Entries)
		}
	}
	for name, c := range map[string]struct {
		line  string
		count string
	}{
		"nine fields, a note last":  {ok + "\tx2\t# n\t#a\t#b\t#c", "9"},
		"nine fields, no note":      {ok + "\tx2\ta\tb\tc\td", "9"},
		"seven fields, a note last": {ok + "\tx2\tx3\t# n", "7"},
		"two notes":                 {ok + "\t# a\t# b", "6"},
	} {
		_, err := Parse("scripts/gates.baseline", []byte("# header\n"+c.line+"\n"))
		if err == nil {
			t.Errorf("%s: %q parsed", name, c.line)
			continue
		}
		if !strings.HasPrefix(err.Error(), "scripts/gates.baseline:2: ") {
			t.Errorf("%s: the refusal does not name file and line: %v", name, err)
		}
		if c.count != "" && !strings.Contains(err.Error(), "this line has "+c.count+" tab-separated fields") {
			t.Errorf("%s: the refusal does not count the %s fields as written: %v", name, c.count, err)
		}
	}
}

// Issue 42 item 19: the location comes off a pinned line shape whatever
// digits the line and column hold (a 0, a 9), at most line and column
// come off (a message may open with a number), and a text that is the
// location alone leaves nothing.
func TestTextCutsTheLocationExactly(t *testing.T) {
	for text, want := range map[string]string{
		"a.md:10:20: msg":  "msg",
		"a.md:9:19: msg":   "msg",
		"a.md:2:3:10 left": "10 left",
		"a.md:12":          "",
		"a.md:7:8":         "",
		"a.md:: msg":       ": msg",
		"a.md:x":           "x",
	} {
		if got := Text(gate.Finding{Class: "k", Path: "a.md", Line: 1, Text: text}); got != want {
			t.Errorf("Text(%q) = %q, want %q", text, got, want)
		}
	}
}

// Issue 42 item 19: the file's order is gate, then path, then class, then
// digest, each ascending, whatever order the entries arrive in.
func TestFormatOrdersByGatePathClassDigest(t *testing.T) {
	d0, d1 := "0000000000000000", "1111111111111111"
	want := []string{
		"a\tp\tc\t" + d1,
		"b\tp\tc\t" + d0,
		"b\tq\tc\t" + d0,
		"b\tq\td\t" + d0,
		"b\tq\td\t" + d1,
	}
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}, {2, 4, 0, 3, 1}} {
		var es []Entry
		for _, i := range order {
			f := strings.Split(want[i], "\t")
			es = append(es, Entry{Key: Key{Gate: f[0], Path: f[1], Class: f[2], Digest: f[3]}, Count: 1})
		}
		got := strings.TrimPrefix(string(Format(es)), Header)
		if w := strings.Join(want, "\n") + "\n"; got != w {
			t.Errorf("entries in order %v formatted as\n%s\nwant\n%s", order, got, w)
		}
	}
}

// Issue 42 item 19: two entries of one key are one line, their counts
// summed and the first note there is kept.
func TestFormatMergesOneKey(t *testing.T) {
	k := Key{Gate: "g", Path: "p", Class: "c", Digest: "0123456789abcdef"}
	got := strings.TrimPrefix(string(Format([]Entry{{Key: k, Count: 1}, {Key: k, Count: 2, About: "second"}, {Key: k, Count: 1, About: "third"}})), Header)
	if want := "g\tp\tc\t0123456789abcdef\tx4\t# second\n"; got != want {
		t.Errorf("one key given three times formats as %q, want %q", got, want)
	}
}

// Issue 42 item 19: a listing cut short (a status with no new path) is
// refused naming the field, never read past its end.
func TestParseRenamesRefusesATruncatedListing(t *testing.T) {
	for _, out := range []string{"R100\x00a", "R100", "R100\x00a\x00b\x00R090\x00c"} {
		if _, err := ParseRenames([]byte(out)); err == nil {
			t.Errorf("%q is read", out)
		}
	}
	_, err := ParseRenames([]byte("R100\x00a\x00b\x00M\x00x\x00"))
	if err == nil || !strings.Contains(err.Error(), "at field 4") {
		t.Errorf("a listing whose fourth field is no rename status: %v, want a refusal naming field 4", err)
	}
}

// Issue 42 item 19: Absent answers whether an entry names a file that is
// not there; an entry that names no file, or a nil file, never does.
func TestAbsentNamesOnlyMissingFiles(t *testing.T) {
	var nilFile *File
	if nilFile.Absent(func(string) bool { return false }) {
		t.Error("a nil file has an absent entry")
	}
	f := &File{Entries: []Entry{{Key: Key{Gate: "g", Class: "c"}}, {Key: Key{Gate: "g", Path: "here", Class: "c"}}}}
	present := func(p string) bool { return p == "here" }
	if f.Absent(present) {
		t.Error("an entry naming no file, or naming a present one, is called absent")
	}
	f.Entries = append(f.Entries, Entry{Key: Key{Gate: "g", Path: "gone", Class: "c"}})
	if !f.Absent(present) {
		t.Error("an entry naming a missing file is not called absent")
	}
}

// Issue 42 item 19: a rename can map two lines onto one key; what the
// file then adds is their sum over what the earlier file held, once.
func TestAddedOverTwoLinesOfOneKey(t *testing.T) {
	k := Key{Gate: "g", Path: "new", Class: "c", Digest: "0123456789abcdef"}
	before := &File{Entries: []Entry{{Key: k, Count: 1}}}
	now := &File{Entries: []Entry{{Key: k, Count: 1, Line: 1}, {Key: k, Count: 1, Line: 2}}}
	added := Added(before, now)
	if len(added) != 1 || added[0].Count != 1 {
		t.Errorf("two lines of a key the earlier file held once add %+v, want one entry of count 1", added)
	}
	if got := Added(nil, now); len(got) != 2 {
		t.Errorf("over no earlier file, two lines add %+v, want both", got)
	}
}

// Issue 42 item 19: the count is described only when there is more
// than one.
func TestDescribeCountOnlyPastOne(t *testing.T) {
	e := Entry{Key: Key{Gate: "g", Path: "a\tb", Class: "c"}, Count: 1}
	if got, want := e.Describe(), `g "a\tb" c`; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	e.Count, e.Path = 2, ""
	if got, want := e.Describe(), "g - c (x2)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}

// A baseline saved with a UTF-8 byte-order mark holds the same entries:
// the mark is the file's encoding signature, no part of its first line
// (which, as written, is the header's comment, so the mark used to turn
// it into a malformed entry and refuse the whole battery). Another
// line's mark is still part of that line.
func TestByteOrderMarkIsNoPartOfTheFirstLine(t *testing.T) {
	tally := &Tally{}
	tally.Add("check-action-pinning", []gate.Finding{pinning(4, "a@v2")})
	data := Format(tally.Entries())
	plain, err := Parse("scripts/gates.baseline", data)
	if err != nil {
		t.Fatal(err)
	}
	marked, err := Parse("scripts/gates.baseline", append([]byte("\ufeff"), data...))
	if err != nil {
		t.Fatalf("a marked baseline: %v", err)
	}
	if !bytes.Equal(Format(marked.Entries), Format(plain.Entries)) {
		t.Errorf("a marked baseline reads other entries")
	}
	if _, err := Parse("scripts/gates.baseline", append(append([]byte{}, data...), "\ufeff# late\n"...)); err == nil {
		t.Errorf("a mark past the first byte was dropped")
	}
}
