package shlex

// Command is the tokens of one command between control operators: its
// words, its redirection operators and their targets, in source order. A
// compound command is cut at its reserved words, so `done | head` reads as
// a command whose first word is `done` feeding head.
type Command struct {
	Tokens []Token
}

// Redirect is one redirection of a command.
type Redirect struct {
	Op     Token
	Target Token // the word after the operator
}

// Words answers the command's words, redirection targets left out.
func (c Command) Words() []Token {
	var out []Token
	for i := 0; i < len(c.Tokens); i++ {
		t := c.Tokens[i]
		if t.Kind == Redir {
			i++ // skip its target
			continue
		}
		if t.Kind == Word || t.Kind == Arith || t.Kind == Op {
			out = append(out, t)
		}
	}
	return out
}

// Redirects answers the command's redirections.
func (c Command) Redirects() []Redirect {
	var out []Redirect
	for i := 0; i < len(c.Tokens); i++ {
		if c.Tokens[i].Kind != Redir {
			continue
		}
		r := Redirect{Op: c.Tokens[i]}
		if i+1 < len(c.Tokens) && c.Tokens[i+1].Kind == Word {
			r.Target = c.Tokens[i+1]
			i++
		}
		out = append(out, r)
	}
	return out
}

// Name answers the index in Words() of the command's name: the first word
// that is neither a reserved-word prefix (if, then, do, while, !, {, …) nor
// an assignment. It answers -1 when there is none.
func (c Command) Name() int {
	for i, w := range c.Words() {
		// A quoted value still assigns (X="a b" cmd); a quoted reserved word
		// is a plain word.
		if w.Kind == Word && ((!w.Quoted && prefixWords[w.Raw]) || isAssignment(w.Raw)) {
			continue
		}
		return i
	}
	return -1
}

// Pipeline is commands joined by | or |&, ended by the list operator Sep
// (";", "&", "&&", "||", ";;", ";&", ";;&", "\n", "(", ")", or "" at the end
// of input or before a case pattern).
type Pipeline struct {
	Commands []Command
	Sep      string
}

// Split groups a token list into pipelines. Comments, here-document bodies
// and case patterns separate nothing and belong to no command; a line end
// after | |& && || continues the list, as bash reads it. A ")" that
// closes a subshell begins the command after it, so `( … ) | head` reads as
// a pipeline whose first command is ")". Nested lists (Token.Subs) are not
// entered: split them with their own call.
func Split(toks []Token) []Pipeline {
	var out []Pipeline
	var cur Pipeline
	var cmd Command
	flushCmd := func() {
		if len(cmd.Tokens) > 0 {
			cur.Commands = append(cur.Commands, cmd)
		}
		cmd = Command{}
	}
	flush := func(sep string) {
		flushCmd()
		if len(cur.Commands) > 0 {
			cur.Sep = sep
			out = append(out, cur)
		}
		cur = Pipeline{}
	}
	open := false // the last operator (| |& && ||) still wants its right side
	for _, t := range toks {
		switch t.Kind {
		case Comment, Heredoc:
			continue
		case Pattern:
			flush("")
		case Newline:
			if open {
				continue // a line end after | && || continues the list
			}
			flush("\n")
		case Op:
			switch t.Raw {
			case "|", "|&":
				flushCmd()
			case ")":
				flush(")")
				cmd.Tokens = append(cmd.Tokens, t)
			default:
				flush(t.Raw)
			}
		default:
			cmd.Tokens = append(cmd.Tokens, t)
		}
		open = t.Kind == Op && (t.Raw == "|" || t.Raw == "|&" || t.Raw == "&&" || t.Raw == "||")
	}
	flush("")
	return out
}

// Walk calls fn on toks and then, depth first, on every nested list (the
// Subs of each token and the Subs of array elements).
func Walk(toks []Token, fn func(list []Token, in *Sub)) {
	walk(toks, nil, fn)
}

func walk(toks []Token, in *Sub, fn func([]Token, *Sub)) {
	fn(toks, in)
	for i := range toks {
		for j := range toks[i].Subs {
			walk(toks[i].Subs[j].Tokens, &toks[i].Subs[j], fn)
		}
		for k := range toks[i].Elems {
			for j := range toks[i].Elems[k].Subs {
				walk(toks[i].Elems[k].Subs[j].Tokens, &toks[i].Elems[k].Subs[j], fn)
			}
		}
	}
}
