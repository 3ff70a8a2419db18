package gates

// check-template-copy-parity: a kit's shell template and the consumer's
// vendored copy of it agree on their declared contract surface.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
)

func checkTemplateCopyParity(c *gate.Context) int {
	// With no operand the scan root is the repository: the session spells
	// the kit roots and the gates dir from the toplevel, relative to the
	// run directory, so a run from a subdirectory still reaches them.
	roots, code, ok := rootSweep(c)
	if !ok {
		return code
	}
	root := sweepRoot(c)
	gatesDir := registry.Join(root, c.GatesDir)
	r := c.NewReport(map[string]string{
		"spec":    "point the copy's first # spec: line at the template's <file> §<section>; only the prose after the target may differ",
		"missing": "carry the template's declaration into the copy (the template changed, or the copy dropped it)",
		"added":   "name the token on a `# copy-divergence: <reason>` line in the copy, or take it out",
		"reason":  "give the # copy-divergence: line a reason naming what the copy adds",
	})
	tdirs, err := kitTemplateDirs(c, roots, root)
	if err != nil {
		return c.RefuseErr(err)
	}
	pairs, unpaired := 0, 0
	for _, tdir := range tdirs {
		ents, err := kitTemplates(c, tdir)
		if err != nil {
			return c.RefuseErr(err)
		}
		for _, e := range ents {
			name := e.Name()
			// A config template is the consumer's to edit: out by suffix.
			if e.IsDir() || !strings.HasSuffix(name, ".sh") || strings.HasSuffix(name, "-config.sh") {
				continue
			}
			tpl := registry.Join(tdir, name)
			cp := registry.Join(gatesDir, name)
			copyData, paired, err := readOptional(c, cp)
			if err != nil {
				return c.RefuseErr(err)
			}
			if !paired {
				unpaired++
				continue
			}
			tplData, err := readFile(c, tpl)
			if err != nil {
				return c.Refuse("cannot read %s: %v", tpl, unwrapPath(err))
			}
			pairs++
			comparePair(r, tpl, cp, scanSurface(tplData), scanSurface(copyData))
		}
	}
	done := r.Done
	if pairs == 0 {
		done = r.Nothing
	}
	return done(fmt.Sprintf("%d template/copy pairs agree across %d kit roots, %d templates without a copy", pairs, len(roots), unpaired))
}

func comparePair(r *gate.Report, tpl, cp string, t, k surface) {
	// assertion A: both sides' first spec: line names one target.
	if t.spec != k.spec {
		r.Add(gate.Finding{Class: "spec", Path: cp, Line: k.specLine, Msg: fmt.Sprintf("spec: target %q differs from the template %s's %q", k.spec, tpl, t.spec)})
	}
	// assertion B: the template's surface is present in the copy.
	for _, tok := range t.sortedTokens() {
		if _, ok := k.tokens[tok]; !ok {
			r.Add(gate.Finding{Class: "missing", Path: cp, Msg: fmt.Sprintf("declares no %s, which the template %s declares on line %d", tok, tpl, t.tokens[tok])})
		}
	}
	// assertion C: what the copy adds, a copy-divergence line names.
	for _, line := range k.emptyReasons {
		r.Add(gate.Finding{Class: "reason", Path: cp, Line: line, Msg: "# copy-divergence: line carries no reason"})
	}
	for _, tok := range k.sortedTokens() {
		if _, ok := t.tokens[tok]; ok {
			continue
		}
		if !k.divergence(tok) {
			r.Add(gate.Finding{Class: "added", Path: cp, Line: k.tokens[tok], Msg: fmt.Sprintf("adds %s, which the template %s does not declare and no # copy-divergence: line names", tok, tpl)})
		}
	}
}

// surface is a shell file's declared contract: namespaced tokens, each
// with the first line declaring it, its first spec: target and its
// copy-divergence reasons.
type surface struct {
	tokens       map[string]int
	spec         string
	specLine     int
	reasons      []string
	emptyReasons []int
}

func (s surface) sortedTokens() []string {
	var out []string
	for t := range s.tokens {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// divergence reports whether a copy-divergence reason names tok, bare or
// with its class.
func (s surface) divergence(tok string) bool {
	_, bare, _ := strings.Cut(tok, ":")
	for _, reason := range s.reasons {
		for _, w := range strings.FieldsFunc(reason, func(r rune) bool {
			return !(r == '_' || r == ':' || r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
		}) {
			if w == bare || w == tok {
				return true
			}
		}
	}
	return false
}

var (
	funcDecl   = lazyre.New(`^\s*(?:function\s+([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*\))`)
	knobRead   = lazyre.New(`\$\{([A-Z][A-Z0-9_]*)(?::[-=])`)
	libCall    = lazyre.New(`(?:^|&&|\|\||[;&|)]|\$\()\s*([a-z_][a-z0-9_]*)`)
	specLine   = lazyre.New(`^\s*#\s*spec:\s*(.*)$`)
	divergeTag = lazyre.New(`^\s*#\s*copy-divergence:(.*)$`)
	caseOpen   = lazyre.New(`(?:^|[;&|(]|\s)case\s.*\sin(?:\s|$)`)
	caseClose  = lazyre.New(`(?:^|[;&|\s])esac(?:[;&|)\s]|$)`)
)

// scanSurface reads a shell file's surface lexically. A case arm's
// pattern is skipped over by position and never held: it is the
// consumer's rule vocabulary, which the gate must not read.
func scanSurface(data []byte) surface {
	s := surface{tokens: map[string]int{}}
	add := func(tok string, line int) {
		if _, ok := s.tokens[tok]; !ok {
			s.tokens[tok] = line
		}
	}
	depth := 0          // open case statements
	wantPattern := true // inside a case: the next text is an arm pattern
	wantBody := false   // an arm's pattern ended its line: its first word is on a later line
	for i, raw := range splitLines(data) {
		line := i + 1
		text := strings.TrimSuffix(string(raw), "\r")
		if m := specLine.Get().FindStringSubmatch(text); m != nil && s.specLine == 0 {
			s.spec, s.specLine = specTarget(m[1]), line
		}
		if m := divergeTag.Get().FindStringSubmatch(text); m != nil {
			if reason := strings.TrimSpace(m[1]); reason == "" {
				s.emptyReasons = append(s.emptyReasons, line)
			} else {
				s.reasons = append(s.reasons, reason)
			}
		}
		code := stripShellComment(text)
		if strings.TrimSpace(code) == "" {
			continue
		}
		for _, m := range knobRead.Get().FindAllStringSubmatch(code, -1) {
			if strings.Contains(m[1], "_") {
				add("knob:"+m[1], line)
			}
		}
		if m := funcDecl.Get().FindStringSubmatch(code); m != nil {
			add("func:"+m[1]+m[2], line)
		}
		for _, m := range libCall.Get().FindAllStringSubmatchIndex(code, -1) {
			name := code[m[2]:m[3]]
			rest := code[m[3]:]
			if strings.Contains(name, "_") && !strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "+=") {
				add("lib:"+name, line)
			}
		}
		// Case arms: the first command word of each arm's body.
		body := code
		if caseOpen.Get().MatchString(code) {
			depth++
			wantPattern, wantBody = true, false
			_, body, _ = strings.Cut(code, " in")
		}
		if depth == 0 {
			continue
		}
		for {
			body = strings.TrimLeft(body, " \t")
			if body == "" {
				break
			}
			if caseClose.Get().MatchString(body) && strings.HasPrefix(body, "esac") {
				depth--
				wantPattern, wantBody = true, false
				body = body[len("esac"):]
				if depth == 0 {
					break
				}
				continue
			}
			if wantPattern {
				end := patternEnd(body)
				if end < 0 {
					break // the pattern runs on; skip it unread
				}
				body, wantPattern, wantBody = body[end+1:], false, true
				continue
			}
			if wantBody {
				if w := firstWord(body); w != "" && !strings.HasPrefix(body, ";;") {
					add("case:"+w, line)
				}
				wantBody = false
			}
			j := strings.Index(body, ";;")
			if j < 0 {
				break
			}
			body = strings.TrimLeft(body[j+2:], "&")
			wantPattern = true
		}
	}
	return s
}

// patternEnd answers the index of the ')' closing a case pattern, outside
// quotes and brackets, or -1.
func patternEnd(s string) int {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '"' || c == '\'':
			quote = c
		case c == ')':
			return i
		}
	}
	return -1
}

func firstWord(s string) string {
	end := strings.IndexAny(s, " \t;|&)")
	if end < 0 {
		end = len(s)
	}
	w := s[:end]
	if w == "" || strings.ContainsAny(w[:1], "\"'$") {
		return ""
	}
	return w
}

// specTarget answers a spec: line's <file> §<section>, the trailing prose
// after a dash separator stripped.
func specTarget(payload string) string {
	for _, sep := range []string{" \u2014 ", " -- ", " - "} {
		if i := strings.Index(payload, sep); i >= 0 {
			payload = payload[:i]
		}
	}
	return strings.Join(strings.Fields(payload), " ")
}

// stripShellComment drops an unquoted '#' comment starting a word.
func stripShellComment(text string) string {
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case quote == '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t'):
			return text[:i]
		}
	}
	return text
}
