package patterns

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ere"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

func TestLiveLines(t *testing.T) {
	in := "# comment\n\n   \n  # indented comment\nfoo\n  bar \r\n\tbaz\nlast"
	got := LiveLines([]byte(in))
	want := []Line{{5, "foo"}, {6, "  bar "}, {7, "\tbaz"}, {8, "last"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if LiveLines(nil) != nil {
		t.Error("no input must give no line")
	}
	for line, live := range map[string]bool{"": false, " ": false, "#x": false, " #x": false, "x#": true, "\\#": true} {
		if IsLive(line) != live {
			t.Errorf("IsLive(%q) = %v", line, !live)
		}
	}
}

// files is a read function over a map; a value "!dir" reads as a
// directory, which exists but cannot be read.
func files(m map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		v, ok := m[p]
		if !ok {
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
		}
		if v == "!dir" {
			return nil, &fs.PathError{Op: "read", Path: p, Err: errors.New("is a directory")}
		}
		return []byte(v), nil
	}
}

func TestResolveAndLoad(t *testing.T) {
	k := gatetest.Knobs{"REQ": "a.list  b.list", "OPT": "local.list gone.list"}
	srcs, err := FromKnobs(k, "REQ", "OPT")
	if err != nil {
		t.Fatal(err)
	}
	want := []Source{{"a.list", "REQ", true}, {"b.list", "REQ", true}, {"local.list", "OPT", false}, {"gone.list", "OPT", false}}
	if len(srcs) != len(want) {
		t.Fatalf("got %v", srcs)
	}
	for i := range want {
		if srcs[i] != want[i] {
			t.Errorf("source %d = %+v, want %+v", i, srcs[i], want[i])
		}
	}
	read := files(map[string]string{"a.list": "# c\nx\n\ny$\n", "b.list": "", "local.list": "z\n"})
	set, err := Load(read, srcs)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Patterns) != 3 || set.Patterns[1].Text != "y$" || set.Patterns[1].Line != 4 || set.Patterns[2].File != "local.list" {
		t.Errorf("patterns = %+v", set.Patterns)
	}
	if len(set.Read) != 3 || len(set.Absent) != 1 || set.Absent[0].Path != "gone.list" {
		t.Errorf("read %v absent %v", set.Read, set.Absent)
	}
	if set.First("..y") != 1 || set.First("q") != -1 {
		t.Error("First misreads the set")
	}

	// A required file that is missing refuses, naming file and knob.
	_, err = Load(files(nil), []Source{{"a.list", "REQ", true}})
	var miss *MissingError
	if !errors.As(err, &miss) || !strings.Contains(err.Error(), "a.list") || !strings.Contains(err.Error(), "REQ") {
		t.Errorf("missing required: %v", err)
	}
	// Present but unreadable refuses whatever the source.
	_, err = Load(files(map[string]string{"o": "!dir"}), []Source{{"o", "OPT", false}})
	var unr *UnreadableError
	if !errors.As(err, &unr) {
		t.Errorf("unreadable optional: %v", err)
	}
	// A GNU extension refuses, naming pattern, file:line and the construct.
	_, err = Load(files(map[string]string{"p": "ok\nfoo\\sbar\n"}), Named([]string{"p"}))
	var ce *CompileError
	if !errors.As(err, &ce) || ce.Line != 2 {
		t.Fatalf("GNU escape: %v", err)
	}
	for _, s := range []string{`foo\sbar`, "p:2", "GNU"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("refusal %q lacks %q", err, s)
		}
	}
	// Named operands are required.
	if _, err := Load(files(nil), Named([]string{"nope"})); !errors.As(err, &miss) {
		t.Errorf("missing operand: %v", err)
	}
}

func TestLoadReadsRealFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/p", []byte("a\r\nb\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := Load(os.ReadFile, Named([]string{dir + "/p", dir + "/missing"}))
	var miss *MissingError
	if !errors.As(err, &miss) {
		t.Fatalf("want missing, got %v %v", set, err)
	}
	set, err = Load(os.ReadFile, []Source{{dir + "/p", "K", true}, {dir + "/missing", "L", false}})
	if err != nil || len(set.Patterns) != 2 || set.Patterns[0].Text != "a" {
		t.Fatalf("CRLF list: %+v %v", set, err)
	}
}

func TestWidenAnchors(t *testing.T) {
	cases := []struct {
		in, out string
		found   bool
	}{
		{"abc", "abc", false},
		{"^abc", "(\n)?abc", true},
		{"abc$", "abc(\n)?", true},
		{"[^a]b", "[^a]b", false},
		{"[]^$]x", "[]^$]x", false},
		{`\^a\$`, `\^a\$`, false},
		{"(^|[^A-Za-z])x([^[:alpha:]]|$)", "((\n)?|[^A-Za-z])x([^[:alpha:]]|(\n)?)", true},
		{"[[:alpha:]]^", "[[:alpha:]](\n)?", true},
		{"0$$", "0(\n)?(\n)?", true},
	}
	for _, c := range cases {
		out, found := widenAnchors(c.in)
		if out != c.out || found != c.found {
			t.Errorf("widenAnchors(%q) = %q, %v; want %q, %v", c.in, out, found, c.out, c.found)
		}
	}
}

// prefilterSound checks the one property Candidates rests on: a pattern
// matching any line of text is a candidate for the whole text.
func prefilterSound(t *testing.T, pattern, text string) {
	if _, err := ere.Compile(pattern); err != nil {
		return
	}
	set, err := Load(files(map[string]string{"p": pattern}), Named([]string{"p"}))
	if err != nil {
		if strings.ContainsAny(pattern, "\n\r") {
			return
		}
		t.Fatalf("pattern %q compiles alone but not in a set: %v", pattern, err)
	}
	cand := set.Candidates(text, nil)
	for _, line := range strings.Split(text, "\n") {
		if i := set.First(line); i >= 0 && set.FirstOf(line, cand) != i {
			t.Fatalf("pattern %q matches line %q but the whole-text prefilter dropped it (text %q)", set.Patterns[i].Text, line, text)
		}
	}
}

func TestPrefilterSound(t *testing.T) {
	patterns := []string{"0$$", "^^a", "(^)*b", "^a", "a$", "^$", "^a$", "(^|x)b", "b(x|$)", "^a|b$", "(^a)*", "x*^y", "a$b", "[^x]^", "^[A-Z][a-z]*: [0-9]+$", "(^|[^A-Za-z])term([^A-Za-z]|$)"}
	texts := []string{"a", "ba\nab", "\n\n", "x\nb\n", "a\nb", "y\nxy", "Key: 42\n  Key: 1", "a term.\nterm", "q\n\nq", "xb\nbx"}
	for _, p := range patterns {
		for _, s := range texts {
			prefilterSound(t, p, s)
		}
	}
}

func FuzzPrefilterSound(f *testing.F) {
	for _, s := range []string{"^a", "b$", "(^|x)y", "^[A-Z]+: .*$", "a|^b"} {
		f.Add(s, "a\nb\nxy\nQ: z")
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		prefilterSound(t, pattern, text)
	})
}

func FuzzLiveLines(f *testing.F) {
	f.Add([]byte("# c\n\nx\r\n y\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		total := strings.Count(string(data), "\n") + 1
		prev := 0
		for _, l := range LiveLines(data) {
			if l.N <= prev || l.N > total || !IsLive(l.Text) || strings.ContainsAny(l.Text, "\n") {
				t.Fatalf("bad live line %+v of %q", l, data)
			}
			prev = l.N
		}
	})
}

// TestWidenAnchorsBrackets pins the bracket scan the prefilter rests on:
// an anchor inside a bracket expression is a member and stays, one after
// it is widened, whatever the expression holds (a leading ']' after '^', a
// class, a collating symbol, an equivalence class), and a pattern cut
// short (an unclosed bracket or class, a lone trailing backslash) is
// copied as written.
func TestWidenAnchorsBrackets(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"[^]$]$", "[^]$](\n)?"},
		{"[]$]^", "[]$](\n)?"},
		{"[[:alpha:]$]$", "[[:alpha:]$](\n)?"},
		{"[[.$.]$]$", "[[.$.]$](\n)?"},
		{"[[=$=]^]^", "[[=$=]^](\n)?"},
		{"a[", "a["},
		{"x[^", "x[^"},
		{"a[bc$", "a[bc$"},
		{"[a[", "[a["},
		{"[[:ab$", "[[:ab$"},
		{"a\\", "a\\"},
		{"$\\", "(\n)?\\"},
	} {
		if out, _ := widenAnchors(c.in); out != c.out {
			t.Errorf("widenAnchors(%q) = %q, want %q", c.in, out, c.out)
		}
	}
	for _, c := range []struct {
		p    string
		open int
		want int
	}{
		{"[abc]", 0, 4}, {"[^]a]", 0, 4}, {"[]a]", 0, 3}, {"x[[:alpha:]]y", 1, 11},
		{"[[.].]]", 0, 6}, {"[[=a=]b]", 0, 7}, {"[abc", 0, 4}, {"[[:abc", 0, 6}, {"[[:ab:", 0, 6}, {"[", 0, 1}, {"[^", 0, 2},
	} {
		if got := bracketEnd(c.p, c.open); got != c.want {
			t.Errorf("bracketEnd(%q, %d) = %d, want %d", c.p, c.open, got, c.want)
		}
	}
}

// TestSetQueries pins the small queries a scan makes of a loaded set.
func TestSetQueries(t *testing.T) {
	empty, err := Load(files(map[string]string{"p": "# nothing\n"}), Named([]string{"p"}))
	if err != nil {
		t.Fatal(err)
	}
	if !empty.Empty() || empty.First("x") != -1 || len(empty.Candidates("x", nil)) != 0 {
		t.Errorf("an empty set: Empty %v First %d", empty.Empty(), empty.First("x"))
	}
	set, err := Load(files(map[string]string{"p": "a\n^b\nc$\n"}), Named([]string{"p"}))
	if err != nil {
		t.Fatal(err)
	}
	if set.Empty() {
		t.Error("a set of three patterns reads empty")
	}
	if got := set.Candidates("xb\nc\n", []int{9, 9, 9}); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("Candidates = %v, want [1 2] (the buffer reset)", got)
	}
	if set.FirstOf("b", []int{0, 2}) != -1 || set.FirstOf("b", []int{0, 1}) != 1 || set.FirstOf("c", nil) != -1 {
		t.Error("FirstOf misreads its index list")
	}
	if !set.Patterns[1].Match("b") || set.Patterns[1].Match("ab") {
		t.Error("Pattern.Match misreads ^b")
	}
}

// TestRefusalMessages pins what each refusal names, by origin.
func TestRefusalMessages(t *testing.T) {
	_, err := Load(files(map[string]string{"p": "ok\nfoo\\sbar\n"}), []Source{{Path: "p", Origin: "KNOB_X", Required: true}})
	if err == nil || !strings.Contains(err.Error(), "p:2 (KNOB_X)") {
		t.Errorf("a knob-named file's refusal must name the knob: %v", err)
	}
	_, err = Load(files(map[string]string{"p": "foo\\sbar\n"}), Named([]string{"p"}))
	if err == nil || strings.Contains(err.Error(), "(argument)") || !strings.Contains(err.Error(), "p:1") {
		t.Errorf("an operand's refusal names no origin: %v", err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{&MissingError{Source: Source{Path: "a", Origin: FromArgument}}, "pattern file a does not exist"},
		{&MissingError{Source: Source{Path: "a", Origin: "K"}}, "required pattern file a (from K) does not exist"},
		{&UnreadableError{Source: Source{Path: "a", Origin: "K"}, Err: fs.ErrPermission}, "pattern file a (from K) exists but cannot be read: permission denied"},
	} {
		if c.err.Error() != c.want {
			t.Errorf("%T: %q, want %q", c.err, c.err.Error(), c.want)
		}
	}
	u := &UnreadableError{Err: fs.ErrPermission}
	if !errors.Is(u, fs.ErrPermission) {
		t.Error("UnreadableError does not unwrap")
	}
	var ce *CompileError
	if _, err := Load(files(map[string]string{"p": "a\\b\n"}), Named([]string{"p"})); !errors.As(err, &ce) || ce.Unwrap() == nil {
		t.Errorf("CompileError does not unwrap: %v", err)
	}
	// The unreadable cause is the bare error, the path named once.
	_, err = Load(files(map[string]string{"o": "!dir"}), []Source{{"o", "OPT", false}})
	if err == nil || strings.Count(err.Error(), "o") < 1 || strings.Contains(err.Error(), "read o:") {
		t.Errorf("unreadable: %v", err)
	}
	// FromKnobs: an empty name is no knob; a knob that will not resolve is
	// an error naming it.
	srcs, err := FromKnobs(gatetest.Knobs{"R": "x"}, "", "R")
	if err != nil || len(srcs) != 1 || srcs[0].Required {
		t.Errorf("FromKnobs with no required knob: %+v %v", srcs, err)
	}
	if _, err := FromKnobs(failKnobs{}, "R", ""); err == nil || !strings.Contains(err.Error(), "resolving R") {
		t.Errorf("a refused knob: %v", err)
	}
}

type failKnobs struct{}

func (failKnobs) Scalar(string) (string, error)  { return "", errors.New("refused") }
func (failKnobs) Words(string) ([]string, error) { return nil, errors.New("refused") }
func (failKnobs) List(string) ([]string, error)  { return nil, errors.New("refused") }

// assertion S: a '!' line spares the ban matches it accepts, and only
// those: a line holding one unspared match is still flagged, overlapping
// starts included, through the string and the byte query alike.
func TestSparesPassOverPlaceholders(t *testing.T) {
	list := "/(home|Users)/[A-Za-z0-9._-]+/\n!^/(home|Users)/(user|username)/$\n[!]bang\n"
	set, err := Load(files(map[string]string{"p": list}), Named([]string{"p"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Patterns) != 2 || len(set.Spares) != 1 || set.Spares[0].Line != 2 {
		t.Fatalf("patterns %+v spares %+v", set.Patterns, set.Spares)
	}
	home := "/" + "home/"
	for line, want := range map[string]int{
		"see " + home + "user/notes":                           -1,
		"see /Users/username/x":                                -1,
		"see " + home + "marta/notes":                          0,
		home + "user/ and " + home + "marta/x":                 0,
		home + "user" + home + "marta/":                        0, // the second match starts on the first's last byte
		"say !bang":                                            1,
		"no match here":                                        -1,
		home + "users/x (a placeholder only when it is exact)": 0,
	} {
		if got := set.First(line); got != want {
			t.Errorf("First(%q) = %d, want %d", line, got, want)
		}
		all := []int{0, 1}
		if got := set.FirstOfBytes([]byte(line), all); got != want {
			t.Errorf("FirstOfBytes(%q) = %d, want %d", line, got, want)
		}
	}
	// A spare the engine refuses is refused like a ban, naming its line.
	_, err = Load(files(map[string]string{"p": "x\n!a\\sb\n"}), Named([]string{"p"}))
	var ce *CompileError
	if !errors.As(err, &ce) || ce.Line != 2 {
		t.Fatalf("a refused spare: %v", err)
	}
}

// Issue 42 item 11: a line is matched as its content without its
// terminator, a CR before the LF (or at the end of the text) dropped, by
// every query the tree scan and the message gate use.
func TestAnchoredPatternIgnoresTheCR(t *testing.T) {
	plain, err := Load(files(map[string]string{"p": "secret$\n"}), Named([]string{"p"}))
	if err != nil {
		t.Fatal(err)
	}
	spared, err := Load(files(map[string]string{"p": "secret$\n!nothing-like-it\n"}), Named([]string{"p"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []*Set{plain, spared} {
		anchoredCR(t, set)
	}
}

func anchoredCR(t *testing.T, set *Set) {
	t.Helper()
	for _, line := range []string{"a secret", "a secret\r"} {
		if set.First(line) != 0 || set.FirstOf(line, []int{0}) != 0 || set.FirstOfBytes([]byte(line), []int{0}) != 0 {
			t.Errorf("%q: First %d FirstOf %d FirstOfBytes %d, want 0 each", line, set.First(line), set.FirstOf(line, []int{0}), set.FirstOfBytes([]byte(line), []int{0}))
		}
	}
	// Only the one terminating CR goes: a CR inside the line stays.
	for _, line := range []string{"a secret\r\r", "a secret\rx"} {
		if set.First(line) != -1 || set.FirstOfBytes([]byte(line), []int{0}) != -1 {
			t.Errorf("%q matched secret$: more than the terminating CR was dropped", line)
		}
	}
}

// Two loads of one list in a process (check-commit-msg and
// check-tree-terms in one hook run) share the compiled patterns: each
// text is compiled once, and a refused text is refused every time.
func TestLoadCompilesEachTextOnce(t *testing.T) {
	read := func(string) ([]byte, error) { return []byte("compile-once-[a-z]+\n!compile-once-spare\n"), nil }
	src := []Source{{Path: "p.list", Required: true}}
	a, err := Load(read, src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(read, src)
	if err != nil {
		t.Fatal(err)
	}
	if a.Patterns[0].re.get() != b.Patterns[0].re.get() || a.Spares[0].re.get() != b.Spares[0].re.get() {
		t.Error("a second load compiled the same texts again")
	}
	bad := func(string) ([]byte, error) { return []byte("compile-once-(\n"), nil }
	for i := 0; i < 2; i++ {
		if _, err := Load(bad, src); err == nil {
			t.Fatalf("load %d: a malformed pattern was accepted", i+1)
		}
	}
}

// A list saved with a UTF-8 byte-order mark (Windows editors write one)
// reads as the same list without it: the mark is the file's encoding
// signature, not the first line's text. Kept, it became part of the first
// pattern, which then matched nothing, so a banned term went unreported
// and the tree scan printed clean.
func TestLiveLinesDropsALeadingByteOrderMark(t *testing.T) {
	for _, in := range []string{"\ufeffsecret\n# c\nother\n", "\ufeff\nsecret\nother\n"} {
		plain := LiveLines([]byte(strings.TrimPrefix(in, "\ufeff")))
		got := LiveLines([]byte(in))
		if len(got) != len(plain) {
			t.Fatalf("%q: got %v, want %v", in, got, plain)
		}
		for i := range plain {
			if got[i] != plain[i] {
				t.Errorf("%q line %d: got %+v, want %+v", in, i, got[i], plain[i])
			}
		}
	}
	// A comment behind the mark is still a comment.
	if got := LiveLines([]byte("\ufeff# only a comment\n")); got != nil {
		t.Errorf("a marked comment line read as live: %v", got)
	}
	// Only the opening mark goes: one further in is the line's text.
	if got := LiveLines([]byte("a\n\ufeffb\n")); len(got) != 2 || got[1].Text != "\ufeffb" {
		t.Errorf("a mark past the start was dropped: %v", got)
	}
	set, err := Load(files(map[string]string{"p": "\ufeffsecret\n"}), Named([]string{"p"}))
	if err != nil {
		t.Fatal(err)
	}
	if set.First("a secret here") != 0 {
		t.Error("a pattern list opening with a byte-order mark matched nothing")
	}
}

// eagerCopy is set with every pattern compiled afresh, up front and
// outside the process's shared compilations: the form Load built before
// spares and anchored patterns waited for their first use.
func eagerCopy(t *testing.T, set *Set) *Set {
	t.Helper()
	must := func(text string) *ere.Ere {
		re, err := ere.Compile(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		return re
	}
	out := &Set{Read: set.Read, Absent: set.Absent}
	for _, p := range set.Patterns {
		q := Pattern{Text: p.Text, File: p.File, Line: p.Line, re: eager(p.re.text, must(p.re.text))}
		if wide, ok := widenAnchors(p.Text); ok {
			q.pre = must(wide)
		}
		out.Patterns = append(out.Patterns, q)
	}
	for _, p := range set.Spares {
		out.Spares = append(out.Spares, Pattern{Text: p.Text, File: p.File, Line: p.Line, re: eager(p.re.text, must(p.re.text))})
	}
	return out
}

// answers is every query a scan asks of set over text: the candidates,
// and per line First, FirstOf, FirstOfBytes and the matched text.
func answers(set *Set, text string) string {
	var b strings.Builder
	idx := set.Candidates(text, nil)
	fmt.Fprintf(&b, "candidates %v %v\n", idx, set.CandidatesBytes([]byte(text), nil))
	all := make([]int, len(set.Patterns))
	for i := range all {
		all[i] = i
	}
	for n, line := range strings.Split(text, "\n") {
		first := set.FirstOfBytes([]byte(line), all)
		matched := ""
		if first >= 0 {
			matched = set.Matched(first, []byte(line))
		}
		fmt.Fprintf(&b, "%d: %d %d %d %q\n", n, set.First(line), set.FirstOf(line, idx), first, matched)
	}
	return b.String()
}

// The lazily compiled set answers every query as the set compiled whole
// up front, over files with and without hits, spared placeholders,
// anchored lines and CRLF, through the shipped list and a list edited
// between loads (a ban narrowed, a spare added, a ban anchored).
func TestLazySetAnswersAsTheEagerSet(t *testing.T) {
	shipped, err := os.ReadFile("../../templates/msg-patterns.list")
	if err != nil {
		t.Fatal(err)
	}
	home, users := "/"+"home/", "C:\\"+"Users\\"
	uuid := "0f0e0d0c-0b0a-0908-0706-050403020100"
	texts := []string{
		"nothing to see\nat all\n",
		"see " + home + "marta/notes and " + home + "user/x\n",
		"a placeholder " + home + "user/ only\r\nand " + users + "name\\ here\r\n",
		"real " + users + "marta\\Desktop\n",
		"Session-Id: abc" + uuid + "\nnot a header " + uuid + "\n",
		"the `ops-2` account\nservice accounts `svc1` exist\nthe account `test-1`\n",
		"claude" + ".ai/share/x and claude" + ".com/claude-code\n",
		"\x00binary " + home + "marta/\n",
	}
	lists := []string{
		string(shipped),
		// Edited: the home ban narrowed to one name and anchored, a new
		// spare, the UUID header ban dropped.
		"^see " + home + "marta/\n!^" + home + "user/$\n[A-Za-z]:\\\\Users\\\\[A-Za-z]+\\\\\n!Users\\\\name\\\\$\n",
		// Edited again: only unanchored bans, no spare.
		"marta\nclaude\\.ai/\n",
	}
	var last []string
	for k, list := range lists {
		read := func(string) ([]byte, error) { return []byte(list), nil }
		set, err := Load(read, Named([]string{"p.list"}))
		if err != nil {
			t.Fatalf("list %d: %v", k, err)
		}
		ref := eagerCopy(t, set)
		var got []string
		for _, text := range texts {
			a, want := answers(set, text), answers(ref, text)
			if a != want {
				t.Fatalf("list %d over %q:\nlazy:\n%s\neager:\n%s", k, text, a, want)
			}
			got = append(got, a)
		}
		if k > 0 && slices.Equal(got, last) {
			t.Fatalf("list %d answers as list %d: the edit changed nothing the test sees", k, k-1)
		}
		last = got
	}
}

// A spare and an anchored ban are compiled only when asked: a text no
// prefilter passes leaves both unbuilt, a hit builds the ban, and a spared
// match has asked the spare.
func TestSparesAndAnchoredBansWaitForTheirFirstUse(t *testing.T) {
	list := "^lazy-anchor-[0-9]+\nlazy-plain-[a-z]+\n!^lazy-plain-ok$\n"
	set, err := Load(files(map[string]string{"p": list}), Named([]string{"p"}))
	if err != nil {
		t.Fatal(err)
	}
	built := func(l *lazy) bool { return l.re != nil }
	if !built(set.Patterns[1].re) {
		t.Fatal("an unanchored ban (its own prefilter) was left unbuilt")
	}
	if built(set.Patterns[0].re) || built(set.Spares[0].re) {
		t.Fatal("Load built an anchored ban or a spare")
	}
	if idx := set.Candidates("no hit here", nil); len(idx) != 0 || built(set.Patterns[0].re) || built(set.Spares[0].re) {
		t.Fatalf("a text with no candidate built a pattern (%v)", idx)
	}
	if set.First("lazy-anchor-7") != 0 || !built(set.Patterns[0].re) {
		t.Fatal("a hit on the anchored ban did not build it")
	}
	if set.First("lazy-plain-ok") != -1 || !built(set.Spares[0].re) {
		t.Fatal("a spared match did not ask the spare")
	}
	// A pattern the engine refuses is still refused by Load, lazy or not.
	for _, bad := range []string{"^a\\sb\n", "!a\\sb\n", "^(a{200}){200}\n"} {
		if _, err := Load(files(map[string]string{"p": bad}), Named([]string{"p"})); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}
