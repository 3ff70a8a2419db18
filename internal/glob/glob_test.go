package glob

import (
	"strings"
	"testing"
)

func TestMatchTable(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		// '*' and '?' cross '/', and "**" is no more than "*".
		{"*", "a/b/c", true},
		{"a?b", "a/b", true},
		{"**.md", "x/y.md", true},
		{"native/src/*.rs", "native/src/emit/mod.rs", true},
		{"internal/*.go", "internal/emit/x.go", true},
		{"*docs/**.md", "site/docs/a/b.md", true},
		{"*docs/**.md", "docs/a.txt", false},
		{"", "", true},
		{"", "a", false},
		{"*", "", true},
		{"?", "", false},
		{"*?", "", false},
		{"*?", "a", true},
		// Brackets.
		{"[ab]", "a", true},
		{"[ab]", "c", false},
		{"[!ab]", "c", true},
		{"[^ab]", "a", false},
		{"[a-c]x", "bx", true},
		{"[z-a]", "m", false},
		{"[]]", "]", true},
		{"[!]]", "a", true},
		{"[a-]", "-", true},
		{"[[:alpha:]]", "Q", true},
		{"[[:alpha:]]", "1", false},
		{"[[:foo:]a]", "a", true},
		{"[[=a=]]", "a", true},
		{"[[.hyphen.]]", "-", true},
		{"[/]", "/", true},
		// An unclosed bracket is an ordinary '['.
		{"[ab", "[ab", true},
		{"[ab", "a", false},
		{"[", "[", true},
		// Escapes.
		{"\\*", "*", true},
		{"\\*", "x", false},
		{"a\\", "a\\", true},
		{"a\\", "a", false},
		{"*\\", "a\\", false}, // the shell's own quirk
		// Bytes above 0x7f are single bytes.
		{"?", "\xc3\xa9", false},
		{"??", "\xc3\xa9", true},
		{"[[:alpha:]]", "\xe9", false},
	}
	for _, c := range cases {
		if got := Match(c.pattern, c.name); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

func TestHasMeta(t *testing.T) {
	for p, want := range map[string]bool{"a/b.md": false, "*.md": true, "a?": true, "[x]": true, "a\\b": true, "": false} {
		if got := HasMeta(p); got != want {
			t.Errorf("HasMeta(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestMatchManyStars keeps a pattern with many stars against a long name
// polynomial: without the failure memo this would not finish.
func TestMatchManyStars(t *testing.T) {
	p := strings.Repeat("*a", 30) + "*b"
	s := strings.Repeat("a", 4000)
	if Match(p, s) {
		t.Fatal("matched a name with no b")
	}
	if !Match(p, s+"b") {
		t.Fatal("missed a name ending in b")
	}
}

// refElem is one element of a pattern in the reference matcher.
type refElem struct {
	kind byte // 'l' literal, '?' any, '*' star, 's' set, 'x' never, 'T' trailing backslash
	b    byte
	set  [256]bool
}

// refCompile reads pattern into elements for the patterns whose bracket
// expressions are simple (members are plain bytes, ranges or "[:name:]"
// classes, with no '[' or '\' otherwise inside), where the shell's scans
// all agree on where an expression ends. ok is false for any other pattern.
func refCompile(p string) (elems []refElem, ok bool) {
	for i := 0; i < len(p); {
		c := p[i]
		switch c {
		case '*':
			elems = append(elems, refElem{kind: '*'})
			i++
		case '?':
			elems = append(elems, refElem{kind: '?'})
			i++
		case '\\':
			if i+1 == len(p) {
				elems = append(elems, refElem{kind: 'T'})
				i++
				continue
			}
			elems = append(elems, refElem{kind: 'l', b: p[i+1]})
			i += 2
		case '[':
			e, next, simple := refBracket(p, i)
			if !simple {
				return nil, false
			}
			elems = append(elems, e)
			i = next
		default:
			elems = append(elems, refElem{kind: 'l', b: c})
			i++
		}
	}
	return elems, true
}

func refBracket(p string, open int) (refElem, int, bool) {
	e := refElem{kind: 's'}
	i := open + 1
	neg := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		neg = true
		i++
	}
	first := true
	for {
		if i >= len(p) {
			// Never closed: an ordinary '['.
			return refElem{kind: 'l', b: '['}, open + 1, true
		}
		c := p[i]
		if c == ']' && !first {
			i++
			break
		}
		first = false
		if c == '\\' {
			return e, 0, false
		}
		if c == '[' {
			if i+1 < len(p) && p[i+1] == ':' {
				end := strings.Index(p[i+2:], ":]")
				if end < 0 {
					return e, 0, false
				}
				name := p[i+2 : i+2+end]
				if strings.Trim(name, "abcdefghijklmnopqrstuvwxyz") != "" {
					return e, 0, false
				}
				for b := 0; b < 256; b++ {
					if classMatch(name, byte(b)) {
						e.set[b] = true
					}
				}
				i += 2 + end + 2
				continue
			}
			return e, 0, false
		}
		if i+2 < len(p) && p[i+1] == '-' && p[i+2] != ']' {
			hi := p[i+2]
			if hi == '\\' || hi == '[' {
				return e, 0, false
			}
			for b := int(c); b <= int(hi); b++ {
				e.set[b] = true
			}
			i += 3
			continue
		}
		if i+2 == len(p) && p[i+1] == '-' {
			// A range running off the end fails the whole match.
			return refElem{kind: 'x'}, len(p), true
		}
		e.set[c] = true
		i++
	}
	if neg {
		for b := range e.set {
			e.set[b] = !e.set[b]
		}
	}
	return e, i, true
}

// refMatch is a plain dynamic-programming matcher over compiled elements.
func refMatch(elems []refElem, s string) bool {
	// ok[j] reports whether elems[:k] matches s[:j] for the current k.
	ok := make([]bool, len(s)+1)
	ok[0] = true
	for k, e := range elems {
		next := make([]bool, len(s)+1)
		for j := 0; j <= len(s); j++ {
			switch e.kind {
			case '*':
				next[j] = ok[j] || (j > 0 && next[j-1])
			case '?':
				next[j] = j > 0 && ok[j-1]
			case 'l':
				next[j] = j > 0 && ok[j-1] && s[j-1] == e.b
			case 's':
				next[j] = j > 0 && ok[j-1] && e.set[s[j-1]]
			case 'T':
				// A trailing backslash matches a final backslash, but
				// never after a star.
				next[j] = j == len(s) && j > 0 && ok[j-1] && s[j-1] == '\\' && (k == 0 || elems[k-1].kind != '*')
			case 'x':
				next[j] = false
			}
		}
		ok = next
	}
	return ok[len(s)]
}

func TestReferenceAgreesOnTable(t *testing.T) {
	for _, c := range []struct{ p, s string }{{"a*b", "axxb"}, {"[a-c]*", "b/x"}, {"[!x]?", "yz"}, {"[[:digit:]]", "5"}} {
		elems, ok := refCompile(c.p)
		if !ok {
			t.Fatalf("reference declined %q", c.p)
		}
		if refMatch(elems, c.s) != Match(c.p, c.s) {
			t.Errorf("reference and Match disagree on %q %q", c.p, c.s)
		}
	}
}

// FuzzMatch holds Match and Pathspec to never panicking, and Match to the
// reference matcher wherever the reference can read the pattern.
func FuzzMatch(f *testing.F) {
	for _, seed := range [][2]string{
		{"*", "a/b"}, {"a?b", "a/b"}, {"[a-c]x", "bx"}, {"[!]]", "a"}, {"[[:alpha:]]*", "q/1"},
		{"\\*", "*"}, {"*\\", "a\\"}, {"[a[:b]c:]]", "ac:]]"}, {"[[.hyphen.]-z]", "q"}, {"[ab", "[ab"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		got := Match(pattern, name)
		_ = Pathspec(pattern, name)
		if len(pattern) > 24 || len(name) > 24 {
			return
		}
		elems, ok := refCompile(pattern)
		if !ok || strings.Contains(pattern, "**/") {
			return // the reference reads a "**/" as the shell does
		}
		if want := refMatch(elems, name); got != want {
			t.Fatalf("Match(%q, %q) = %v, reference says %v", pattern, name, got, want)
		}
	})
}

func BenchmarkMatchTrigger(b *testing.B) {
	pats := []string{"*docs/**.md", "gate-sdk/*.sh", "scripts/gates.list", "[a-z]*/checks/*.gate", "*README.md"}
	path := "tools/canon-kit/docs/sections/coupling/graph.md"
	for i := 0; i < b.N; i++ {
		for _, p := range pats {
			Match(p, path)
		}
	}
}

// TestGlobstarZeroDirectories holds the one departure from the shell: a
// "**/" opening the pattern or following a '/' also matches no directory
// at all, as git's ":(glob)" pathspecs and most glob users read it.
func TestGlobstarZeroDirectories(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		{"docs/**/*.md", "docs/index.md", true},
		{"docs/**/*.md", "docs/a/b/c.md", true},
		{"docs/**/*.md", "docsx/index.md", false},
		{"docs/**/*.md", "site/docs/index.md", false},
		{"**/*.md", "README.md", true},
		{"**/*.md", "a/README.md", true},
		{"**/index.md", "index.md", true},
		{"a/**/b/**/c", "a/b/c", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"a/**/b", "a/xb", false},
		// Only a whole "**" segment: "x**/" and "*/" are the shell's.
		{"docs**/*.md", "docs/index.md", true},
		{"docs**/*.md", "docs/a/b.md", true},
		{"x**/y", "x/y", true},
		{"x**/y", "xy", false},
		{"docs/*/*.md", "docs/index.md", false},
		{"*/x", "x", false},
		// Escaped or bracketed stars are no globstar.
		{"docs/\\**/*.md", "docs/index.md", false},
		{"docs/[*]*/*.md", "docs/index.md", false},
	}
	for _, c := range cases {
		if got := Match(c.pattern, c.name); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}
