package harness

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gate-sdk/gates/internal/shlex"
	"github.com/gate-sdk/gates/internal/walk"
)

// Inspect reads a shell command line the way commit-guard judges it: every
// simple command, at any depth of command substitution, subshell, brace
// group, function body or `sh -c` string, is read for a hook bypass and
// for the commit message it would record. A command the lexer cannot read
// is an error; the member allows it.
func Inspect(command string) (Verdict, error) {
	return InspectAt(command, func(string) bool { return false })
}

// InspectAt is Inspect where a git aimed at a directory the line names
// (`git -C <dir>`, or after `cd <dir>`) counts only when elsewhere(dir)
// is false: a commit in another repository is that repository's business.
func InspectAt(command string, elsewhere func(dir string) bool) (Verdict, error) {
	var v Verdict
	err := v.read(command, 0)
	return v.Here(elsewhere), err
}

func (v *Verdict) read(src string, depth int) error {
	if depth > maxNesting {
		return fmt.Errorf("shell strings nested deeper than %d levels", maxNesting)
	}
	toks, err := shlex.Lex(src)
	if err != nil {
		return err
	}
	writes := writtenPaths(toks)
	vars := map[string]string{} // NAME=value assignments standing alone on the line
	afterCd := false
	cdDir, cdKnown := "", true
	fresh := false    // a `git init` made a repository where the line stands
	var made []string // directories under the line's place a `git init` made
	var firstErr error
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		docs := heredocs(list)
		nextDoc := 0
		for _, p := range shlex.Split(list) {
			for _, c := range p.Commands {
				all := c.Words()
				for _, t := range all {
					if t.Kind == shlex.Word {
						v.environment(t.Value)
					}
				}
				sc := simple{writes: writes, afterCd: afterCd, cdDir: cdDir, cdKnown: cdKnown, fresh: fresh, made: made}
				for _, r := range c.Redirects() {
					if r.Op.Fd != "" && r.Op.Fd != "0" {
						if r.Op.Value[len(r.Op.Fd):] == "<<" || r.Op.Value[len(r.Op.Fd):] == "<<-" {
							nextDoc++
						}
						continue
					}
					switch strings.TrimPrefix(r.Op.Value, r.Op.Fd) {
					case "<<", "<<-":
						sc.stdin, sc.stdinKnown = "", false
						if nextDoc < len(docs) {
							sc.stdin, sc.stdinKnown = heredocText(docs[nextDoc])
						}
						nextDoc++
					case "<<<":
						s, ok := staticWord(r.Target, src, vars)
						sc.stdin, sc.stdinKnown = s+"\n", ok
					case "<", "<>":
						sc.stdin, sc.stdinKnown = "", false
					}
				}
				for _, t := range all {
					if t.Kind != shlex.Word {
						if t.Kind == shlex.Op {
							sc.ws = append(sc.ws, word{s: t.Value})
						}
						continue
					}
					s, ok := staticWord(t, src, vars)
					sc.ws = append(sc.ws, word{s: s, dyn: !ok})
				}
				if name, val, ok := loneAssignment(sc.ws); ok {
					vars[name] = val
					continue
				}
				if len(sc.ws) == 1 && isAssignment(sc.ws[0].s) {
					name, _, _ := strings.Cut(sc.ws[0].s, "=")
					delete(vars, name) // assigned a value known only when it runs
					continue
				}
				if len(sc.ws) == 0 {
					continue
				}
				if err := v.judge(sc, depth, v.read); err != nil && firstErr == nil {
					firstErr = err
				}
				if ws := unwrapWords(sc.ws); afterCd && !cdKnown && initsHere(ws) {
					fresh = true
				}
				if d := initDir(unwrapWords(sc.ws)); d != "" && (!afterCd || cdKnown) {
					// assertion Y: a repository the line made below where it
					// stands; a git aimed into it is its business.
					made = append(made, joinDir(cdDir, d))
				}
				if ws := unwrapWords(sc.ws); len(ws) > 0 && (ws[0].s == "cd" || ws[0].s == "pushd" || ws[0].s == "popd") {
					afterCd = true
					fresh = false
					// Only `cd <dir>` to a directory the line spells is
					// followed; anything else leaves git's place unknown.
					if ws[0].s == "cd" && len(ws) == 2 && !ws[1].dyn && ws[1].s != "-" && ws[1].s != "" && !strings.HasPrefix(ws[1].s, "-") {
						cdDir = joinDir(cdDir, ws[1].s)
					} else {
						cdKnown = false
					}
				}
			}
		}
	})
	return firstErr
}

// initsHere reports a `git init` that makes (or re-reads) the repository
// in the directory it stands in: no directory operand, or ".".
func initsHere(ws []word) bool {
	if len(ws) < 2 || ws[0].dyn || ws[1].dyn || (filepath.Base(ws[0].s) != "git" && filepath.Base(ws[0].s) != "git.exe") || ws[1].s != "init" {
		return false
	}
	for i := 2; i < len(ws); i++ {
		a := ws[i].s
		switch {
		case ws[i].dyn:
			return false
		case a == "-b" || a == "--initial-branch" || a == "--template" || a == "--separate-git-dir" || a == "--object-format" || a == "--ref-format":
			i++
		case strings.HasPrefix(a, "-"):
		case a == ".":
		default:
			return false // a directory named: the repository is made there
		}
	}
	return true
}

// initDir answers the directory a `git init` names, when it is a relative
// one below where the line stands ("" otherwise: none named, ".", a path
// that climbs out or starts at the root, which the repository check
// answers as before).
func initDir(ws []word) string {
	if len(ws) < 2 || ws[0].dyn || ws[1].dyn || (filepath.Base(ws[0].s) != "git" && filepath.Base(ws[0].s) != "git.exe") || ws[1].s != "init" {
		return ""
	}
	dir := ""
	for i := 2; i < len(ws); i++ {
		a := ws[i].s
		switch {
		case ws[i].dyn:
			return ""
		case a == "-b" || a == "--initial-branch" || a == "--template" || a == "--separate-git-dir" || a == "--object-format" || a == "--ref-format":
			i++
		case strings.HasPrefix(a, "-"):
		case dir != "":
			return ""
		default:
			dir = a
		}
	}
	clean := filepath.ToSlash(filepath.Clean(dir))
	if dir == "" || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || walk.PathRoot(dir) {
		return ""
	}
	return clean
}

// loneAssignment answers a command that is one static NAME=value and
// nothing else, which sets a shell variable a later `$NAME` reads.
func loneAssignment(ws []word) (name, val string, ok bool) {
	if len(ws) != 1 || ws[0].dyn || !isAssignment(ws[0].s) {
		return "", "", false
	}
	name, val, _ = strings.Cut(ws[0].s, "=")
	return name, val, true
}

// heredocs answers the here-document bodies of a token list, in the order
// of the operators that opened them.
func heredocs(list []shlex.Token) []shlex.Token {
	var out []shlex.Token
	for _, t := range list {
		if t.Kind == shlex.Heredoc {
			out = append(out, t)
		}
	}
	return out
}

// heredocText answers what a here-document hands its command, when the
// guard can know it: a quoted delimiter's body as written, or an unquoted
// one holding no expansion, with the backslash escapes such a body keeps
// (`\\` and a line continuation).
func heredocText(doc shlex.Token) (string, bool) {
	if doc.QuotedDelim {
		return doc.Value, true
	}
	if doc.Expands {
		return "", false
	}
	if !strings.Contains(doc.Value, `\`) {
		return doc.Value, true
	}
	var b strings.Builder
	for i := 0; i < len(doc.Value); i++ {
		c := doc.Value[i]
		if c == '\\' && i+1 < len(doc.Value) {
			switch doc.Value[i+1] {
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// staticWord answers a word's value when it is known before the shell
// runs: a word with no expansion; `$NAME` or `${NAME}` naming a variable
// the line assigned a static value; or a word whose only expansions are
// quoted `$(cat <<'EOF' … EOF)` substitutions, each standing for its
// here-document's text less its trailing line ends.
func staticWord(t shlex.Token, src string, vars map[string]string) (string, bool) {
	if !t.Expands {
		return t.Value, true
	}
	if name, ok := paramName(t.Value); ok {
		if val, ok := vars[name]; ok {
			return val, true
		}
		return t.Value, false
	}
	if len(t.Subs) == 0 {
		return t.Value, false
	}
	var b, outside strings.Builder
	rest := t.Value
	for _, sub := range t.Subs {
		if sub.Kind != shlex.Dollar || !sub.Quoted || sub.End.Offset <= sub.Pos.Offset || sub.End.Offset > len(src) {
			return t.Value, false
		}
		raw := src[sub.Pos.Offset:sub.End.Offset]
		at := strings.Index(rest, raw)
		if at < 0 {
			return t.Value, false
		}
		out, ok := catHeredoc(sub.Tokens)
		if !ok {
			return t.Value, false
		}
		b.WriteString(rest[:at])
		outside.WriteString(rest[:at])
		b.WriteString(strings.TrimRight(out, "\n"))
		rest = rest[at+len(raw):]
	}
	b.WriteString(rest)
	outside.WriteString(rest)
	// What lies outside the substitutions must hold no expansion of its own.
	if strings.ContainsAny(outside.String(), "$`") {
		return t.Value, false
	}
	return b.String(), true
}

// paramName answers NAME for a word that is exactly $NAME or ${NAME}.
func paramName(v string) (string, bool) {
	var name string
	switch {
	case strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}"):
		name = v[2 : len(v)-1]
	case strings.HasPrefix(v, "$"):
		name = v[1:]
	default:
		return "", false
	}
	if name == "" {
		return "", false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return "", false
		}
	}
	return name, true
}

// catHeredoc answers the output of a substitution's list when it is
// exactly `cat` reading one here-document the guard can know.
func catHeredoc(list []shlex.Token) (string, bool) {
	var words []shlex.Token
	var doc *shlex.Token
	redirs := 0
	for i := 0; i < len(list); i++ {
		t := list[i]
		switch t.Kind {
		case shlex.Newline, shlex.Comment:
		case shlex.Word:
			words = append(words, t)
		case shlex.Redir:
			if t.Value != "<<" && t.Value != "<<-" && t.Value != "0<<" && t.Value != "0<<-" {
				return "", false
			}
			redirs++
			i++ // the delimiter word
		case shlex.Heredoc:
			if doc != nil {
				return "", false
			}
			doc = &list[i]
		default:
			return "", false
		}
	}
	if doc == nil || redirs != 1 || len(words) != 1 || words[0].Expands || words[0].Value != "cat" {
		return "", false
	}
	return heredocText(*doc)
}

// writtenPaths answers every path the line's output redirections name, at
// any depth: a `-F` file among them is written by the command itself and
// cannot be judged before it runs.
func writtenPaths(toks []shlex.Token) map[string]bool {
	out := map[string]bool{}
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		for i, t := range list {
			if t.Kind != shlex.Redir || i+1 >= len(list) {
				continue
			}
			op := strings.TrimPrefix(t.Value, t.Fd)
			if strings.Contains(op, ">") {
				out[list[i+1].Value] = true
			}
		}
	})
	return out
}
