package ere

import (
	"errors"
	"strings"
	"testing"
)

func fuzzSeeds() []string {
	seeds := append([]string{}, fixedPatterns...)
	seeds = append(seeds, treeTermsPatterns[:10]...)
	seeds = append(seeds,
		`(deprecated|deprecated-since)`, `pid=([0-9]+)`, `a(ab?)[b-d]*`, `(a|ab)x`, `(a)*`, `(a){2}`, `x|(a)`,
		`(a)(b)`, `[(](a)`, `\((a)`, `\yformerly\y`, `\<a`, `[\n]`, `[[.a.]]`, `[[=a=]]`, `a{1,3}b{2,}`,
		`[[:alpha:]-]`, `[^]-]`, `(a|b)*(c|d)+`, `a**`, `()`, `a{,2}`, `[z-a]`, `(^|x)a($|y)`,
	)
	return seeds
}

// FuzzCompile: any input compiles or is refused with an *Error; nothing
// panics.
func FuzzCompile(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		re, err := Compile(p)
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("Compile(%q) error %T %v is not *Error", p, err, err)
		}
		if (re == nil) == (err == nil) {
			t.Fatalf("Compile(%q) = %v, %v", p, re, err)
		}
		if err != nil && (e.Offset < 0 || e.Offset > len(p)) {
			t.Fatalf("Compile(%q): offset %d out of range", p, e.Offset)
		}
		// Check is the load-time answer of a pattern compiled on first
		// use: it must refuse exactly what Compile refuses.
		if kerr := Check(p); (kerr == nil) != (err == nil) || (kerr != nil && kerr.Error() != err.Error()) {
			t.Fatalf("Check(%q) = %v, Compile's error %v", p, kerr, err)
		}
		c, cerr := CompileCapture(p)
		if cerr != nil && !errors.As(cerr, &e) {
			t.Fatalf("CompileCapture(%q) error %T is not *Error", p, cerr)
		}
		if err != nil && cerr == nil {
			t.Fatalf("CompileCapture accepted %q that Compile refused", p)
		}
		if len(p) > 512 {
			return // matching long programs is FuzzIsMatch's business
		}
		if re != nil {
			re.IsMatch(p)
			re.Find(p)
		}
		if c != nil {
			c.Capture(p)
		}
	})
}

// FuzzIsMatch: on small inputs the engine agrees with the reference
// matcher, and on a larger subject it stays fast.
func FuzzIsMatch(f *testing.F) {
	subjects := []string{"", "a", "abc", "aab-c", "x deprecated-since 1", "x pid=123 y", "xaaab", "\xc3\xa9 A1"}
	for i, s := range fuzzSeeds() {
		f.Add(s, subjects[i%len(subjects)], uint8(i%3))
	}
	f.Fuzz(func(t *testing.T, p, s string, from uint8) {
		if len(p) > 24 || len(s) > 24 {
			return
		}
		re, err := Compile(p)
		if err != nil {
			return
		}
		root, _, _ := parse(p)
		fr := int(from) % (len(s) + 1)
		want, wok := refFind(root, s, fr)
		got, gok := re.FindFrom(s, fr)
		if want != got || wok != gok {
			t.Fatalf("FindFrom(%q, %q, %d) = %v %v, reference %v %v", p, s, fr, got, gok, want, wok)
		}
		if _, rok := refFind(root, s, 0); re.IsMatch(s) != rok {
			t.Fatalf("IsMatch(%q, %q) = %v, reference %v", p, s, !rok, rok)
		}
		// Linear work: a 16 KB subject costs at most one closure per
		// scanned byte (IsMatch scans once, Find three times).
		big := strings.Repeat(s+"a", 16<<10/(len(s)+1))
		linearWork(t, re, p, 4, len(big), func() {
			re.IsMatch(big)
			re.Find(big)
		})
	})
}

// FuzzCapture: the capture agrees with the span rule applied by
// definition over the reference matcher.
func FuzzCapture(f *testing.F) {
	subjects := []string{"", "a", "ab", "xaaab", "x pid=123 y", "aabb", "bab"}
	for i, s := range fuzzSeeds() {
		f.Add(s, subjects[i%len(subjects)])
	}
	for _, p := range capPrefixesRef {
		f.Add(p+"(a*)b", "aab")
	}
	f.Fuzz(func(t *testing.T, p, s string) {
		if len(p) > 20 || len(s) > 16 {
			return
		}
		c, err := CompileCapture(p)
		if err != nil {
			return
		}
		pre, body, suf, root := splitCapture(t, p)
		for _, fr := range []int{0, len(s) / 2} {
			ww, wg, wok := refCapture(pre, body, suf, root, s, fr)
			gw, gg, gok := c.CaptureFrom(s, fr)
			if wok != gok || ww != gw || wg != gg {
				t.Fatalf("CaptureFrom(%q, %q, %d) = %v %v %v, reference %v %v %v", p, s, fr, gw, gg, gok, ww, wg, wok)
			}
		}
	})
}
