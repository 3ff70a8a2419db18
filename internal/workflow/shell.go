package workflow

import (
	"sort"
	"strings"
)

// Call is one gh invocation the detector found.
type Call struct {
	Line int  // the physical line the gh word sits on
	Step int  // the index of the step whose body holds it
	Repo bool // --repo (or -R) within the call's own extent
}

// logical is one logical shell line: physical lines joined at a trailing
// backslash.
type logical struct {
	text  string
	first int   // file line of the first physical line
	offs  []int // byte offset in text where each physical line starts
}

func (l logical) lineAt(off int) int {
	// offs ascends: the physical line is the last one starting at or
	// before off (a search, so a long continued line costs no more per
	// call than its logarithm).
	i := sort.Search(len(l.offs), func(i int) bool { return l.offs[i] > off })
	if i == 0 {
		return l.first
	}
	return l.first + i - 1
}

// Line is one body line with its file line number.
type Line struct {
	N    int
	Text string
}

// joinLogical joins continued lines and drops the logical lines whose
// first non-blank byte is '#'.
func joinLogical(lines []Line) []logical {
	var out []logical
	var cur *logical
	var text strings.Builder // cur's text, built once rather than re-copied per line
	for _, ln := range lines {
		t := ln.Text
		if cur == nil {
			cur = &logical{first: ln.N}
			text.Reset()
		}
		cur.offs = append(cur.offs, text.Len())
		cont := strings.HasSuffix(t, `\`)
		if cont {
			t = t[:len(t)-1] + " "
		}
		text.WriteString(t)
		if !cont {
			cur.text = text.String()
			out = append(out, *cur)
			cur = nil
		}
	}
	if cur != nil {
		cur.text = text.String()
		out = append(out, *cur)
	}
	kept := out[:0]
	for _, l := range out {
		if !strings.HasPrefix(strings.TrimLeft(l.text, " \t"), "#") {
			kept = append(kept, l)
		}
	}
	return kept
}

// cmdKeywords keep the next word in command position: shell reserved
// words and negation.
var cmdKeywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "do": true,
	"while": true, "until": true, "time": true, "!": true, "{": true,
}

// wrappers run their argument as a command. Each maps to the options that
// take a separate argument, so "sudo -u bob gh" and "env -u X gh" keep gh
// in command position; timeout's first operand (the duration) is skipped
// too.
var wrappers = map[string]map[string]bool{
	"exec":     {"-a": true},
	"command":  {},
	"builtin":  {},
	"env":      {"-u": true, "--unset": true, "-C": true, "--chdir": true, "-S": true, "--split-string": true},
	"sudo":     {"-u": true, "-g": true, "-h": true, "-p": true, "-C": true, "-D": true, "-U": true, "-r": true, "-t": true, "-T": true, "-R": true},
	"nohup":    {},
	"nice":     {"-n": true, "--adjustment": true},
	"ionice":   {"-c": true, "-n": true, "-p": true},
	"stdbuf":   {"-i": true, "-o": true, "-e": true},
	"timeout":  {"-s": true, "--signal": true, "-k": true, "--kill-after": true},
	"xargs":    {"-a": true, "-d": true, "-E": true, "-I": true, "-L": true, "-n": true, "-P": true, "-s": true, "--arg-file": true, "--delimiter": true, "--max-args": true, "--max-procs": true},
	"time":     {"-f": true, "-o": true},
	"doas":     {"-u": true, "-C": true},
	"unbuffer": {},
}

// commandName answers a word as a command name: its quotes dropped and
// its directory (an absolute or relative path to the program) cut off.
func commandName(w string) string {
	w = strings.Trim(w, `"'`)
	w = strings.TrimPrefix(w, `\`)
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		w = w[i+1:]
	}
	return w
}

// IsAssignment reports a NAME=value word.
func IsAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	return i > 0 && isName(w[:i])
}

// isName reports a shell variable name.
func isName(n string) bool {
	for k := 0; k < len(n); k++ {
		c := n[k]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || k > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return n != ""
}

// wordByte reports the bytes a token's neighbour may not be for the token
// to stand as a whole word.
func wordByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// opByte is a byte that separates shell words and puts the next word in
// command position.
func opByte(c byte) bool { return c == ';' || c == '&' || c == '|' || c == '(' || c == '`' }

// ghCalls finds every gh word in command position on a logical line: at
// its start, after ; & | ( $( or a backquote, or after a keyword, a
// wrapper or an assignment that keeps command position. Quotes are not
// parsed, so text inside them can be detected too: the safe direction.
func ghCalls(l logical) []Call {
	out, _ := ghCallsTok(l, nil)
	return out
}

// ghCallsTok is ghCalls, answering beside each call the token an
// assignment before it in the same command hands gh (GH_TOKEN=…, or
// GITHUB_TOKEN=… when no GH_TOKEN is assigned; env's NAME=value too), ""
// when none does.
func ghCallsTok(l logical, urlVars map[string]bool) ([]Call, []string) {
	s := joinExprs(l.text)
	var out []Call
	var toks []string
	var assigned []string // the assignments of the command being read
	cmd := true
	var wrap map[string]bool // the options of the wrapper being read
	skipArg, wrapOperand := false, false
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case isSpace(c):
			i++
			continue
		case opByte(c):
			cmd, wrap, skipArg, wrapOperand = true, nil, false, false
			assigned = nil
			i++
			continue
		case c == ')':
			cmd = false
			i++
			continue
		}
		j := i
		for j < len(s) && !isSpace(s[j]) && !opByte(s[j]) && s[j] != ')' {
			j++
		}
		w := s[i:j]
		if w == "$" && j < len(s) && s[j] == '(' {
			// $( opens a command substitution.
			i = j
			continue
		}
		if cmd {
			name := commandName(w)
			switch {
			case name == "gh":
				out = append(out, Call{Line: l.lineAt(i), Repo: namesRepoIn(s[i:], urlVars) || assignsRepo(assigned)})
				toks = append(toks, assignedToken(assigned))
				cmd, wrap = false, nil
			case wrap != nil && (strings.HasPrefix(w, "-") || IsAssignment(w)):
				if wrap[w] {
					skipArg = true
				}
				if IsAssignment(w) {
					assigned = append(assigned, w)
				}
			case skipArg:
				skipArg = false
			case wrap != nil && wrapOperand:
				wrapOperand = false
			case wrappers[name] != nil:
				wrap, wrapOperand = wrappers[name], name == "timeout"
			case IsAssignment(w):
				assigned = append(assigned, w)
			case cmdKeywords[w]:
			default:
				cmd, wrap = false, nil
			}
		}
		i = j
	}
	return out, toks
}

// joinExprs keeps each ${{ … }} expression inside the word it sits in:
// its blanks become \x01, so a value such as GH_TOKEN=${{ secrets.PAT }}
// stays one assignment. Offsets are kept, so lines still map.
func joinExprs(s string) string {
	if !strings.Contains(s, "${{") {
		return s
	}
	b := []byte(s)
	for from := 0; ; {
		i := strings.Index(s[from:], "${{")
		if i < 0 {
			break
		}
		i += from
		k := strings.Index(s[i:], "}}")
		if k < 0 {
			break
		}
		for p := i; p < i+k; p++ {
			if b[p] == ' ' || b[p] == '\t' {
				b[p] = 1
			}
		}
		from = i + k + 2
	}
	return string(b)
}

// assignsRepo reports GH_REPO among a command's assignments: the call
// is handed its repository.
func assignsRepo(assigned []string) bool {
	for _, a := range assigned {
		if strings.HasPrefix(a, "GH_REPO=") && len(a) > len("GH_REPO=") {
			return true
		}
	}
	return false
}

// assignedToken answers the token a command's assignments hand gh: the
// value of GH_TOKEN, or of GITHUB_TOKEN when GH_TOKEN is not assigned.
func assignedToken(assigned []string) string {
	for _, name := range []string{"GH_TOKEN=", "GITHUB_TOKEN="} {
		for _, a := range assigned {
			if v, ok := strings.CutPrefix(a, name); ok {
				return v
			}
		}
	}
	return ""
}

// words finds the listed words spelled on a line as whole words: both
// neighbours outside [A-Za-z0-9_.-].
func wordsOn(s string, words []string) []string {
	var out []string
	for _, w := range words {
		if w == "" {
			continue
		}
		from := 0
		for {
			k := strings.Index(s[from:], w)
			if k < 0 {
				break
			}
			a, b := from+k, from+k+len(w)
			if (a == 0 || !wordByte(s[a-1])) && (b == len(s) || !wordByte(s[b])) {
				out = append(out, w)
				break
			}
			from = a + 1
		}
	}
	return out
}

// shellKeywords are skipped ahead of a segment's command word by
// ScriptTokens.
var shellKeywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "do": true,
	"while": true, "until": true, "time": true, "exec": true, "!": true, "{": true,
}

// ScriptTokens answers the script paths a shell line invokes: per
// ;/|/&-separated segment, the command word (past assignments and
// reserved words), or, when that word is bash, sh, source or ., its first
// argument that is not a flag. A token is a path of two or more segments
// ending in .sh with no $ and no glob character; quotes around it are
// dropped. A line whose first non-blank byte is '#' invokes nothing, and a
// word opening with '#' ends the line.
func ScriptTokens(line string) []string {
	t := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(t, "#") {
		return nil
	}
	if i := commentStart(t); i >= 0 {
		t = t[:i]
	}
	var out []string
	for _, seg := range strings.FieldsFunc(t, func(r rune) bool { return r == ';' || r == '|' || r == '&' }) {
		ws := strings.Fields(seg)
		k := 0
		for k < len(ws) && (shellKeywords[ws[k]] || IsAssignment(ws[k])) {
			k++
		}
		if k >= len(ws) {
			continue
		}
		w := ws[k]
		switch w {
		case "bash", "sh", "source", ".":
			w = ""
			for _, a := range ws[k+1:] {
				if !strings.HasPrefix(a, "-") {
					w = a
					break
				}
			}
		}
		w = strings.Trim(w, `"'`)
		if isScriptToken(w) {
			out = append(out, w)
		}
	}
	return out
}

func isScriptToken(w string) bool {
	if !strings.HasSuffix(w, ".sh") || strings.ContainsAny(w, "$*?[`") {
		return false
	}
	n := 0
	for _, seg := range strings.Split(w, "/") {
		if seg != "" {
			n++
		}
	}
	return n >= 2
}

// isSpace reports a shell blank.
func isSpace(b byte) bool { return b == ' ' || b == '\t' }

// commentStart answers the index of the first '#' preceded by white space
// (or at the start), or -1.
func commentStart(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || isSpace(s[i-1])) {
			return i
		}
	}
	return -1
}
