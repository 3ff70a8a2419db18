package gates

// Reports of ShellCheck's that are about a written, deliberate idiom rather
// than a defect, left out of check-shellcheck and check-action-run-shell
// alike (SPEC.md §check-shellcheck, D). Each rule reads the script's own
// text at the report's line; a report whose site the rule cannot read is
// kept, so a misread never hides a finding it was not sure of.

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/workflow"
)

// idiomCodes are the codes a rule below may leave out; any other report is
// kept without reading the script.
var idiomCodes = []string{"[SC2139]", "[SC2046]", "[SC2207]", "[SC2053]", "[SC2051]", "[SC2089]", "[SC2090]", "[SC2048]", "[SC2068]", "[SC1014]", "[SC2206]", "[SC2128]", "[SC2178]", "[SC2064]", "[SC3043]", "[SC1090]", "[SC2034]", "[SC1007]", "[SC2024]", "[SC2050]", "[SC2087]", "[SC2145]", "[SC2076]", "[SC2043]", "[SC2120]", "[SC2091]", "[SC2209]", "[SC1083]", "[SC2027]"}

// scriptIdioms holds what the rules read off one script once: its lines,
// the names it fills by a deliberate split, and where each name is
// assigned.
type scriptIdioms struct {
	lines    []string
	echoes   map[string]bool // functions whose body only echoes
	split    map[string]bool
	assigned map[string][]int // name -> 1-based lines assigning it
	ifsLine  int              // first line assigning IFS (0: none)
	// funcBodies: the functions the script defines with a body of one
	// command, and that command; read on first use.
	funcBodies map[string]string
	expanded   map[string]bool // names the script expands, read on first use
}

// loopVar matches a for loop's header, capturing its variable.
var loopVar = lazyre.New(`(?:^|[\s;&|(])for\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:;|$|\s+in\b|\s+do\b)`)

func readIdioms(text string) *scriptIdioms {
	s := &scriptIdioms{lines: strings.Split(text, "\n"), split: map[string]bool{}, assigned: map[string][]int{}, echoes: map[string]bool{}}
	s.readEchoFunctions()
	for i, l := range s.lines {
		for _, m := range assignment.Get().FindAllStringSubmatch(l, -1) {
			s.assigned[m[1]] = append(s.assigned[m[1]], i+1)
			if m[1] == "IFS" && s.ifsLine == 0 {
				s.ifsLine = i + 1
			}
		}
		// A for loop's header sets its variable too (for sig; do, for f
		// in …): a trap set in the loop expands each value on purpose.
		for _, m := range loopVar.Get().FindAllStringSubmatch(l, -1) {
			s.assigned[m[1]] = append(s.assigned[m[1]], i+1)
		}
	}
	for i, l := range s.lines {
		// IFS=<sep> read -a NAME (or -ra, -ar...): the fields on purpose.
		if m := ifsReadArray.Get().FindStringSubmatch(l); m != nil {
			s.split[m[1]] = true
		}
		// NAME=($x) with IFS set on this line or before it.
		if s.ifsLine != 0 && s.ifsLine <= i+1 {
			for _, m := range splitArray.Get().FindAllStringSubmatch(l, -1) {
				s.split[m[1]] = true
			}
		}
		// NAME=($NAME): a list held as a string turned into its words.
		for _, m := range selfSplit.Get().FindAllStringSubmatch(l, -1) {
			if m[1] == m[2] {
				s.split[m[1]] = true
			}
		}
		// NAME=(${x//<sep>/ }): the separator made a blank to split on.
		for _, m := range spaceSplit.Get().FindAllStringSubmatch(l, -1) {
			s.split[m[1]] = true
		}
	}
	return s
}

var (
	// assignment matches NAME= at a word start (local/export/readonly and
	// a command prefix included), capturing the name.
	assignment = lazyre.New(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=`)
	// ifsReadArray matches IFS=<sep> read ... -a NAME (any option cluster
	// holding a), capturing the array's name.
	ifsReadArray = lazyre.New(`(?:^|[\s;&|(])IFS=\S*\s+read(?:\s+-[A-Za-z]+)*?\s+-[A-Za-z]*a\s*([A-Za-z_][A-Za-z0-9_]*)`)
	// splitArray matches NAME=( $x ) or NAME=( ${x} ): one unquoted
	// expansion split into the array.
	splitArray = lazyre.New(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=\(\s*\$\{?[A-Za-z_0-9@*#?]+\}?\s*\)`)
	// selfSplit matches NAME=( $OTHER or NAME=( ${OTHER, capturing both
	// names (the rule keeps the lines where they are one).
	selfSplit = lazyre.New(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=\(\s*\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\s*\)`)
	// spaceSplit matches NAME=( ${x//<sep>/ } ): a separator replaced by
	// a blank inside an array assignment, split on it on purpose.
	spaceSplit = lazyre.New(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=\(\s*\$\{[A-Za-z_][A-Za-z0-9_]*//[^}]*/ \}\s*\)`)
	// prefixAssign matches NAME=value (plain, or quoted stretches) then
	// blanks and a word that is no assignment: a command's prefix.
	prefixAssign = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|[^\s;&|()"'])*(?:[ \t]+[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|[^\s;&|()"'])*)*[ \t]+[A-Za-z0-9_./-]+(?:$|[\s;&|)])`)
	// readNames matches a read command's names after its options.
	// An option cluster ending in a letter that takes a value (-a, -d,
	// -i, -n, -N, -p, -t, -u) consumes the next word; -r, -s and -e
	// take none, so the word after them is a name.
	readNames = lazyre.New(`(?:^|[\s;&|(])read((?:\s+-[rse]*[adinNptu]\s+\S+|\s+-[A-Za-z]+)*)((?:\s+[A-Za-z_][A-Za-z0-9_]*)+)\s*(?:<|$|;|\|)`)
	// trapNow matches trap "…" with its double-quoted action.
	trapNow = lazyre.New(`(?:^|[\s;&|(])trap\s+"([^"]*)"`)
	// expansion matches $NAME and ${NAME…}, capturing the name.
	expansion = lazyre.New(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)
)

// idiomMayApply reports whether a report's text carries a code some rule
// reads; the others are kept without building the script's idioms.
func idiomMayApply(text string) bool {
	for _, c := range idiomCodes {
		if strings.HasSuffix(text, c) {
			return true
		}
	}
	return false
}

// firstElementArrays are bash's own arrays whose first element is what a
// script means by the bare name: $BASH_SOURCE is the running file,
// $FUNCNAME the running function, as bash's manual spells them.
var firstElementArrays = map[string]bool{"BASH_SOURCE": true, "FUNCNAME": true, "BASH_LINENO": true}

// emptyPrefixCommands are commands a script runs under an emptied
// variable on purpose (CDPATH= cd, GOOS= GOARCH= go build, GIT_DIR= git).
var emptyPrefixCommands = map[string]bool{"cd": true, "go": true, "make": true, "git": true, "exec": true, "env": true,
	"command": true, "sh": true, "bash": true, "npm": true, "node": true, "python": true, "python3": true, "cargo": true,
	"docker": true, "curl": true, "xargs": true, "find": true, "gcc": true, "cc": true}

// emptyPrefix reports whether the SC1007 report at col (the blank after
// NAME=) is an emptied variable prefixed to a command: the words after it,
// past any further NAME= or NAME=value prefixes, open with a command of
// emptyPrefixCommands or a path (./build.sh, /usr/bin/env).
func emptyPrefix(l string, col int) bool {
	i := col - 1
	if i < 1 || i >= len(l) || (l[i] != ' ' && l[i] != '\t') || l[i-1] != '=' {
		return false
	}
	words := strings.Fields(l[i:])
	for k, w := range words {
		if assignWord.Get().MatchString(w) {
			continue
		}
		// A command named by a variable ($go run …) with operands after
		// it: the program a script chose earlier.
		if _, ok := workflow.VarRef(w); ok && k+1 < len(words) && !strings.HasPrefix(words[k+1], ")") {
			return true
		}
		// path-dialect-exempt: a word of a script's text, never a path this process opens
		return emptyPrefixCommands[w] || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "/")
	}
	return false
}

// assignWord is a prefix assignment word: NAME= or NAME=value.
var assignWord = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*=`)

// trapSetBefore reports whether the double-quoted action of the trap on
// line (1-based) expands only names assigned on an earlier line and on no
// later one.
func (s *scriptIdioms) trapSetBefore(line int, l string) bool {
	m := trapNow.Get().FindStringSubmatch(l)
	if m == nil {
		return false
	}
	names := expansion.Get().FindAllStringSubmatch(m[1], -1)
	// $! is the job started last: expanded now, it names the job a line
	// before the trap put in the background, which is what the trap means
	// to stop (sleep … & then trap "kill $!" INT).
	bang := strings.Contains(m[1], "$!")
	if bang && !s.backgroundBefore(line) {
		return false
	}
	if len(names) == 0 {
		return bang
	}
	for _, n := range names {
		at := s.assigned[n[1]]
		if len(at) == 0 || at[0] >= line {
			return false
		}
		for _, later := range at {
			// A later NAME=value before a command word sets the name for
			// that one command (REKORTMPDIR=$REKORTMPDIR go test …), not
			// in the shell the trap expands in.
			if later > line && !prefixOnly(s.lines[later-1], n[1]) {
				return false
			}
		}
	}
	return true
}

// backgroundBefore reports a command put in the background (a lone &
// outside quotes) on a line before line (1-based).
func (s *scriptIdioms) backgroundBefore(line int) bool {
	for _, l := range s.lines[:line-1] {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		for _, at := range unquoted(l, "&") {
			alone := (at+1 >= len(l) || l[at+1] != '&' && l[at+1] != '>') && (at == 0 || l[at-1] != '&' && l[at-1] != '>' && l[at-1] != '<')
			if alone {
				return true
			}
		}
	}
	return false
}

// prefixOnly reports whether every assignment of name on line l is a
// prefix of a command: NAME=value followed by a word that is no
// assignment, with no export, local, readonly or declare before it.
func prefixOnly(l, name string) bool {
	re := prefixAssign.Get()
	any := false
	for _, m := range assignment.Get().FindAllStringSubmatchIndex(l, -1) {
		if l[m[2]:m[3]] != name {
			continue
		}
		any = true
		before := strings.Fields(l[:m[2]])
		if len(before) > 0 {
			switch before[len(before)-1] {
			case "export", "local", "readonly", "declare", "typeset":
				return false
			}
		}
		if !re.MatchString(l[m[2]:]) {
			return false
		}
	}
	return any
}

func unusedNameOf(text string) (string, bool) {
	m := unusedName.Get().FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// lastReadName reports whether name is the last of at least two names a
// read on line l fills, or the only one of a pause (pauseRead).
func lastReadName(l, name string) bool {
	for _, m := range readNames.Get().FindAllStringSubmatch(l, -1) {
		if names := strings.Fields(m[2]); len(names) == 1 && names[0] == name && pauseRead(l) {
			// The read's only name, never read, of a read from the
			// terminal: a pause for Enter; read must be given a name.
			return true
		}
	}
	for _, m := range readNames.Get().FindAllStringSubmatch(l, -1) {
		names := strings.Fields(m[2])
		if len(names) >= 2 && names[len(names)-1] == name {
			return true
		}
	}
	return false
}

// pauseRead reports a line that is one read from the terminal: the line
// starts with read (after blanks), with no redirection and no pipe.
func pauseRead(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "read ") && !strings.ContainsAny(t, "<|;&")
}

// placeholderReadName reports whether name is filled by a read on line l
// only to reach a later name of the same read that the script expands:
// the fields before the one wanted must be named to be skipped.
func (s *scriptIdioms) placeholderReadName(l, name string) bool {
	for _, m := range readNames.Get().FindAllStringSubmatch(l, -1) {
		names := strings.Fields(m[2])
		for k, n := range names {
			if n != name {
				continue
			}
			for _, later := range names[k+1:] {
				if s.expands(later) {
					return true
				}
			}
		}
	}
	return false
}

// arrayAssign matches an assignment to an array or one of its elements:
// the name and the value.
var arrayAssign = lazyre.New(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)(?:\[[^]=]*\])?\+?=(\S*)`)

// literalList matches an assignment of a whole list on one line, NAME=(…)
// or NAME+=(…): the name and the words inside.
var literalList = lazyre.New(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)\+?=\(([^()]*)\)`)

// safeWord matches a literal word that neither splits nor globs: no
// blank, quote, expansion or glob character.
var safeWord = lazyre.New(`^[A-Za-z0-9._:/@%+=,-]+$`)

// pidArray reports whether every assignment of name in the script sets it
// (or an element of it) to $!, to an empty list or to a list of literal
// words that hold no blank or glob character, and one sets an element at
// least: the array holds background process ids or such words only.
func (s *scriptIdioms) pidArray(name string) bool {
	seen := false
	// safe reports a list's words all safe; a word may be a literal, $!,
	// or a variable only ever set to $!.
	safe := func(words []string) bool {
		for _, w := range words {
			if len(w) > 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] {
				w = w[1 : len(w)-1] // a quoted literal word is the same word
			}
			if w != "$!" && !safeWord.Get().MatchString(w) && !s.pidVar(w, name) {
				return false
			}
			seen = true
		}
		return true
	}
	for i, l := range s.lines {
		lists := map[int]bool{} // start offsets of the list assignments read whole
		for _, m := range literalList.Get().FindAllStringSubmatchIndex(l, -1) {
			if l[m[2]:m[3]] != name {
				continue
			}
			lists[m[2]] = true
			if !safe(strings.Fields(l[m[4]:m[5]])) {
				return false
			}
		}
		// A list spread over lines, NAME=( then a word or more a line,
		// closed by ) (comments allowed, as bash allows them there).
		for _, m := range openList.Get().FindAllStringSubmatchIndex(l, -1) {
			if l[m[2]:m[3]] != name || lists[m[2]] {
				continue
			}
			lists[m[2]] = true
			words, closed := strings.Fields(l[m[1]:]), false
			for _, next := range s.lines[i+1:] {
				if c := strings.IndexAny(next, "#()"); c >= 0 {
					if next[c] == '(' {
						return false
					}
					if next[c] == ')' {
						words = append(words, strings.Fields(next[:c])...)
						closed = strings.TrimSpace(next[c+1:]) == "" || strings.HasPrefix(strings.TrimSpace(next[c+1:]), "#")
						break
					}
					if c > 0 && next[c-1] != ' ' && next[c-1] != '\t' {
						return false // a # inside a word
					}
					next = next[:c]
				}
				words = append(words, strings.Fields(next)...)
			}
			if !closed || !safe(words) {
				return false
			}
		}
		for _, m := range arrayAssign.Get().FindAllStringSubmatchIndex(l, -1) {
			if l[m[2]:m[3]] != name || lists[m[2]] {
				continue
			}
			switch v := l[m[4]:m[5]]; v {
			case "$!", `"$!"`:
				seen = true
			case "()":
			default:
				if strings.HasPrefix(v, "(") && strings.HasSuffix(v, ")") && s.pidVar(v[1:len(v)-1], name) {
					seen = true // NAME+=($pid)
					continue
				}
				return false
			}
		}
	}
	return seen
}

// openList matches a list assignment left open at the end of its line,
// NAME=( or NAME+=( followed by words at most: the name.
var openList = lazyre.New(`(?:^|[\s;&|])([A-Za-z_][A-Za-z0-9_]*)\+?=\(([^()#]*)$`)

// pidVar reports whether w expands a variable ($v, "$v", ${v}, "${v}")
// that every assignment in the script sets to $! and one sets at least: a
// background process id, digits that neither split nor glob. A loop over
// the very array being decided (for v in "${within[@]}") sets v to one of
// its elements, each a process id when every other write is one.
func (s *scriptIdioms) pidVar(w, within string) bool {
	if len(w) > 2 && w[0] == '"' && w[len(w)-1] == '"' {
		w = w[1 : len(w)-1]
	}
	if !strings.HasPrefix(w, "$") {
		return false
	}
	name := strings.TrimPrefix(w, "$")
	if strings.HasPrefix(name, "{") && strings.HasSuffix(name, "}") {
		name = name[1 : len(name)-1]
	}
	if !shellName(name) || len(s.assigned[name]) == 0 {
		return false
	}
	for _, l := range s.lines {
		for _, m := range readNames.Get().FindAllStringSubmatch(l, -1) {
			if slices.Contains(strings.Fields(m[2]), name) {
				return false // read sets it to a field of its input
			}
		}
	}
	for _, n := range s.assigned[name] {
		found := false // a line assigning the name by read or for counts against it
		for _, m := range arrayAssign.Get().FindAllStringSubmatch(s.lines[n-1], -1) {
			if m[1] != name {
				continue
			}
			if m[2] != "$!" && m[2] != `"$!"` {
				return false
			}
			found = true
		}
		if !found && within != "" {
			for _, m := range forOverArray.Get().FindAllStringSubmatch(s.lines[n-1], -1) {
				if m[1] == name && m[2] == within {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// forOverArray matches a loop over an array's elements, for NAME in
// "${ARR[@]}" (quoted or not, @ or *): the loop's name and the array's.
var forOverArray = lazyre.New(`(?:^|[\s;&|(])for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+"?\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}"?\s*(?:;|$|do(?:\s|$))`)

// arithWord matches a test's word followed by an arithmetic comparison.
var arithWord = lazyre.New(`^([A-Za-z_][A-Za-z0-9_]*)\s+-(?:eq|ne|lt|le|gt|ge)\s`)

// arithmeticName reports whether the word at col of line l opens a [[ ]]
// test comparing it arithmetically (-eq … -ge) and the script assigns a
// variable of that name: [[ n -lt 0 ]] reads $n.
func (s *scriptIdioms) arithmeticName(l string, col int) bool {
	i := col - 1
	if i < 0 || i >= len(l) || !strings.HasSuffix(strings.TrimRight(l[:i], " \t"), "[[") {
		return false
	}
	m := arithWord.Get().FindStringSubmatch(l[i:])
	return m != nil && len(s.assigned[m[1]]) > 0
}

// expands reports whether the script expands name anywhere ($name,
// ${name…}).
func (s *scriptIdioms) expands(name string) bool {
	if s.expanded == nil {
		s.expanded = map[string]bool{}
		for _, l := range s.lines {
			for _, m := range expansion.Get().FindAllStringSubmatch(l, -1) {
				s.expanded[m[1]] = true
			}
		}
	}
	return s.expanded[name]
}

// substitutionAt answers the command substitution ($(…) or `…`) ShellCheck
// placed at col (1-based, in bytes or in characters) on line l, its inner
// text and the line's text before it; with no substitution there, the
// line's only one. ok is false when no single substitution is found.
func substitutionAt(l string, col int) (inner, before string, ok bool) {
	type site struct{ start, end int }
	var sites []site
	closing := -1 // the backtick closing the last one opened
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\':
			i++
		case strings.HasPrefix(l[i:], "$(") && !strings.HasPrefix(l[i:], "$(("):
			// A substitution nested inside this one is a site too: the
			// scan goes on inside rather than past its end.
			if end := closeParen(l, i+2); end > 0 {
				sites = append(sites, site{i, end})
				i++
			}
		case l[i] == '`' && i == closing:
		case l[i] == '`':
			// So is a $(…) inside backticks.
			if end := strings.IndexByte(l[i+1:], '`'); end >= 0 {
				sites = append(sites, site{i, i + 1 + end})
				closing = i + 1 + end
			}
		}
	}
	pick := -1
	for k, st := range sites {
		if st.start == col-1 || utf8.RuneCountInString(l[:st.start]) == col-1 {
			pick = k
			break
		}
	}
	if pick < 0 && len(sites) == 1 {
		pick = 0
	}
	if pick < 0 {
		return "", "", false
	}
	st := sites[pick]
	open := 2
	if l[st.start] == '`' {
		open = 1
	}
	return l[st.start+open : st.end], l[:st.start], true
}

// closeParen answers the index of the ) closing a $( opened before from,
// skipping quoted text and nested parentheses; -1 when the line ends first.
func closeParen(l string, from int) int {
	depth := 1
	var quote byte
	for i := from; i < len(l); i++ {
		c := l[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// commandWord answers the first word of the simple command the text before
// a substitution belongs to (after the last ; & | ( or keyword).
func commandWord(before string) string {
	cut := -1
	for i := len(before) - 1; i >= 0 && cut < 0; i-- {
		switch c := before[i]; {
		case c == '&' && i > 0 && (before[i-1] == '>' || before[i-1] == '<'),
			c == '&' && i+1 < len(before) && before[i+1] == '>',
			c == '|' && i > 0 && before[i-1] == '>':
			// >&2, <&3, &>file, >|file: a redirection, not a separator.
		case c == ';' || c == '&' || c == '|' || c == '(':
			cut = i
		}
	}
	words := strings.Fields(before[cut+1:])
	for len(words) > 0 {
		switch words[0] {
		case "then", "do", "else", "!", "{", ")", "time", "if", "elif", "while", "until":
			words = words[1:]
			continue
		}
		if redirection.Get().MatchString(words[0]) {
			// >&2 echo …: a redirection may come before the command; one
			// with its target in the next word takes that word too.
			if strings.HasSuffix(words[0], ">") || strings.HasSuffix(words[0], "<") {
				words = words[1:]
			}
			if len(words) > 0 {
				words = words[1:]
			}
			continue
		}
		return words[0]
	}
	return ""
}

// redirection matches a word that is a redirection operator, with its
// target or without it (>&2, 2>/dev/null, >, <<<).
var redirection = lazyre.New(`^[0-9]*(?:&?>>?|<<?<?|>&|<&)`)

// continued prefixes before (text on line, 1-based) with the lines it
// continues: each earlier line ending in a backslash, joined without it,
// so a substitution on a continuation line has its command in view.
func (s *scriptIdioms) continued(line int, before string) string {
	for k := line - 1; k >= 1; k-- {
		prev := strings.TrimRight(s.lines[k-1], " \t\r")
		if !strings.HasSuffix(prev, "\\") {
			break
		}
		before = strings.TrimSuffix(prev, "\\") + " " + before
	}
	return before
}

// joined answers line (1-based) with the lines a trailing backslash
// continues it on, each backslash and line break made one blank (at most
// 20 lines): a column on the first line stays where it was.
func (s *scriptIdioms) joined(line int) string {
	out := strings.TrimRight(s.lines[line-1], " \t\r")
	for k := line; k < len(s.lines) && k < line+20 && strings.HasSuffix(out, "\\"); k++ {
		out = strings.TrimSuffix(out, "\\") + " " + strings.TrimSpace(s.lines[k])
		out = strings.TrimRight(out, " \t\r")
	}
	return out
}

// goPackageSubcommands are the go subcommands whose operands are package
// patterns: an import path holds no blank, so a list of them is split on
// purpose.
var goPackageSubcommands = map[string]bool{"build": true, "test": true, "vet": true, "install": true, "list": true, "generate": true}

// goPackageOperand reports whether the text before a substitution is a go
// command (go, or a wrapper whose name is go such as ./tool/go) taking
// package operands: the substitution is the package list.
func goPackageOperand(before string) bool {
	cut := strings.LastIndexAny(before, ";&|(")
	words := strings.Fields(before[cut+1:])
	for len(words) > 0 && (workflow.IsAssignment(words[0]) || words[0] == "then" || words[0] == "do" || words[0] == "!") {
		words = words[1:]
	}
	if len(words) < 2 {
		return false
	}
	name := words[0][strings.LastIndexByte(words[0], '/')+1:]
	return name == "go" && goPackageSubcommands[words[1]]
}

// countOnly reports a wc stage printing only a count: -l, -c, -w or -m
// (one or more) and no file operand (its input a pipe or a redirection).
// idFormat reports a --format whose template prints the object's id
// alone ({{.ID}}), which is what -q prints.
func idFormat(w []string) bool {
	for k, a := range w {
		v, ok := strings.CutPrefix(a, "--format=")
		if !ok && a == "--format" && k+1 < len(w) {
			v, ok = w[k+1], true
		}
		if ok && strings.Trim(v, `'"`) == "{{.ID}}" {
			return true
		}
	}
	return false
}

// grepCount reports a grep -c stage with its pattern alone (it reads the
// pipe): it prints one number.
func grepCount(stage string) bool {
	return grepCountOf(stage, 1)
}

// grepCountOf is grepCount with the operands it allows: 1, the pattern
// alone (reading a pipe), or 2, the pattern and one file named with no
// glob character (the count of one file is printed with no name before
// it).
func grepCountOf(stage string, most int) bool {
	w := workflow.ShellWords(stage)
	if len(w) < 2 || w[0] != "grep" {
		return false
	}
	count := false
	var operands []string
	for _, a := range w[1:] {
		switch {
		case a == "--count":
			count = true
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && a[0] == '-':
			count = count || strings.Contains(a, "c")
			if strings.ContainsAny(a, "efmABC") {
				return false // an option taking a value: not read here
			}
		default:
			operands = append(operands, a)
		}
	}
	switch {
	case !count || len(operands) == 0 || len(operands) > most:
		return false
	case len(operands) == 2:
		return !strings.ContainsAny(operands[1], "*?[$`")
	}
	return true
}

func countOnly(stage string) bool {
	w := strings.Fields(stage)
	if len(w) < 2 || w[0] != "wc" {
		return false
	}
	flags := 0
	for k := 1; k < len(w); k++ {
		a := w[k]
		switch {
		case a == "<":
			k++ // the redirection's file
		case strings.HasPrefix(a, "<"):
		case len(a) >= 2 && a[0] == '-' && strings.Trim(a[1:], "lcwm") == "":
			flags++
		default:
			return false
		}
	}
	return flags > 0
}

// cutField reports a cut stage printing one numbered field of lines cut at
// blanks (cut -d ' ' -f 2): a field cut at blanks holds none.
var cutField = lazyre.New(`^cut\s+(?:-d\s*' '\s+-f\s*[0-9]+|-f\s*[0-9]+\s+-d\s*' ')$`)

// awkField reports an awk stage printing one numbered field of each line,
// or its last ('{print $2}', '{print $NF}', optionally after a pattern;
// in double quotes with the $ escaped, "{print \$1}"),
// fields cut at blanks (no -F): a field holds no blank.
var awkField = lazyre.New(`^awk\s+(?:'(?:[^'{]*)\{\s*print\s+\$(?:[0-9]+|NF)\s*;?\s*\}'|"(?:[^"{$]*)\{\s*print\s+\\\$(?:[0-9]+|NF)\s*;?\s*\}")$`)

// lineFilters are programs that pass on or drop whole lines of their
// input: a list of words stays a list of words through them.
var lineFilters = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "sort": true, "uniq": true, "head": true, "tail": true}

// pipelineStages cuts a command line at each | outside quotes: a grep
// pattern's alternation ("a|b") is no pipe.
func pipelineStages(cmd string) []string {
	var stages []string
	start := 0
	for _, k := range unquoted(cmd, "|") {
		stages = append(stages, cmd[start:k])
		start = k + 1
	}
	return append(stages, cmd[start:])
}

// unquoted answers the offsets of the bytes of set in line that stand
// outside quotes and are not escaped by a backslash.
func unquoted(line, set string) []int {
	var at []int
	var quote byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case strings.IndexByte(set, c) >= 0:
			at = append(at, i)
		}
	}
	return at
}

// defOpen matches a line opening a function whose body follows on the
// next lines: name() {, function name {, function name() {; the name is
// the first group or the second.
var defOpen = lazyre.New(`^\s*(?:function\s+([A-Za-z_][A-Za-z0-9_-]*)\s*(?:\(\s*\))?|([A-Za-z_][A-Za-z0-9_-]*)\s*\(\s*\))\s*\{\s*$`)

// oneWord is oneWordOutput that also reads a call of a function the script
// defines with a body of one command: the function prints what that
// command prints (wait_time() { expr $RANDOM % 10 + 1; }).
func (s *scriptIdioms) oneWord(sub string) bool {
	if oneWordOutput(sub) {
		return true
	}
	name := strings.TrimSpace(sub)
	if name == "" || strings.ContainsAny(name, " \t|;&<>$`") {
		return false
	}
	if s.funcBodies == nil {
		s.funcBodies = map[string]string{}
		for k := 0; k < len(s.lines); k++ {
			m := defOpen.Get().FindStringSubmatch(s.lines[k])
			if m == nil {
				continue
			}
			name := m[1] + m[2]
			var body []string
			j := k + 1
			for ; j < len(s.lines) && strings.TrimSpace(s.lines[j]) != "}"; j++ {
				if t := strings.TrimSpace(s.lines[j]); t != "" && !strings.HasPrefix(t, "#") {
					body = append(body, t)
				}
			}
			if j < len(s.lines) && len(body) == 1 {
				s.funcBodies[name] = body[0]
			}
		}
	}
	body, ok := s.funcBodies[name]
	return ok && oneWordOutput(body)
}

// anyOperandShape are the git commands that print object ids or ref names,
// one per line, whatever operands or options a variable hands them.
var anyOperandShape = map[string]bool{"merge-base": true, "describe": true, "symbolic-ref": true}

// plainExpansions reports whether every $ of stage opens a plain
// expansion of a name ($H, ${H}, inside double quotes or not): an operand
// whose value the command takes, not a substitution or an arithmetic
// expansion run in its place.
func plainExpansions(stage string) bool {
	for i := strings.IndexByte(stage, '$'); i >= 0; {
		rest := stage[i+1:]
		n := 0
		if strings.HasPrefix(rest, "{") {
			n = strings.IndexByte(rest, '}') + 1
			if n == 0 || !shellName(rest[1:n-1]) {
				return false
			}
		} else {
			for n < len(rest) && (rest[n] == '_' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || n > 0 && rest[n] >= '0' && rest[n] <= '9') {
				n++
			}
			if n == 0 {
				return false
			}
		}
		next := strings.IndexByte(rest[n:], '$')
		if next < 0 {
			break
		}
		i = i + 1 + n + next
	}
	return true
}

// wordPreserving reports a pipeline stage that turns one word into one
// word: sed with one s command whose replacement holds no blank or line
// break (sed 's/aarch64/sbsa/'), or tr -d.
func wordPreserving(stage string) bool {
	w := workflow.ShellWords(stage)
	switch {
	case len(w) == 3 && w[0] == "tr" && w[1] == "-d":
		return true
	case len(w) == 2 && w[0] == "sed", len(w) == 3 && w[0] == "sed" && w[1] == "-e":
	default:
		return false
	}
	e := w[len(w)-1]
	if len(e) < 4 || e[0] != 's' {
		return false
	}
	parts := strings.Split(e[2:], e[1:2])
	if len(parts) != 3 || strings.Trim(parts[2], "gI") != "" {
		return false // an escaped delimiter, more commands, or flags beyond g
	}
	return !strings.ContainsAny(parts[1], " \t\n") && !strings.Contains(parts[1], `\n`) && !strings.Contains(parts[1], `\t`)
}

// zeroRun reports the pipeline head -c N < /dev/zero | tr '\0' 'c' (or
// head -c N /dev/zero): N copies of one character c that is no blank and
// no glob character.
func zeroRun(stages []string) bool {
	if len(stages) != 2 {
		return false
	}
	h := workflow.ShellWords(stages[0])
	t := workflow.ShellWords(stages[1])
	if len(h) < 3 || h[0] != "head" || h[1] != "-c" || len(t) != 3 || t[0] != "tr" {
		return false
	}
	src := strings.Join(h[3:], "")
	if src != "</dev/zero" && src != "/dev/zero" {
		return false
	}
	c := t[2]
	return (t[1] == `\0` || t[1] == `\000`) && (len(c) == 1 && safeWord.Get().MatchString(c) || len(c) == 4 && c[0] == '\\' && strings.Trim(c[1:], "01234567") == "")
}

// exprArith reports an expr command doing arithmetic: it prints one
// integer whatever its operands expand to (an error prints nothing). One
// of :, match, substr, index or length prints text instead.
func exprArith(w []string) bool {
	if len(w) < 4 || w[0] != "expr" {
		return false
	}
	arith := false
	for _, a := range w[1:] {
		switch a {
		case ":", "match", "substr", "index", "length":
			return false
		case "+", "-", `\*`, "'*'", "/", "%":
			arith = true
		}
	}
	return arith
}

// goOneWordEnv are the go env variables whose value is one word: names of
// architectures, systems, feature levels and versions.
var goOneWordEnv = map[string]bool{
	"GOARCH": true, "GOOS": true, "GOHOSTARCH": true, "GOHOSTOS": true, "GOVERSION": true,
	"GOAMD64": true, "GOARM": true, "GOARM64": true, "GO386": true, "GOMIPS": true, "GOMIPS64": true,
	"GOPPC64": true, "GORISCV64": true, "GOWASM": true, "CGO_ENABLED": true,
}

// oneWordOutput reports whether a substitution's command prints words
// that hold no blank and no glob character, one per line or one in all:
// package paths, object ids, counts, dates in a compact format, kernel
// names. Its first stage decides; later stages must be line filters.
func oneWordOutput(inner string) bool {
	stages := pipelineStages(inner)
	// Stages that keep one word one word (tr -d " ") after a count or a
	// field leave it what it was.
	for len(stages) > 1 && wordPreserving(strings.TrimSpace(stages[len(stages)-1])) {
		if prev := strings.TrimSpace(stages[len(stages)-2]); countOnly(prev) || grepCount(prev) || awkField.Get().MatchString(prev) || cutField.Get().MatchString(prev) {
			stages = stages[:len(stages)-1]
			continue
		}
		break
	}
	last := strings.TrimSpace(stages[len(stages)-1])
	if countOnly(last) || (len(stages) > 1 && grepCount(last)) || (len(stages) == 1 && grepCountOf(last, 2)) {
		// A count, whatever came before it.
		return true
	}
	if len(stages) > 1 && (awkField.Get().MatchString(last) || cutField.Get().MatchString(last)) {
		return true
	}
	if zeroRun(stages) || len(stages) == 1 && exprArith(strings.Fields(stages[0])) {
		return true
	}
	for _, st := range stages[1:] {
		w := strings.Fields(st)
		if len(w) == 0 || !lineFilters[w[0]] && !wordPreserving(st) {
			return false
		}
	}
	w := strings.Fields(stages[0])
	if len(w) == 0 || strings.ContainsAny(stages[0], "`;&<>") {
		return false
	}
	// A variable's value may be a flag that changes what a command prints
	// (date +$FMT, go list $flags); only commands whose output is one
	// word whatever their operands take plain expansions (git merge-base
	// "$BASE" "$HEAD" prints commit ids).
	if strings.Contains(stages[0], "$") && !(plainExpansions(stages[0]) && len(w) >= 2 && w[0] == "git" && anyOperandShape[w[1]]) {
		return false
	}
	has := func(flags ...string) bool {
		for _, a := range w[1:] {
			for _, f := range flags {
				if a == f || strings.HasPrefix(a, f+"=") {
					return true
				}
			}
		}
		return false
	}
	quiet := func() bool {
		for _, a := range w[1:] {
			if a == "--quiet" || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "q")) {
				return true
			}
		}
		return false
	}
	cmd := w[0]
	if cmd[strings.LastIndexByte(cmd, '/')+1:] == "go" {
		cmd = "go" // a wrapper named go (./tool/go) takes go's arguments
	}
	switch cmd {
	case "nproc", "whoami", "arch", "hostname":
		return len(w) == 1
	case "echo":
		// A function that answers a literal word (echo "false").
		if len(w) != 2 {
			return false
		}
		lit := w[1]
		if len(lit) > 2 && (lit[0] == '"' || lit[0] == '\'') && lit[len(lit)-1] == lit[0] {
			lit = lit[1 : len(lit)-1]
		}
		return safeWord.Get().MatchString(lit)
	case "lsb_release":
		// -s with -c, -i or -r: the codename, distributor or release,
		// one word (-d, the description, holds blanks).
		short, one := false, false
		for _, a := range w[1:] {
			switch {
			case a == "--short":
				short = true
			case a == "--codename" || a == "--id" || a == "--release":
				one = true
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
				if strings.Contains(a, "d") || strings.Contains(a, "a") {
					return false
				}
				short = short || strings.Contains(a, "s")
				one = one || strings.ContainsAny(a, "cir")
			default:
				return false
			}
		}
		return short && one
	case "jobs":
		// The background jobs' process ids, one per line.
		return len(w) == 2 && w[1] == "-p"
	case "uname":
		return len(w) == 1 || (len(w) == 2 && len(w[1]) == 2 && strings.ContainsAny(w[1][1:], "srmnpio"))
	case "id":
		return len(w) >= 2 && (w[1] == "-u" || w[1] == "-g" || w[1] == "-un" || w[1] == "-gn")
	case "date":
		for _, a := range w[1:] {
			if len(a) > 2 && (a[0] == '\'' || a[0] == '"') && a[len(a)-1] == a[0] {
				a = a[1 : len(a)-1] // date '+%s' is date +%s
			}
			switch {
			case strings.HasPrefix(a, "+"):
				if strings.ContainsAny(strings.Trim(a, `'"`), " \t*?[") {
					return false
				}
			case a == "-I" || a == "-Is" || a == "-Iseconds" || a == "-Iminutes" || a == "-u" || strings.HasPrefix(a, "--iso-8601"):
			default:
				return false
			}
		}
		return true
	case "go":
		// Import paths hold no blank; -f, -json and -m print other shapes.
		// go env prints one line per variable asked for: a target's
		// architecture, system or Go version is one word (go env GOPATH is
		// a directory, which may hold a blank).
		if len(w) >= 3 && w[1] == "env" {
			for _, v := range w[2:] {
				if !goOneWordEnv[v] {
					return false
				}
			}
			return true
		}
		return len(w) >= 2 && w[1] == "list" && !has("-f", "-json", "-m", "-deps")
	case "docker":
		// Object ids, one per line, under -q.
		if len(w) < 2 {
			return false
		}
		sub := w[1]
		if len(w) >= 3 && (sub == "image" || sub == "container" || sub == "volume" || sub == "network") {
			sub += " " + w[2]
		}
		switch sub {
		case "ps", "images", "image ls", "container ls", "volume ls", "network ls":
			return quiet() || idFormat(w)
		}
		return false
	case "ko":
		// ko build and ko publish print the image reference of each
		// package they build, one per line; a reference holds no blank.
		return len(w) >= 2 && (w[1] == "build" || w[1] == "publish")
	case "crane":
		// The digest of an image, or the reference of the image pushed.
		return len(w) >= 2 && (w[1] == "digest" || w[1] == "append" || w[1] == "mutate" || w[1] == "push")
	case "git":
		if len(w) < 2 {
			return false
		}
		switch w[1] {
		case "describe", "symbolic-ref":
			// A ref name holds no blank (git check-ref-format).
			return true
		case "branch", "for-each-ref":
			// --show-current, or a format of ref names alone
			// (--format=%(refname:short)): names hold no blank.
			return has("--show-current") || refnameFormat(workflow.ShellWords(stages[0]))
		case "rev-parse":
			// path-dialect-exempt: git options a script's text is matched against, never run
			// probe-literal-exempt: the same words, matched in a script, never asked of git
			return !has("--show-toplevel", "--git-dir", "--git-common-dir", "--absolute-git-dir", "--show-prefix",
				"--git-path", "--show-superproject-working-tree", "--show-cdup", "--sq-quote", "--local-env-vars")
		case "merge-base", "rev-list":
			return true
		}
	}
	return false
}

// expansionAt answers the name of the $NAME or ${NAME…} ShellCheck placed
// at col (1-based, bytes or characters) on line l.
func expansionAt(l string, col int) (string, bool) {
	for _, loc := range expansion.Get().FindAllStringSubmatchIndex(l, -1) {
		if loc[0] == col-1 || utf8.RuneCountInString(l[:loc[0]]) == col-1 {
			return l[loc[2]:loc[3]], true
		}
	}
	return "", false
}

// rootOnlyDirs are the directories a file written under needs root: a
// sudo command's redirection into one of them fails as the user.
// path-dialect-exempt: system directories a script's redirection is matched against, never opened
var rootOnlyDirs = []string{"/etc/", "/usr/", "/opt/", "/root/", "/boot/", "/sys/", "/proc/", "/lib/", "/lib64/", "/bin/", "/sbin/", "/srv/", "/var/"}

// userRedirect reports whether the redirection ShellCheck placed at col of
// line l writes where the user may write: not under rootOnlyDirs (but
// for /var/tmp/). sudo not applying to it is then what the script wants:
// the command runs as root, its output lands as the user's.
func userRedirect(l string, col int) bool {
	i := col - 1
	if i < 0 || i >= len(l) {
		return false
	}
	rest := l[i:]
	k := strings.IndexByte(rest, '>')
	if k < 0 || strings.TrimSpace(rest[:k]) != "" && strings.Trim(rest[:k], "0123456789&") != "" {
		return false
	}
	rest = strings.TrimLeft(rest[k:], ">|")
	rest = strings.TrimLeft(rest, " \t")
	w := rest
	if e := strings.IndexAny(w, " \t;&|)"); e >= 0 {
		w = w[:e]
	}
	w = strings.Trim(w, `"'`)
	if w == "" {
		return false
	}
	if strings.HasPrefix(w, "/var/tmp/") {
		return true
	}
	for _, d := range rootOnlyDirs {
		if strings.HasPrefix(w, d) {
			return false
		}
	}
	return true
}

// exprOnlyHeredoc reports whether the here-document line l opens (line
// index i of lines) expands, besides GitHub expressions, only names the
// script assigned before it: GitHub writes the expressions in before any
// shell runs, and a name the script computed for the remote command
// (SKIP=… then critest $SKIP) is meant to expand here. A name the script
// never set ($HOME) is the remote side's, and keeps the report.
func (s *scriptIdioms) exprOnlyHeredoc(i int) bool {
	lines := s.lines
	m := heredocOpen.Get().FindStringSubmatch(lines[i])
	if m == nil {
		return false
	}
	delim := m[2]
	for k := i + 1; k < len(lines); k++ {
		t := lines[k]
		if m[1] == "-" {
			t = strings.TrimLeft(t, "\t")
		}
		if strings.TrimSpace(t) == delim {
			return true
		}
		body := strings.ReplaceAll(lines[k], workflow.Expr, "")
		if strings.ContainsRune(body, '`') {
			return false
		}
		for _, e := range heredocExpansion.Get().FindAllStringSubmatch(body, -1) {
			name := e[1] + e[2]
			if name == "" {
				return false // $( … ), ${…} of another shape, or a special parameter
			}
			at := s.assigned[name]
			if len(at) == 0 || at[0] > i {
				return false
			}
		}
	}
	return false
}

// heredocExpansion matches an expansion in a here-document body: $NAME or
// ${NAME} (the name captured), or any other $ form that expands ($(, $((,
// ${ of another shape, a special or positional parameter), captured empty.
// A $ before anything else ($] in a pattern) is literal.
var heredocExpansion = lazyre.New(`\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\}|[({0-9?@*#$!-])`)

// heredocOpen matches an unquoted here-document operator and its word.
var heredocOpen = lazyre.New(`<<(-?)\s*([A-Za-z_][A-Za-z0-9_]*)`)

// echoOperand reports whether the report at col of line l sits in an
// operand of echo, which joins its operands with one blank: "…$@…" there
// prints what "…$*…" would. A function of the script whose body only
// echoes counts as echo.
func (s *scriptIdioms) echoOperand(l string, col int) bool {
	i := col - 1
	if i < 0 || i > len(l) {
		return false
	}
	w := commandWord(l[:i])
	return w == "echo" || s.echoes[w]
}

// readEchoFunctions finds the functions whose body is nothing but echo
// commands (or calls of such functions defined before): NAME() { on one
// line, the body, } alone on a line.
func (s *scriptIdioms) readEchoFunctions() {
	for i := 0; i < len(s.lines); i++ {
		m := funcOpen.Get().FindStringSubmatch(s.lines[i])
		if m == nil {
			continue
		}
		only, k := true, i+1
		for ; k < len(s.lines); k++ {
			t := strings.TrimSpace(s.lines[k])
			if t == "}" {
				break
			}
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			w := strings.Fields(t)[0]
			if w != "echo" && !s.echoes[w] {
				only = false
			}
		}
		if k < len(s.lines) && only && k > i+1 {
			s.echoes[m[1]] = true
		}
	}
}

// funcOpen matches a function definition opening its body on its line.
var funcOpen = lazyre.New(`^\s*(?:function\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*\(\)\s*\{\s*$`)

// hereStringOperand reports whether the substitution ShellCheck placed at
// col of line l is the word of a here-string (<<<): bash neither splits
// nor globs it.
func hereStringOperand(l string, col int) bool {
	i := col - 1
	if i < 0 || i > len(l) {
		return false
	}
	return strings.HasSuffix(strings.TrimRight(l[:i], " \t"), "<<<")
}

// literalMatch reports a [[ x =~ "…" ]] whose quoted right side holds no
// regular-expression operator but the dot: a literal text (a path, a file
// name), which the quotes make it, as meant.
func literalMatch(l string) bool {
	for _, m := range quotedMatch.Get().FindAllStringSubmatch(l, -1) {
		if !strings.ContainsAny(m[1], "^$*+?()[]{}|\\") {
			return true
		}
	}
	return false
}

// quotedMatch matches =~ followed by a double-quoted right side.
var quotedMatch = lazyre.New(`=~\s*"([^"]*)"`)

// singleWordLoop reports a for loop over one literal word (for cmd in
// openssl; do): a list of one, written to grow.
var singleWordLoop = lazyre.New(`(?:^|[\s;&|({])for\s+[A-Za-z_][A-Za-z0-9_]*\s+in\s+(?:[A-Za-z0-9_./:+-]+|"[A-Za-z0-9_./:+-]+"|'[A-Za-z0-9_./:+-]+')\s*(?:;|$|do(?:\s|$))`)

// defaultsOnly reports whether the function whose definition opens on line
// (1-based) reads its positional parameters only with a default
// (${1:-…} or ${1-…}): called with none, it runs on its defaults, as
// written to.
func (s *scriptIdioms) defaultsOnly(line int) bool {
	if line < 1 || line > len(s.lines) || funcOpen.Get().FindStringSubmatch(s.lines[line-1]) == nil {
		return false
	}
	seen := false
	for k := line; k < len(s.lines); k++ {
		t := s.lines[k]
		if strings.TrimSpace(t) == "}" {
			return seen
		}
		for _, m := range positional.Get().FindAllStringSubmatch(t, -1) {
			if m[1] == "" {
				return false
			}
			seen = true
		}
	}
	return false
}

// positional matches a positional parameter's expansion, capturing the
// default operator when it has one (${1:-x}, ${2-x}); $1, ${1}, $@, $*
// and $# capture nothing.
var positional = lazyre.New(`\$(?:\{[1-9](:?-)|\{[1-9#@*][^}]*\}|[1-9#@*])`)

// flagsFunction reports a substitution that calls a function the script
// defines whose name says it prints flags or arguments (ko_flags,
// org_flag "$format", build_args, test_opts): its output is a list of
// options, meant to be split into words.
func (s *scriptIdioms) flagsFunction(sub string) bool {
	words := strings.Fields(sub)
	if len(words) == 0 || strings.ContainsAny(sub, "|;&<>`") {
		return false
	}
	name := words[0]
	if !shellName(name) {
		return false
	}
	lower := strings.ToLower(name)
	named := false
	for _, suf := range []string{"flags", "flag", "args", "opts", "options"} {
		if lower == suf || strings.HasSuffix(lower, "_"+suf) {
			named = true
		}
	}
	if !named {
		return false
	}
	for _, l := range s.lines {
		if m := defOpen.Get().FindStringSubmatch(l); m != nil && m[1]+m[2] == name {
			return true
		}
	}
	return false
}

// refnameFormat reports a --format option whose value is one
// %(refname…) atom and nothing else: each line a ref name.
func refnameFormat(args []string) bool {
	for i, a := range args {
		if strings.HasPrefix(a, "%(") && i > 0 && strings.HasPrefix(args[i-1], "--format") && !strings.Contains(args[i-1], "=") {
			continue
		}
		v, ok := strings.CutPrefix(a, "--format=")
		if !ok && a == "--format" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok {
			v = strings.Trim(v, `"'`)
			return strings.HasPrefix(v, "%(refname") && strings.HasSuffix(v, ")") && strings.Count(v, "%(") == 1
		}
	}
	return false
}
