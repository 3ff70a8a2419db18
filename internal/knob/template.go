package knob

import (
	"fmt"
	"runtime"
	"strings"
)

// template is a compiled derive string: literal text and placeholders.
type template struct {
	src   string
	parts []tpart
}

type tpart struct {
	lit  string // literal text (when name and builtin are empty)
	name string // {NAME}: a sibling or locator
	exe  bool   // {@exe}: host executable suffix
	join bool   // the placeholder is followed by "/" (a path join)
}

// compileTemplate parses "{NAME}" and "{@exe}" placeholders; any other
// brace is a table error, so a literal brace can never be mistaken for one.
func compileTemplate(src string) (*template, error) {
	t := &template{src: src}
	rest := src
	for rest != "" {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			t.parts = append(t.parts, tpart{lit: rest})
			break
		}
		if rest[open] == '}' {
			return nil, fmt.Errorf("derive %q: '}' without '{'", src)
		}
		if open > 0 {
			t.parts = append(t.parts, tpart{lit: rest[:open]})
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("derive %q: '{' without '}'", src)
		}
		inner := rest[open+1 : open+end]
		rest = rest[open+end+1:]
		// path-dialect-exempt: a "/" after a placeholder is the template's join syntax, not a rooted path
		p := tpart{join: strings.HasPrefix(rest, "/")}
		switch {
		case inner == "@exe":
			p.exe = true
		case screaming(inner):
			p.name = inner
		default:
			return nil, fmt.Errorf("derive %q: {%s} is neither a knob name nor {@exe}", src, inner)
		}
		t.parts = append(t.parts, p)
	}
	return t, nil
}

// names lists the placeholders in order of first appearance.
func (t *template) names() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range t.parts {
		if p.name != "" && !seen[p.name] {
			seen[p.name] = true
			out = append(out, p.name)
		}
	}
	return out
}

// eval renders the template, asking get for each placeholder's value.
// A placeholder followed by "/" joins as a path: a value of "" or "."
// drops out together with its "/", and a value ending in "/" does not
// double it. No lexical cleaning happens beyond that.
func (t *template) eval(get func(name string) (string, error)) (string, error) {
	var b strings.Builder
	skipSlash := false
	for _, p := range t.parts {
		if p.name == "" && !p.exe {
			lit := p.lit
			if skipSlash {
				lit = strings.TrimPrefix(lit, "/")
			}
			skipSlash = false
			b.WriteString(lit)
			continue
		}
		var v string
		if p.exe {
			v = exeSuffix()
		} else {
			var err error
			if v, err = get(p.name); err != nil {
				return "", err
			}
		}
		skipSlash = false
		if p.join {
			switch {
			case v == "" || v == ".":
				v, skipSlash = "", true
			case strings.HasSuffix(v, "/"):
				skipSlash = true
			}
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// exeSuffix is the host's executable suffix: the Go build's output is
// named with it on Windows only.
func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
