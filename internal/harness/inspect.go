package harness

import (
	"fmt"

	"github.com/gate-sdk/gates/internal/shlex"
)

// Inspect reads a shell command line the way commit-guard judges it: every
// simple command, at any depth of command substitution, subshell or
// `sh -c` string, is read for a hook bypass and an inline commit message.
// A command the lexer cannot read is an error; the member allows it.
func Inspect(command string) (Verdict, error) {
	var v Verdict
	err := v.read(command, 0)
	return v, err
}

func (v *Verdict) read(src string, depth int) error {
	if depth > maxNesting {
		return fmt.Errorf("shell strings nested deeper than %d levels", maxNesting)
	}
	toks, err := shlex.Lex(src)
	if err != nil {
		return err
	}
	var firstErr error
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		for _, p := range shlex.Split(list) {
			for _, c := range p.Commands {
				all := c.Words()
				for _, t := range all {
					if t.Kind == shlex.Word {
						v.environment(t.Value)
					}
				}
				at := c.Name()
				if at < 0 {
					continue
				}
				var ws []word
				for _, t := range all[at:] {
					if t.Kind != shlex.Word {
						continue
					}
					ws = append(ws, word{s: t.Value, dyn: t.Expands})
				}
				if len(ws) == 0 || ws[0].dyn {
					// A command named by an expansion cannot be judged.
					continue
				}
				if err := v.judge(ws, depth, v.read); err != nil && firstErr == nil {
					firstErr = err
				}
			}
		}
	})
	return firstErr
}
