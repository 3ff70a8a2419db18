package gates

// check-gate-fail-closed: every awk or jq command substitution a
// check-*.sh gate captures into a variable has its exit status handled, so
// a crashed parser is never read as empty output and a clean verdict.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/shlex"
)

// parserNames are the programs whose captures are held: awk in every
// spelling a script may call it by, and jq.
var parserNames = map[string]bool{"awk": true, "gawk": true, "mawk": true, "nawk": true, "busybox-awk": true, "jq": true}

const failClosedValve = "fail-closed-exempt"

// declWords take assignment words as arguments.
var declWords = map[string]bool{"local": true, "export": true, "readonly": true, "declare": true, "typeset": true}

func checkGateFailClosed(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("usage: check-gate-fail-closed (no operands: the corpus is every check-*.sh of the resolve dirs)")
	}
	scripts, descriptors, err := checkScripts(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(scripts) == 0 {
		if descriptors == 0 {
			return c.Refuse("no check-*.sh and no check-*.gate in %s: no gates directory resolved", strings.Join(searchDirs(c), ", "))
		}
		return c.NewReport(nil).Nothing(fmt.Sprintf("0 check-*.sh files beside %s: no shell capture to hold",
			plural(descriptors, "check-*.gate descriptor", "check-*.gate descriptors")))
	}
	r := c.NewReport(map[string]string{
		"A": `check the status where the value is captured: out="$(awk ...)" || { echo "GATE: awk failed" >&2; exit 2; }, or st=$? on the next line then fail_closed "$st" GATE awk; a capture that cannot fail takes "# fail-closed-exempt: <reason>" on the comment line above it`,
		"B": "write why the capture cannot fail after the colon; an empty # fail-closed-exempt: declares nothing",
	})
	captures, exempt, inMemory := 0, 0, 0
	for _, path := range scripts {
		data, toks, err := readLexed(c, path)
		if err != nil {
			return c.RefuseErr(err)
		}
		lines := strings.Split(string(data), "\n")
		funcs := parserFunctions(lines)
		var found []gate.Finding
		shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
			pipes := shlex.Split(list)
			for i, p := range pipes {
				for _, cmd := range p.Commands {
					for _, capt := range parserCaptures(cmd, funcs) {
						if capt.hereString {
							inMemory++
							continue
						}
						captures++
						line := capt.tok.Pos.Line
						valved, reason := valveIn(precedingComments(lines, line), failClosedValve)
						if valved {
							if reason == "" {
								// assertion B: an empty reason declares nothing.
								found = append(found, gate.Finding{Class: "B", Path: path, Line: line,
									Msg: fmt.Sprintf("# %s: above this %s capture gives no reason, so it exempts nothing", failClosedValve, capt.prog)})
								continue
							}
							exempt++
							continue
						}
						// assertion A: the capture's status is handled where it is taken.
						if guarded(pipes, i, cmd) {
							continue
						}
						found = append(found, gate.Finding{Class: "A", Path: path, Line: line,
							Msg: fmt.Sprintf("%s captures %s output with its exit status unchecked: a crashed %s reads as empty output and the gate can print clean", clip(capt.tok.Raw), capt.prog, capt.prog)})
					}
				}
			}
		})
		addInLineOrder(r, found)
	}
	return r.Done(fmt.Sprintf("%s in %s handled (%d exempt, %d over in-memory input left out)",
		plural(captures, "awk/jq capture", "awk/jq captures"), plural(len(scripts), "check-*.sh file", "check-*.sh files"), exempt, inMemory))
}

// funcHead opens a shell function definition on its line: name() or
// function name, with or without the parentheses.
var funcHead = lazyre.New(`^\s*(?:function\s+([A-Za-z_][A-Za-z0-9_-]*)\s*(?:\(\s*\))?|([A-Za-z_][A-Za-z0-9_-]*)\s*\(\s*\))\s*\{?\s*$`)

// parserWord finds awk or jq run as a command word in a line of a body.
var parserWord = lazyre.New(`(?:^|[\s;|&({` + "`" + `]|\$\()(awk|gawk|mawk|nawk|busybox-awk|jq)(?:\s|$)`)

// parserFunctions answers the file's functions whose bodies run awk or jq,
// by name, with the program: a definition opens a line (name() { or
// function name {) and its body runs to the first line that is a lone
// closing brace at the definition's indentation or less. Comment lines do
// not count. A one-line body (name() { awk …; }) is read on its line.
func parserFunctions(lines []string) map[string]string {
	out := map[string]string{}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := oneLineFunc.Get().FindStringSubmatch(line); m != nil {
			if pm := parserWord.Get().FindStringSubmatch(m[3]); pm != nil {
				out[m[1]+m[2]] = pm[1]
			}
			continue
		}
		m := funcHead.Get().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name := m[1] + m[2]
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		for j := i + 1; j < len(lines); j++ {
			body := lines[j]
			t := strings.TrimSpace(body)
			if t == "}" && len(body)-len(strings.TrimLeft(body, " \t")) <= indent {
				i = j
				break
			}
			if strings.HasPrefix(t, "#") {
				continue
			}
			if pm := parserWord.Get().FindStringSubmatch(body); pm != nil {
				if _, seen := out[name]; !seen {
					out[name] = pm[1]
				}
			}
		}
	}
	return out
}

// oneLineFunc is a definition with its body on the same line.
var oneLineFunc = lazyre.New(`^\s*(?:function\s+([A-Za-z_][A-Za-z0-9_-]*)\s*(?:\(\s*\))?|([A-Za-z_][A-Za-z0-9_-]*)\s*\(\s*\))\s*\{(.*)\}\s*$`)

type parserCapture struct {
	tok        shlex.Token // the assignment word carrying the substitution
	prog       string
	hereString bool
}

// parserCaptures answers the awk/jq command substitutions a command
// assigns to a variable, directly (x=$(awk …)) or through a declaration
// builtin (local x=$(jq …)).
//
// A call of a function of the file whose body runs awk or jq counts as
// that program's capture (x=$(scan "$f")): the function answers with the
// parser's status, or with one it derived from it, and a caller that drops
// it reads a crash as empty output all the same.
func parserCaptures(cmd shlex.Command, funcs map[string]string) []parserCapture {
	words := cmd.Words()
	var out []parserCapture
	afterDecl := false
	for _, w := range words {
		if w.Kind != shlex.Word {
			continue
		}
		if !w.Quoted && declWords[w.Raw] {
			afterDecl = true
			continue
		}
		if !isAssignWord(w.Raw) {
			if !afterDecl && !(w.Kind == shlex.Word && !w.Quoted && prefixWord(w.Raw)) {
				break // assignments only prefix a command
			}
			continue
		}
		for _, sub := range w.Subs {
			if sub.Kind != shlex.Dollar && sub.Kind != shlex.Backtick {
				continue
			}
			for _, p := range shlex.Split(sub.Tokens) {
				for _, inner := range p.Commands {
					name, _ := cmdName(inner)
					prog := name
					if via, ok := funcs[name]; ok {
						// assertion A: a function running awk or jq is captured as that program.
						prog = via + " (in " + name + "())"
					} else if !parserNames[name] {
						continue
					}
					here := false
					for _, rd := range inner.Redirects() {
						if rd.Op.Value == "<<<" || strings.HasSuffix(rd.Op.Value, "<<<") {
							here = true
						}
					}
					out = append(out, parserCapture{tok: w, prog: prog, hereString: here})
				}
			}
		}
	}
	return out
}

var assignRE = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=`)

func isAssignWord(raw string) bool { return assignRE.Get().MatchString(raw) }

func prefixWord(s string) bool {
	switch s {
	case "if", "elif", "while", "until", "!", "then", "do", "else", "{", "time":
		return true
	}
	return false
}

// guarded reports whether the capture in cmd, the last command of
// pipes[i], has its status handled: the command is an if/while/until
// condition; the pipeline is followed by an || branch that exits, returns,
// or is a { … } group or fail_closed; or the next command reads $?
// (st=$?, fail_closed "$?").
func guarded(pipes []shlex.Pipeline, i int, cmd shlex.Command) bool {
	p := pipes[i]
	if words := cmd.Words(); len(words) > 0 && !words[0].Quoted {
		switch words[0].Raw {
		case "if", "elif", "while", "until":
			return true
		}
	}
	if p.Sep == "||" && i+1 < len(pipes) && len(pipes[i+1].Commands) > 0 {
		words := pipes[i+1].Commands[0].Words()
		if len(words) > 0 && !words[0].Quoted {
			switch words[0].Raw {
			case "{", "exit", "return", "fail_closed":
				return true
			}
		}
	}
	if (p.Sep == "\n" || p.Sep == ";") && i+1 < len(pipes) && len(pipes[i+1].Commands) > 0 {
		next := pipes[i+1].Commands[0]
		for _, w := range next.Words() {
			if strings.Contains(w.Raw, "=$?") || strings.Contains(w.Raw, `="$?"`) {
				return true
			}
		}
		if name, args := cmdName(next); name == "fail_closed" && len(args) > 0 &&
			(args[0].Value == "$?") {
			return true
		}
	}
	return false
}

// clip shortens a quoted source excerpt for a finding line.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
