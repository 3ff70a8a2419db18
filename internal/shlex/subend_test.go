package shlex

import "testing"

// TestDollarSubEnd: a $( … ) substitution's End is just past its closing
// ')', so src[Pos:End] is its text as written, here-document and all.
func TestDollarSubEnd(t *testing.T) {
	for src, want := range map[string]string{
		`echo "$(date)" x`: `$(date)`,
		"git commit -m \"$(cat <<'EOF'\nfeat: x\nEOF\n)\"": "$(cat <<'EOF'\nfeat: x\nEOF\n)",
		"a $( ( b ) ) c":   "$( ( b ) )",
		"echo `echo $(x)`": "$(x)",
	} {
		toks, err := Lex(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		var got string
		Walk(toks, func(list []Token, _ *Sub) {
			for _, tk := range list {
				for _, s := range tk.Subs {
					if s.Kind == Dollar && got == "" {
						got = src[s.Pos.Offset:s.End.Offset]
					}
				}
			}
		})
		if got != want {
			t.Errorf("%q: sub text %q, want %q", src, got, want)
		}
	}
}
