package shlex

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// FuzzLex holds the lexer's invariants over arbitrary input: it never
// panics; it either refuses with a positioned *Error inside the input or
// answers tokens that lie in source order, each spanning exactly its Raw
// text, with line and column agreeing with the offset; and Split and Walk
// accept whatever Lex answers.
func FuzzLex(f *testing.F) {
	for _, tc := range table {
		f.Add(tc.src)
	}
	f.Add("set -euo pipefail\nprintf '%s\\n' \"${a[@]}\" | grep -qxF \"$x\"\n")
	f.Add("x=$(awk -F: '{print $1}' /etc/passwd) || { echo bad; exit 2; }\n")
	f.Add("cat <<EOF\n$(a `b`)\nEOF\n")
	f.Fuzz(func(t *testing.T, src string) {
		toks, err := Lex(src)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %T is not *Error: %v", err, err)
			}
			if e.Pos.Offset < 0 || e.Pos.Offset > len(src) {
				t.Fatalf("refusal offset %d outside input of %d bytes", e.Pos.Offset, len(src))
			}
			checkPos(t, src, e.Pos)
			return
		}
		prev := 0
		for _, tok := range toks {
			if tok.Pos.Offset < prev || tok.End.Offset < tok.Pos.Offset || tok.End.Offset > len(src) {
				t.Fatalf("token %q at %d..%d out of order (previous end %d)", tok.Raw, tok.Pos.Offset, tok.End.Offset, prev)
			}
			if src[tok.Pos.Offset:tok.End.Offset] != tok.Raw {
				t.Fatalf("token Raw %q differs from its source span %q", tok.Raw, src[tok.Pos.Offset:tok.End.Offset])
			}
			checkPos(t, src, tok.Pos)
			if tok.Kind == Word && !tok.Quoted && !tok.Expands && tok.Elems == nil &&
				tok.Value != strings.ReplaceAll(tok.Raw, "\\\n", "") && !strings.Contains(tok.Raw, "\\") {
				t.Fatalf("plain word Raw %q has Value %q", tok.Raw, tok.Value)
			}
			prev = tok.End.Offset
		}
		Split(toks)
		Walk(toks, func(list []Token, in *Sub) {
			for _, tok := range list {
				if tok.Pos.Offset < 0 || tok.Pos.Offset > len(src) {
					t.Fatalf("nested token %q offset %d outside the input", tok.Raw, tok.Pos.Offset)
				}
			}
		})
	})
}

func checkPos(t *testing.T, src string, p Pos) {
	t.Helper()
	line := strings.Count(src[:p.Offset], "\n") + 1
	col := p.Offset - (strings.LastIndexByte(src[:p.Offset], '\n') + 1) + 1
	if p.Line != line || p.Col != col {
		t.Fatalf("offset %d reported at %d:%d, want %d:%d", p.Offset, p.Line, p.Col, line, col)
	}
}

// TestLongFuzz runs FuzzLex for 60 seconds. It is not part of CI: set
// GATES_LONG_FUZZ=1 to run it.
func TestLongFuzz(t *testing.T) {
	if os.Getenv("GATES_LONG_FUZZ") != "1" {
		t.Skip("set GATES_LONG_FUZZ=1 to fuzz the lexer for 60 s")
	}
	cmd := exec.Command("go", "test", "-run=^$", "-fuzz=^FuzzLex$", "-fuzztime=60s", "-parallel=1", ".")
	cmd.Env = append(os.Environ(), "GATES_LONG_FUZZ=0")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("fuzzing failed: %v", err)
	}
}
