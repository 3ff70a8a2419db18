package gates

// check-pipe-membership: in a shell file that sets pipefail, no pipeline
// feeds a set (an array's elements, or a loop's output) into a reader that
// stops at its first match. The reader exits early, the writer dies of
// SIGPIPE, and pipefail makes that death the pipeline's status, so a member
// that is present reads as absent — and only sometimes, under load.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/shlex"
)

func checkPipeMembership(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("usage: check-pipe-membership (no operands: the corpus is the tracked shell tree and its unit-test suites)")
	}
	corpus, err := shellCorpus(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	const rewrite = `test membership with a loop or a [[ ]] test, never a pipe: for e in "${arr[@]}"; do [[ $e == "$x" ]] && { found=1; break; }; done`
	r := c.NewReport(map[string]string{
		"A": rewrite + ` (or let the reader see the whole input: grep -c, or a here-string grep -qxF -- "$x" <<<"$(printf '%s\n' "${arr[@]}")")`,
		"B": rewrite + "; for a loop's output, collect it first (out=$(for …; done)) and test the variable",
		"C": `hand the reader the value whole instead of through a pipe: grep -q -- "$x" <<<"$value", or [[ $value == *"$x"* ]]`,
	})
	scripts, suites, inScope := 0, 0, 0
	for _, f := range corpus {
		if f.suite {
			suites++
		} else {
			scripts++
		}
		toks, err := lexShell(f.path, f.data)
		if err != nil {
			return c.RefuseErr(err)
		}
		if !setsPipefail(toks) {
			continue
		}
		inScope++
		var found []gate.Finding
		shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
			for _, p := range shlex.Split(list) {
				if len(p.Commands) < 2 {
					continue
				}
				reader, ok := shortReader(p.Commands[len(p.Commands)-1])
				if !ok {
					continue
				}
				first := p.Commands[0]
				line := first.Tokens[0].Pos.Line
				if prod, ok := arrayProducer(first); ok {
					// assertion A: an array printed into a short-circuit reader.
					found = append(found, gate.Finding{Class: "A", Path: f.path, Line: line,
						Msg: fmt.Sprintf("%s of an array feeds %s under pipefail: %s stops at its first match, %s dies of SIGPIPE, and pipefail makes that the pipeline's status, so a present member can read as absent", prod, reader, reader, prod)})
					continue
				}
				if prod, ok := scalarProducer(first); ok {
					// assertion C: a value printed into a short-circuit reader.
					found = append(found, gate.Finding{Class: "C", Path: f.path, Line: line,
						Msg: fmt.Sprintf("%s of a variable's value feeds %s under pipefail: once the value outgrows the pipe's buffer, %s stops at its first match, %s dies of SIGPIPE, and pipefail makes that the pipeline's status, so a present match can read as absent", prod, reader, reader, prod)})
					continue
				}
				if loopProducer(first) {
					// assertion B: a loop's output piped into a short-circuit reader.
					found = append(found, gate.Finding{Class: "B", Path: f.path, Line: line,
						Msg: fmt.Sprintf("a loop's output feeds %s under pipefail: %s stops at its first match, the loop dies of SIGPIPE, and pipefail makes that the pipeline's status, so a present member can read as absent", reader, reader)})
				}
			}
		})
		addInLineOrder(r, found)
	}
	return r.Done(fmt.Sprintf("%s under pipefail of %s and %s read; no set feeds a short-circuit reader",
		plural(inScope, "shell file", "shell files"), plural(scripts, "tracked script", "tracked scripts"), plural(suites, "unit-test suite", "unit-test suites")))
}

// setsPipefail reports whether some command turns pipefail on: set -o
// pipefail, or a flag word ending in o before pipefail (set -euo pipefail).
func setsPipefail(toks []shlex.Token) bool {
	found := false
	forEachCommand(toks, func(cmd shlex.Command) {
		name, args := cmdName(cmd)
		if name != "set" {
			return
		}
		for i := 0; i+1 < len(args); i++ {
			if args[i+1].Value == "pipefail" && pipefailFlag.Get().MatchString(args[i].Value) {
				found = true
			}
		}
	})
	return found
}

var pipefailFlag = lazyre.New(`^-[A-Za-z]*o$`)

// shortReader answers the reader a command is when it stops reading at
// its first match: head, or grep with -q/--quiet/--silent/-m/--max-count
// or a short cluster holding q or m.
func shortReader(cmd shlex.Command) (string, bool) {
	name, args := cmdName(cmd)
	switch name {
	case "head":
		return "head", true
	case "grep", "egrep", "fgrep":
		for _, a := range args {
			v := a.Value
			if v == "--" {
				break
			}
			switch {
			case v == "--quiet" || v == "--silent" || strings.HasPrefix(v, "--max-count"):
				return name + " " + v, true
			case strings.HasPrefix(v, "--"):
			case strings.HasPrefix(v, "-") && len(v) > 1 && strings.ContainsAny(flagCluster(v), "qm"):
				return name + " " + v, true
			}
		}
	}
	return "", false
}

// flagCluster answers the option letters of a short-option word, up to the
// first digit (-m1's count is no flag).
func flagCluster(v string) string {
	v = v[1:]
	for i := 0; i < len(v); i++ {
		if !((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' && v[i] <= 'Z')) {
			return v[:i]
		}
	}
	return v
}

// arrayExpansion matches ${name[@]} or ${name[*]} and their operator forms,
// but not the length ${#name[@]}.
var arrayExpansion = lazyre.New(`\$\{[^#}][^}]*\[[@*]\]`)

// arrayProducer reports a printf or echo whose arguments expand an array.
func arrayProducer(cmd shlex.Command) (string, bool) {
	name, args := cmdName(cmd)
	if name != "printf" && name != "echo" {
		return "", false
	}
	for _, a := range args {
		if arrayExpansion.Get().MatchString(a.Raw) {
			return name, true
		}
	}
	return "", false
}

// valueExpansion matches a parameter expansion or a command substitution
// in a word ($x, ${x...}, $1, $@, $(...)), but not a length ${#x}: a value
// of any size.
var valueExpansion = lazyre.New(`\$(\{[^#]|[A-Za-z_0-9@*]|\()|` + "`")

// scalarProducer reports a printf or echo whose arguments expand a value
// that may be large: the same race as an array's, on one word.
func scalarProducer(cmd shlex.Command) (string, bool) {
	name, args := cmdName(cmd)
	if name != "printf" && name != "echo" {
		return "", false
	}
	for _, a := range args {
		if valueExpansion.Get().MatchString(a.Raw) {
			return name, true
		}
	}
	return "", false
}

// loopProducer reports the command a loop's done opens: done | reader.
func loopProducer(cmd shlex.Command) bool {
	words := cmd.Words()
	return len(words) > 0 && words[0].Kind == shlex.Word && !words[0].Quoted && words[0].Raw == "done"
}
