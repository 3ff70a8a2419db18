package ere

import (
	"errors"
	"strings"
	"testing"
)

func mustCompile(t testing.TB, p string) *Ere {
	t.Helper()
	re, err := Compile(p)
	if err != nil {
		t.Fatalf("Compile(%q): %v", p, err)
	}
	return re
}

func TestAcceptanceFind(t *testing.T) {
	re := mustCompile(t, `(deprecated|deprecated-since)`)
	sp, ok := re.Find("x deprecated-since 1")
	if !ok || sp != (Span{2, 18}) {
		t.Fatalf("got %v %v, want [2,18)", sp, ok)
	}
}

func TestAcceptanceCapture(t *testing.T) {
	cases := []struct {
		pat, hay     string
		whole, group Span
	}{
		{`pid=([0-9]+)`, "x pid=123 y", Span{2, 9}, Span{6, 9}},
		{`a(ab?)[b-d]*`, "xaaab", Span{1, 3}, Span{2, 3}},
	}
	for _, c := range cases {
		cp, err := CompileCapture(c.pat)
		if err != nil {
			t.Fatalf("CompileCapture(%q): %v", c.pat, err)
		}
		w, g, ok := cp.CaptureFrom(c.hay, 0)
		if !ok || w != c.whole || g != c.group {
			t.Errorf("%q on %q: whole %v group %v ok %v; want %v %v", c.pat, c.hay, w, g, ok, c.whole, c.group)
		}
		g2, ok2 := cp.Capture(c.hay)
		if !ok2 || g2 != c.group {
			t.Errorf("Capture(%q) = %v %v", c.hay, g2, ok2)
		}
	}
}

func TestAcceptanceCaptureShapes(t *testing.T) {
	bad := []struct {
		pat  string
		want error
	}{
		{`(a|ab)x`, ErrAlternationInGroup},
		{`(a)*`, ErrQuantifiedGroup},
		{`(a){2}`, ErrQuantifiedGroup},
		{`x|(a)`, ErrGroupInAlternation},
		{`abc`, ErrNoGroup},
		{`(a)(b)`, ErrSecondGroup},
	}
	for _, b := range bad {
		_, err := CompileCapture(b.pat)
		if !errors.Is(err, b.want) {
			t.Errorf("CompileCapture(%q) = %v, want %v", b.pat, err, b.want)
		}
	}
	for _, p := range []string{`[(](a)`, `\((a)`} {
		if _, err := CompileCapture(p); err != nil {
			t.Errorf("CompileCapture(%q): %v", p, err)
		}
	}
}

func TestAcceptanceRefusals(t *testing.T) {
	cases := []struct {
		pat       string
		kind      ErrorKind
		construct string
	}{
		{`\yformerly\y`, KindGNUExtension, `\y`},
		{`\<a`, KindGNUExtension, `\<`},
		{`[\n]`, KindBracketBackslash, `\n`},
		{`[[.a.]]`, KindCollating, `[.a.]`},
		{`[[=a=]]`, KindCollating, `[=a=]`},
	}
	for _, c := range cases {
		_, err := Compile(c.pat)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Compile(%q) = %v, want *Error", c.pat, err)
		}
		if e.Kind != c.kind || e.Construct != c.construct {
			t.Errorf("Compile(%q): kind %v construct %q, want %v %q", c.pat, e.Kind, e.Construct, c.kind, c.construct)
		}
		if !strings.Contains(err.Error(), c.construct) {
			t.Errorf("Compile(%q): message %q does not name %q", c.pat, err, c.construct)
		}
		msg := RefusalMessage("GATE_SDK_X", c.pat, err)
		if !strings.Contains(msg, c.pat) || !strings.Contains(msg, "GATE_SDK_X") || !strings.Contains(msg, c.construct) {
			t.Errorf("RefusalMessage: %q", msg)
		}
		t.Log(msg)
	}
}
