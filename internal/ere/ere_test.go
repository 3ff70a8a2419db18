package ere

import (
	"errors"
	"math/rand"
	"strings"
	"sync"
	"testing"
)

func TestRefusals(t *testing.T) {
	cases := []struct {
		pat       string
		kind      ErrorKind
		construct string
	}{
		{``, KindSyntax, ``},
		{`\w+`, KindGNUExtension, `\w`},
		{`\W`, KindGNUExtension, `\W`},
		{`a\s`, KindGNUExtension, `\s`},
		{`\S`, KindGNUExtension, `\S`},
		{`\bword\b`, KindGNUExtension, `\b`},
		{`\Bx`, KindGNUExtension, `\B`},
		{`a\>`, KindGNUExtension, `\>`},
		{"\\`a", KindGNUExtension, "\\`"},
		{`a\'`, KindGNUExtension, `\'`},
		{`(a)\1`, KindBackreference, `\1`},
		{`\9`, KindBackreference, `\9`},
		{`\n`, KindEscape, `\n`},
		{`\t`, KindEscape, `\t`},
		{`\d`, KindEscape, `\d`},
		{`a\}`, KindEscape, `\}`},
		{`\]`, KindEscape, `\]`},
		{`\/`, KindEscape, `\/`},
		{`\-`, KindEscape, `\-`},
		{`a\`, KindSyntax, `\`},
		{`[a\]]`, KindBracketBackslash, `\]`},
		{`[\]`, KindBracketBackslash, `\]`},
		{`x[[.hyphen.]]`, KindCollating, `[.hyphen.]`},
		{`[[=e=]b]`, KindCollating, `[=e=]`},
		{`[[.`, KindCollating, `[.`},
		{`[[:word:]]`, KindSyntax, `[:word:]`},
		{`[[:alpha]`, KindSyntax, `[:`},
		{`[a`, KindSyntax, `[`},
		{`[]`, KindSyntax, `[`},
		{`[z-a]`, KindSyntax, `z-a`},
		{`[a-c-e]`, KindSyntax, `a-c-e`},
		{`[[:digit:]-z]`, KindSyntax, `[:digit:]-`},
		{`[a-[:digit:]]`, KindSyntax, `a-[:digit:]`},
		{`a**`, KindSyntax, `**`},
		{`a+*`, KindSyntax, `+*`},
		{`a{2}{3}`, KindSyntax, `{2}{`},
		{`a?+`, KindSyntax, `?+`},
		{`*a`, KindSyntax, `*`},
		{`a|*b`, KindSyntax, `*`},
		{`(*a)`, KindSyntax, `*`},
		{`^*a`, KindSyntax, `^*`},
		{`a$+`, KindSyntax, `$+`},
		{`{1}a`, KindSyntax, `{`},
		{`a{`, KindSyntax, `{`},
		{`a{x}`, KindSyntax, `{x}`},
		{`a{1`, KindSyntax, `{1`},
		{`a{1,2`, KindSyntax, `{1,2`},
		{`a{,3}`, KindGNUExtension, `{,3}`},
		{`a{3,2}`, KindSyntax, `{3,2}`},
		{`a{256}`, KindTooLarge, `{256}`},
		{`a{1,256}`, KindTooLarge, `{1,256}`},
		{`a{99999999999999999999}`, KindTooLarge, `{99999999999999999999}`},
		{`(a{255}){255}`, KindTooLarge, ``},
		{`()`, KindSyntax, `()`},
		{`a|`, KindSyntax, `|`},
		{`|a`, KindSyntax, `|`},
		{`a||b`, KindSyntax, `|`},
		{`(a|)`, KindSyntax, `|`},
		{`(|a)`, KindSyntax, `|`},
		{`(a`, KindSyntax, `(`},
		{`((a)`, KindSyntax, `(`},
		{`(`, KindSyntax, `(`},
		{`a)`, KindSyntax, `)`},
		{`(a))`, KindSyntax, `)`},
		{strings.Repeat("(", 1001) + "a" + strings.Repeat(")", 1001), KindTooLarge, `(`},
	}
	for _, c := range cases {
		_, err := Compile(c.pat)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Compile(%q) = %v, want a %v refusal", c.pat, err, c.kind)
			continue
		}
		if e.Kind != c.kind || (c.construct != "" && e.Construct != c.construct) {
			t.Errorf("Compile(%q): %v %q, want %v %q (%v)", c.pat, e.Kind, e.Construct, c.kind, c.construct, err)
		}
	}
}

func TestAccepted(t *testing.T) {
	for _, p := range []string{
		`\^\.\[\$\(\)\|\*\+\?\{\\`, `a{0}`, `a{0,0}`, `a{255}`, `a{0,255}`, `(a|b){2,}`, `[]a]`, `[^]a]`, `[a-]`,
		`[-a]`, `[%--]`, `[--@]`, `[[:alpha:][:digit:]_]`, `[a[]`, `[[]`, `a}`, `]`, `a{1}b`, `^$`, `a^b`, `a$b`,
		`(^|[^A-Za-z])term([^A-Za-z]|$)`, "\xff+", "[\x80-\xff]", `[.]`, `[=]`, `[:]`, `[*+?{]`, `(a)(b)`,
	} {
		if _, err := Compile(p); err != nil {
			t.Errorf("Compile(%q): %v", p, err)
		}
	}
}

func TestSemantics(t *testing.T) {
	cases := []struct {
		pat, hay string
		from     int
		want     Span
		ok       bool
	}{
		{`(deprecated|deprecated-since)`, "x deprecated-since 1", 0, Span{2, 18}, true},
		{`a|ab|abc`, "xabcd", 0, Span{1, 4}, true},
		{`abcd|c`, "abcd", 0, Span{0, 4}, true},
		{`x*`, "abc", 0, Span{0, 0}, true},
		{`x*`, "abc", 3, Span{3, 3}, true},
		{`^a`, "aa", 1, Span{}, false},
		{`^a|b`, "aab", 1, Span{2, 3}, true},
		{`a$`, "aa", 0, Span{1, 2}, true},
		{`$`, "abc", 1, Span{3, 3}, true},
		{`^$`, "", 0, Span{0, 0}, true},
		{`^`, "ab", 1, Span{}, false},
		{`.`, "\xc3\xa9", 0, Span{0, 1}, true},
		{`^.$`, "\xc3\xa9", 0, Span{}, false},
		{`[^a]`, "a\nb", 0, Span{1, 2}, true},
		{`a.b`, "a\nb", 0, Span{0, 3}, true},
		{`[[:upper:]]+`, "abCDe", 0, Span{2, 4}, true},
		{`[[:alpha:]]`, "\xc3\xa9", 0, Span{}, false},
		{`a{2,3}`, "aaaa", 0, Span{0, 3}, true},
		{`a{2,3}`, "aaaa", 2, Span{2, 4}, true},
		{`(a|b)*c`, "ababc", 0, Span{0, 5}, true},
		{`pid=([0-9]+)`, "x pid=123 y", 0, Span{2, 9}, true},
		{`b`, "abc", 4, Span{}, false},
		{`b`, "abc", -1, Span{}, false},
		{`(^|[^A-Za-z])term([^A-Za-z]|$)`, "a terms term", 0, Span{7, 12}, true},
	}
	for _, c := range cases {
		re := mustCompile(t, c.pat)
		got, ok := re.FindFrom(c.hay, c.from)
		if ok != c.ok || got != c.want {
			t.Errorf("FindFrom(%q, %q, %d) = %v %v, want %v %v", c.pat, c.hay, c.from, got, ok, c.want, c.ok)
		}
		if c.from == 0 && re.IsMatch(c.hay) != c.ok {
			t.Errorf("IsMatch(%q, %q) = %v", c.pat, c.hay, !c.ok)
		}
	}
}

// A substituting caller's loop over FindFrom, with the empty-match rule.
func TestFindFromLoop(t *testing.T) {
	re := mustCompile(t, `b*`)
	var spans []Span
	for from := 0; from <= len("abba"); {
		sp, ok := re.FindFrom("abba", from)
		if !ok {
			break
		}
		spans = append(spans, sp)
		from = sp.End
		if sp.End == sp.Start {
			from++
		}
	}
	want := []Span{{0, 0}, {1, 3}, {3, 3}, {4, 4}}
	if len(spans) != len(want) {
		t.Fatalf("spans %v, want %v", spans, want)
	}
	for i := range want {
		if spans[i] != want[i] {
			t.Fatalf("spans %v, want %v", spans, want)
		}
	}
}

func TestCaptureFromSteps(t *testing.T) {
	c, err := CompileCapture(`pid=([0-9]+)`)
	if err != nil {
		t.Fatal(err)
	}
	hay := "pid=1 pid=22 pid= pid=333"
	var groups []string
	for from := 0; ; {
		w, g, ok := c.CaptureFrom(hay, from)
		if !ok {
			break
		}
		groups = append(groups, hay[g.Start:g.End])
		from = w.End
	}
	if strings.Join(groups, ",") != "1,22,333" {
		t.Fatalf("groups %v", groups)
	}
	if _, ok := c.Capture("no pid"); ok {
		t.Fatal("Capture matched")
	}
}

// linearWork runs fn (at most scans passes of the automata over a subject
// of n bytes) and fails unless its work was linear: at most one computed
// transition per scanned byte, and per transition (or start state) at most
// one closure over the program, each instruction entered once. A
// backtracking or re-closing engine overshoots by orders of magnitude; the
// bound counts work, never time, so it cannot fail on a busy machine.
func linearWork(t *testing.T, re *Ere, label string, scans, n int, fn func()) {
	t.Helper()
	ds := []*dfa{re.fwd, re.rev, re.fwdA}
	var steps0, pops0 [3]int64
	for i, d := range ds {
		steps0[i], pops0[i] = d.work()
	}
	fn()
	var steps int64
	for i, d := range ds {
		s, p := d.work()
		s, p = s-steps0[i], p-pops0[i]
		steps += s
		// A closure pushes each instruction's successors once (two at
		// most) plus one root per thread it starts from.
		if limit := (s + 5) * int64(3*len(d.p.insts)+1); p > limit {
			t.Errorf("%s: %d closure pops for %d transitions over a %d-instruction program, bound %d", label, p, s, len(d.p.insts), limit)
		}
	}
	if limit := int64(scans) * int64(n+1); steps > limit {
		t.Errorf("%s: %d transitions computed for %d scans of %d bytes, bound %d", label, steps, scans, n, limit)
	}
}

// Pathological shapes run in work linear in the subject, with the literal
// prefilters bypassed so the automata do the work.
func TestLinearTime(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	mixed := make([]byte, 100_000)
	for i := range mixed {
		mixed[i] = "ab"[rng.Intn(2)]
	}
	subjects := []string{strings.Repeat("a", 100_000), string(mixed)}
	for _, p := range []string{`(a*)*b`, `(a|aa)*c`, `(a+)+c`, `((a*)*|b)*c`, `(a|a?)+c`, `a{0,255}a{0,255}c`,
		`(.*a){20}c`, `(x+x+)+y`, `[ab]*a[ab]{12}c`} {
		re := mustCompile(t, p)
		for _, big := range subjects {
			// Three direct scans, IsMatch's one and Find's three.
			linearWork(t, re, p, 7, len(big), func() {
				re.fwd.firstEnd(big, 0)
				re.rev.leftmostStart(big, 0)
				re.fwdA.longestEnd(big, 0)
				re.IsMatch(big)
				re.Find(big)
			})
		}
	}
}

// Many goroutines share one compiled pattern while its caches fill.
func TestConcurrentUse(t *testing.T) {
	re := mustCompile(t, `([a-z]+[0-9]{1,3}|x.*y)+z`)
	c, err := CompileCapture(`k=([a-z0-9]+)`)
	if err != nil {
		t.Fatal(err)
	}
	hays := []string{"ab12cd3z", "x..yz", "nope", "aa1bb22cc333z k=v9", "k=zz"}
	want := map[string]bool{"ab12cd3z": true, "x..yz": true, "nope": false, "aa1bb22cc333z k=v9": true, "k=zz": false}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				h := hays[(i+g)%len(hays)]
				if re.IsMatch(h) != want[h] {
					t.Errorf("IsMatch(%q) != %v", h, want[h])
					return
				}
				c.Capture(h)
			}
		}()
	}
	wg.Wait()
}
