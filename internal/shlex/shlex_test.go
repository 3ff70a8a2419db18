package shlex

import (
	"strings"
	"testing"
)

// render spells a token list compactly: kind letter, ':', Value; nested
// lists in [ ], array elements in { }. Newlines render as "NL".
func render(toks []Token) string {
	var parts []string
	for _, t := range toks {
		var s string
		switch t.Kind {
		case Word:
			s = "W:" + t.Value
		case Op:
			s = "O:" + t.Value
		case Redir:
			s = "R:" + t.Value
		case Newline:
			s = "NL"
		case Comment:
			s = "C:" + t.Value
		case Heredoc:
			s = "H:" + strings.ReplaceAll(t.Value, "\n", "\\n")
		case Pattern:
			s = "P:" + t.Value
		case Arith:
			s = "A:" + t.Value
		}
		for _, sub := range t.Subs {
			s += "[" + render(sub.Tokens) + "]"
		}
		if t.Elems != nil {
			s += "{" + render(t.Elems) + "}"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

var table = []struct {
	name, src, want string
}{
	{"simple", "echo hi there", "W:echo W:hi W:there"},
	{"blanks-tabs", " \techo\t a ", "W:echo W:a"},
	{"pipe", "a | b", "W:a O:| W:b"},
	{"pipe-amp", "a |& b", "W:a O:|& W:b"},
	{"or-and", "a || b && c", "W:a O:|| W:b O:&& W:c"},
	{"semicolon", "a; b", "W:a O:; W:b"},
	{"background", "a & b", "W:a O:& W:b"},
	{"no-space-ops", "a|b&&c;d", "W:a O:| W:b O:&& W:c O:; W:d"},
	{"single-quote", "echo 'a | b'", "W:echo W:a | b"},
	{"double-quote", `echo "a | b"`, "W:echo W:a | b"},
	{"dq-escapes", `echo "a\"b\$c\\d\e"`, `W:echo W:a"b$c\d\e`},
	{"dq-expansion-kept", `echo "$x and ${y}"`, "W:echo W:$x and ${y}"},
	{"backslash-unquoted", `echo a\ b \|`, "W:echo W:a b W:|"},
	{"adjacent-quotes", `echo 'a'"b"c`, "W:echo W:abc"},
	{"ansi-c", `echo $'a\tb\x41\n'`, "W:echo W:a\tbA\n"},
	{"locale-quote", `echo $"hi there"`, "W:echo W:hi there"},
	{"comment", "echo a # a comment | x", "W:echo W:a C:# a comment | x"},
	{"hash-in-word", "echo a#b", "W:echo W:a#b"},
	{"comment-line", "# only\necho", "C:# only NL W:echo"},
	{"continuation", "echo a \\\n  b", "W:echo W:a W:b"},
	{"continuation-in-word", "ec\\\nho", "W:echo"},
	{"continuation-dq", "echo \"a\\\nb\"", "W:echo W:ab"},
	{"newline", "a\nb", "W:a NL W:b"},
	{"dollar-sub", "x=$(awk '{print}' f)", "W:x=$(awk '{print}' f)[W:awk W:{print} W:f]"},
	{"dollar-sub-pipe", "x=$(a | b)", "W:x=$(a | b)[W:a O:| W:b]"},
	{"nested-sub", "echo $(a $(b c))", "W:echo W:$(a $(b c))[W:a W:$(b c)[W:b W:c]]"},
	{"sub-in-dq", `echo "$(a "b c")"`, `W:echo W:$(a "b c")[W:a W:b c]`},
	{"backtick", "echo `a b`", "W:echo W:`a b`[W:a W:b]"},
	{"backtick-nested", "echo `a \\`b\\``", "W:echo W:`a \\`b\\``[W:a W:`b`[W:b]]"},
	{"arith-expansion", "echo $((1 + (2 * 3)))", "W:echo W:$((1 + (2 * 3)))"},
	{"arith-command", "((i++)); echo", "A:i++ O:; W:echo"},
	{"arith-with-sub", "echo $(( $(date +%s) - \"$t\" ))", "W:echo W:$(( $(date +%s) - \"$t\" ))[W:date W:+%s]"},
	{"arith-nested", "(( a = $((b + 1)) * 2 ))", "A: a = $((b + 1)) * 2 "},
	{"param-brace", `echo ${x:-"a b"} ${y#*/}`, `W:echo W:${x:-"a b"} W:${y#*/}`},
	{"param-with-sub", "echo ${x:-$(d)}", "W:echo W:${x:-$(d)}[W:d]"},
	{"redir-out", "a > f", "W:a R:> W:f"},
	{"redir-fd", "a 2>/dev/null 1>&2", "W:a R:2> W:/dev/null R:1>& W:2"},
	{"redir-both", "a &> f &>> g", "W:a R:&> W:f R:&>> W:g"},
	{"redir-append-in", "a >> f < g <> h >| i", "W:a R:>> W:f R:< W:g R:<> W:h R:>| W:i"},
	{"redir-fdvar", "exec {fd}<f", "W:exec R:{fd}< W:f"},
	{"herestring", "grep x <<< \"$s\"", "W:grep W:x R:<<< W:$s"},
	{"heredoc", "cat <<EOF\nhi $x\nEOF\necho", "W:cat R:<< W:EOF NL H:hi $x\\n W:echo"},
	{"heredoc-quoted", "cat <<'EOF' | grep a\n$(nope)\nEOF\n", "W:cat R:<< W:EOF O:| W:grep W:a NL H:$(nope)\\n"},
	{"heredoc-strip", "cat <<-EOF\n\tin\n\tEOF\n", "W:cat R:<<- W:EOF NL H:in\\n"},
	{"heredoc-sub", "cat <<EOF\n$(date)\nEOF\n", "W:cat R:<< W:EOF NL H:$(date)\\n[W:date]"},
	{"heredoc-two", "a <<A; b <<B\n1\nA\n2\nB\n", "W:a R:<< W:A O:; W:b R:<< W:B NL H:1\\n H:2\\n"},
	{"heredoc-in-sub", "x=$(cat <<E\nv\nE\n)", "W:x=$(cat <<E\nv\nE\n)[W:cat R:<< W:E NL H:v\\n]"},
	{"subshell", "(a; b) | c", "O:( W:a O:; W:b O:) O:| W:c"},
	{"group", "{ a; b; } | c", "W:{ W:a O:; W:b O:; W:} O:| W:c"},
	{"proc-sub", "diff <(a) >(b)", "W:diff W:<(a)[W:a] W:>(b)[W:b]"},
	{"array-assign", "a=(x \"y z\" $(w))", "W:a=(x \"y z\" $(w)){W:x W:y z W:$(w)[W:w]}"},
	{"array-multiline", "a=(\n  x # c\n  y\n)", "W:a=(\n  x # c\n  y\n){W:x C:# c W:y}"},
	{"case", "case $x in a|b) echo;; *) y;; esac", "W:case W:$x W:in P:a P:| P:b P:) W:echo O:;; P:* P:) W:y O:;; W:esac"},
	{"case-paren", "case x in (a) b ;; esac", "W:case W:x W:in P:( P:a P:) W:b O:;; W:esac"},
	{"case-in-sub", "v=$(case x in a) echo;; esac)", "W:v=$(case x in a) echo;; esac)[W:case W:x W:in P:a P:) W:echo O:;; W:esac]"},
	{"case-multiline", "case $1 in\n  -h) u ;;\nesac", "W:case W:$1 W:in NL P:-h P:) W:u O:;; NL W:esac"},
	{"test-brackets", "[[ $a == /* && -n $b ]] && x", "W:[[ W:$a W:== W:/* W:&& W:-n W:$b W:]] O:&& W:x"},
	{"test-regex", "[[ $a =~ ^(x|y)$ ]]", "W:[[ W:$a W:=~ W:^(x|y)$ W:]]"},
	{"test-lt", "[[ a < b ]]", "W:[[ W:a W:< W:b W:]]"},
	{"for-loop", "for e in \"${a[@]}\"; do echo \"$e\"; done | head -n1", "W:for W:e W:in W:${a[@]} O:; W:do W:echo W:$e O:; W:done O:| W:head W:-n1"},
	{"extglob", "ls @(a|b).sh", "W:ls W:@(a|b).sh"},
	{"assignment-prefix", "LC_ALL=C sort", "W:LC_ALL=C W:sort"},
	{"function", "f() { a; }", "W:f O:( O:) W:{ W:a O:; W:}"},
	{"bang", "! grep -q x f", "W:! W:grep W:-q W:x W:f"},
	{"dollar-special", "echo $? $@ $1 $$", "W:echo W:$? W:$@ W:$1 W:$$"},
	{"trailing-backslash", "echo a\\", "W:echo W:a\\"},
	{"esac-word-arg", "case x in a) echo esac;; esac", "W:case W:x W:in P:a P:) W:echo W:esac O:;; W:esac"},
	{"empty", "", ""},
}

func TestTable(t *testing.T) {
	if len(table) < 40 {
		t.Fatalf("table has %d constructs, want at least 40", len(table))
	}
	for _, tc := range table {
		t.Run(tc.name, func(t *testing.T) {
			toks, err := Lex(tc.src)
			if err != nil {
				t.Fatalf("Lex(%q): %v", tc.src, err)
			}
			if got := render(toks); got != tc.want {
				t.Errorf("Lex(%q)\n got: %s\nwant: %s", tc.src, got, tc.want)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"echo 'open", "1:6: unterminated single quote"},
		{"echo \"open", "1:6: unterminated double quote"},
		{"echo $(open", "unterminated $( … )"},
		{"echo `open", "1:6: unterminated backtick"},
		{"echo ${open", "1:6: unterminated ${ … }"},
		{"cat <<EOF\nno end\n", "1:7: here-document delimited by \"EOF\" is not closed"},
		{"cat <<EOF", "here-document delimited by \"EOF\" has no body"},
		{"cat <<", "here-document operator has no delimiter word"},
		{"a )", "1:3: unmatched ')'"},
		{"a ;; b", "\";;\" outside a case arm"},
		{"case x in a) b", "unterminated case"},
		{"case x a) b;; esac", "case subject is not followed by 'in'"},
		{"echo $(( '1' ))", "single quote inside arithmetic"},
		{"((a) )", "ambiguous"},
		{"[[ a", "unterminated [[ … ]]"},
		{"[[ a ; ]]", "unexpected ';' inside [[ … ]]"},
		{"[[ a & ]]", "unexpected '&' inside [[ … ]]"},
		{"a=(x", "unterminated array assignment"},
		{"echo $(case x in a) b )", "inside an unfinished case"},
		{"echo $(case x in a) b;; )", "unterminated $( … )"},
	} {
		_, err := Lex(tc.src)
		if err == nil {
			t.Errorf("Lex(%q) accepted; want refusal %q", tc.src, tc.want)
			continue
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("Lex(%q) error is %T, want *Error", tc.src, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Lex(%q) = %v; want it to contain %q", tc.src, err, tc.want)
		}
	}
}

func TestPositions(t *testing.T) {
	src := "a \\\n  b | c\n# x\nd $(e f)\n"
	toks, err := Lex(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		raw       string
		line, col int
	}{{"a", 1, 1}, {"b", 2, 3}, {"|", 2, 5}, {"c", 2, 7}, {"\n", 2, 8}, {"# x", 3, 1}, {"\n", 3, 4}, {"d", 4, 1}, {"$(e f)", 4, 3}, {"\n", 4, 9}}
	if len(toks) != len(want) {
		t.Fatalf("got %d tokens (%s), want %d", len(toks), render(toks), len(want))
	}
	for i, w := range want {
		if toks[i].Raw != w.raw || toks[i].Pos.Line != w.line || toks[i].Pos.Col != w.col {
			t.Errorf("token %d = %q at %v, want %q at %d:%d", i, toks[i].Raw, toks[i].Pos, w.raw, w.line, w.col)
		}
		if src[toks[i].Pos.Offset:toks[i].End.Offset] != toks[i].Raw {
			t.Errorf("token %d: offsets %d..%d do not span its Raw %q", i, toks[i].Pos.Offset, toks[i].End.Offset, toks[i].Raw)
		}
	}
	sub := toks[8].Subs[0].Tokens
	if sub[0].Raw != "e" || sub[0].Pos.Line != 4 || sub[0].Pos.Col != 5 {
		t.Errorf("nested token e at %v, want 4:5", sub[0].Pos)
	}
	bt, err := Lex("x `y z`")
	if err != nil {
		t.Fatal(err)
	}
	if z := bt[1].Subs[0].Tokens[1]; z.Raw != "z" || z.Pos.Col != 6 {
		t.Errorf("backtick inner z at %v, want 1:6", z.Pos)
	}
}

func TestFlags(t *testing.T) {
	toks, err := Lex(`a 'b' "$c" d$e`)
	if err != nil {
		t.Fatal(err)
	}
	type f struct{ quoted, expands bool }
	want := []f{{false, false}, {true, false}, {true, true}, {false, true}}
	for i, w := range want {
		if toks[i].Quoted != w.quoted || toks[i].Expands != w.expands {
			t.Errorf("%q: quoted=%v expands=%v, want %v %v", toks[i].Raw, toks[i].Quoted, toks[i].Expands, w.quoted, w.expands)
		}
	}
	hd, err := Lex("cat <<'E'\nx\nE\n")
	if err != nil {
		t.Fatal(err)
	}
	if !hd[len(hd)-1].QuotedDelim {
		t.Errorf("quoted delimiter not flagged on the body")
	}
	rd, _ := Lex("a 2>f")
	if rd[1].Fd != "2" {
		t.Errorf("fd prefix = %q, want 2", rd[1].Fd)
	}
}

func TestSplit(t *testing.T) {
	toks, err := Lex("set -euo pipefail\nfor e in a; do echo; done | head -n1 # c\nx=1 grep -q y f 2>/dev/null && (a | b) | c\ncase z in p|q) r | s;; esac")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range Split(toks) {
		var cmds []string
		for _, c := range p.Commands {
			var ws []string
			for _, w := range c.Words() {
				ws = append(ws, w.Value)
			}
			cmds = append(cmds, strings.Join(ws, " "))
		}
		got = append(got, strings.Join(cmds, " | ")+" <"+strings.ReplaceAll(p.Sep, "\n", "NL")+">")
	}
	want := []string{
		"set -euo pipefail <NL>",
		"for e in a <;>",
		"do echo <;>",
		"done | head -n1 <NL>",
		"x=1 grep -q y f <&&>",
		"a | b <)>",
		") | c <NL>",
		"case z in <>",
		"r | s <;;>",
		"esac <>",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Split:\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	cont, _ := Lex("a |\n  # note\n  b &&\n c")
	if ps := Split(cont); len(ps) != 2 || len(ps[0].Commands) != 2 || ps[0].Sep != "&&" {
		t.Errorf("a line end after | or && split the list: %+v", ps)
	}
	ps := Split(toks)
	grep := ps[4].Commands[0]
	if n := grep.Name(); n < 0 || grep.Words()[n].Value != "grep" {
		t.Errorf("Name() of %q = %d", "x=1 grep", n)
	}
	q, _ := Lex(`X="a b" Y='c' run "if"`)
	qc := Split(q)[0].Commands[0]
	if n := qc.Name(); n != 2 || qc.Words()[n].Value != "run" {
		t.Errorf("Name() over quoted assignments = %d, want 2 (run)", n)
	}
	if qw, _ := Lex(`"if" x`); Split(qw)[0].Commands[0].Name() != 0 {
		t.Errorf("a quoted reserved word is the command name")
	}
	rs := grep.Redirects()
	if len(rs) != 1 || rs[0].Op.Value != "2>" || rs[0].Target.Value != "/dev/null" {
		t.Errorf("Redirects() = %+v", rs)
	}
}

func TestWalk(t *testing.T) {
	toks, err := Lex("a=$(b `c`) x=(\"$(d)\")")
	if err != nil {
		t.Fatal(err)
	}
	var firsts []string
	Walk(toks, func(list []Token, in *Sub) {
		firsts = append(firsts, list[0].Raw)
	})
	if got := strings.Join(firsts, ","); got != "a=$(b `c`),b,c,d" {
		t.Errorf("Walk visited %s", got)
	}
}
