package gates

// check-portability-floor: over the install-path corpus (tracked files
// under GATE_SDK_PORTABILITY_PATHS), no line matches a banned-construct
// pattern unless it or the line above declares the construct with a
// reason, and no PowerShell member carries a non-ASCII byte outside a
// full-line comment. Both the roster and the corpus are consumer config;
// absent config disables the arm it feeds rather than failing closed.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/patterns"
)

const portabilityValve = "# portability-declared:"

func checkPortabilityFloor(c *gate.Context) int {
	paths, err := c.Knobs.Words("GATE_SDK_PORTABILITY_PATHS")
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion A: an empty corpus disables both arms, and the clean line
	// says so in its own words.
	if len(paths) == 0 {
		return c.NewReport(nil).Disarmed("GATE_SDK_PORTABILITY_PATHS", "no corpus configured: GATE_SDK_PORTABILITY_PATHS is empty, both arms off")
	}
	// assertion B: the roster resolves in the shared pattern-file shape
	// (operands win; every knob file optional). An absent or empty roster
	// turns off the roster arm alone; a present file that cannot be read,
	// or a pattern the engine refuses, is exit 2.
	srcs := patterns.Named(c.Args)
	if len(c.Args) == 0 {
		srcs, err = patterns.FromKnobs(c.Knobs, "", "GATE_SDK_PORTABILITY_PATTERNS")
		if err != nil {
			return c.RefuseErr(err)
		}
	}
	set, err := patterns.Load(func(p string) ([]byte, error) { return readFile(c, p) }, srcs)
	if err != nil {
		return c.RefuseErr(err)
	}
	exempt := map[string]bool{}
	for _, src := range set.Read {
		exempt[treePath(c, src.Path)] = true
	}
	tdirs, err := kitTemplateDirs(c, c.KitRoots, "")
	if err != nil {
		return c.RefuseErr(err)
	}
	for _, td := range tdirs {
		exempt[treePath(c, td+"/portability-patterns.list")] = true
	}
	files, binary, err := pathspecCorpus(c, paths, exempt)
	if err != nil {
		return c.RefuseErr(err)
	}

	r := c.NewReport(map[string]string{
		"construct": "rewrite the line in portable form, or, where the construct is deliberate, mark it `# portability-declared: <reason>` on that line or the line above",
		"non-ascii": "spell the character by code point (e.g. [char]0x2014): Windows PowerShell 5.1 reads a BOM-less script in the ANSI code page; only full-line comments outside here-strings may carry non-ASCII, and a file may not start with a BOM",
	})
	ps := 0
	for _, f := range files {
		lines := splitLines(f.data)
		isPS := strings.HasSuffix(strings.ToLower(f.path), ".ps1")
		if isPS {
			ps++
		}
		var psCode []bool
		if isPS {
			psCode = psCodeLines(lines)
		}
		for i, line := range lines {
			// assertion C: a line matching a listed construct carries the
			// valve, with a non-empty reason, on itself or the line above.
			if !set.Empty() {
				// A CRLF copy of a script is judged as its LF form: the
				// carriage return is the line's end, not a byte a pattern's
				// "$" or [[:blank:]] has to step over.
				text := bytes.TrimSuffix(line, []byte{'\r'})
				if j := set.First(string(text)); j >= 0 && !valved(lines, i, portabilityValve) {
					msg := fmt.Sprintf("%s (undeclared construct %s)", text, set.Patterns[j].Text)
					r.Add(gate.Finding{Class: "construct", Path: f.path, Line: i + 1, Msg: msg, Text: fmt.Sprintf("%s:%d:%s", gate.QuotePath(f.path), i+1, msg)})
				}
			}
			// assertion D: a PowerShell member has no non-ASCII byte outside
			// a full-line comment; a BOM reds line 1.
			if isPS && (psCode[i] || i == 0 && hasBOM(f.data)) && !isASCII(line) {
				msg := fmt.Sprintf("%s (non-ASCII outside a comment)", line)
				r.Add(gate.Finding{Class: "non-ascii", Path: f.path, Line: i + 1, Msg: msg, Text: fmt.Sprintf("%s:%d:%s", gate.QuotePath(f.path), i+1, msg)})
			}
		}
	}
	roster := fmt.Sprintf("%d files hold no undeclared construct of %d patterns", len(files), len(set.Patterns))
	if set.Empty() {
		roster = fmt.Sprintf("roster arm off: no portability pattern in %s; %d files", describeSources(set), len(files))
	}
	return r.Done(fmt.Sprintf("%s; %d PowerShell members ASCII outside comments; %d binary members skipped", roster, ps, binary))
}

// psCodeLines marks which lines of a PowerShell file are code for the
// ASCII arm. Only a full-line '#' comment outside a here-string is not. A
// here-string opens on a code line ending in @" or @' and closes on a line
// starting "@ or '@ at column 0; every line inside it is code. A trailing
// comment and a <# #> block count as code: telling them from string text
// needs a lexer, so the arm over-refuses rather than under-refuses.
func psCodeLines(lines [][]byte) []bool {
	code := make([]bool, len(lines))
	inHere := false
	for i, raw := range lines {
		line := strings.TrimSuffix(string(raw), "\r")
		if inHere {
			code[i] = true
			if strings.HasPrefix(line, `"@`) || strings.HasPrefix(line, `'@`) {
				inHere = false
			}
			continue
		}
		body := strings.TrimLeft(line, " \t")
		if i == 0 {
			body = strings.TrimLeft(strings.TrimPrefix(body, "\ufeff"), " \t")
		}
		if strings.HasPrefix(body, "#") {
			continue
		}
		code[i] = true
		tail := strings.TrimRight(line, " \t")
		if strings.HasSuffix(tail, `@"`) || strings.HasSuffix(tail, `@'`) {
			inHere = true
		}
	}
	return code
}

func hasBOM(data []byte) bool {
	return len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF
}

func isASCII(b []byte) bool {
	for _, x := range b {
		if x >= 0x80 {
			return false
		}
	}
	return true
}

// describeSources names the pattern files a set was resolved from.
func describeSources(set *patterns.Set) string {
	var names []string
	for _, s := range set.Read {
		names = append(names, s.Path+" (empty)")
	}
	for _, s := range set.Absent {
		names = append(names, s.Path+" (absent)")
	}
	if len(names) == 0 {
		return "no file named"
	}
	return strings.Join(names, ", ")
}
