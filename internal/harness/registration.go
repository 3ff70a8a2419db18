package harness

import (
	"errors"
	"strings"

	"github.com/gate-sdk/gates/internal/shlex"
)

// Placeholder is the binary's spelling in a kit template, before an
// adopter's merge names the real path.
const Placeholder = "@GATE_SDK_NATIVE_BIN@"

// StubPlaceholder is the footing stub's spelling in a kit template; a
// merge writes Stub in its place.
const StubPlaceholder = "@GATE_SDK_STUB@"

// StubName is the stub's $0: `sh -c <Stub> gates-hook <binary> <operands>`.
const StubName = "gates-hook"

// Stub is the POSIX sh text every registration runs before the binary
// (`sh -c <Stub> gates-hook <binary> <operands>`): a binary that is gone,
// or whose sha256 differs from the one the placed-hooks record holds for
// pre-commit, is not run (the digest is skipped only when the binary's
// change time is no later than the second after the one the record holds
// for the placed pre-commit: a time in the record's text, which touching
// the record does not move); the stub names the one command that restores it
// and exits 2, which the harness reads as a block and shows the model (for
// --statusline it prints the same on stdout and exits 0). The binary's
// path may be written under a literal $CLAUDE_PROJECT_DIR/, which it reads
// against that variable whether or not the harness expanded it. A Bash
// call whose command holds the restore is let through, so the agent can
// run the one command it is told to; a binary that is a symbolic link, a
// directory or a file without the execute bit is removed first (the copy
// would write through the link, into the directory, or keep the mode),
// and a directory that is gone is made again. A session in a linked
// worktree, which holds no binary of its own (it is gitignored), runs the
// main worktree's, verified the same way. Where the hooks were placed
// but the record holds no pre-commit line (removed, emptied), the binary
// is digested against the placed pre-commit itself on every call. No
// single quote, so a shell-form line can carry it quoted.
//
// assertion K: a missing or replaced binary is a block naming its restore.
const Stub = `d=${CLAUDE_PROJECT_DIR:-.}; b=${1#\$CLAUDE_PROJECT_DIR/}; shift
case $b in /*) p=$b;; *) p=$d/$b;; esac
g=$(git -C "$d" rev-parse --git-common-dir 2>/dev/null) || g=.git
case $g in /*) G=$g;; *) G=$d/$g;; esac
w= s= c=
[ -f "$p" ] || case $b in /*) ;; *) case $G in */.git) [ -f "${G%/.git}/$b" ] && p=${G%/.git}/$b;; esac;; esac
[ -r "$G/gate-hooks.placed" ] && while read -r n h z m k x; do [ "$n" = pre-commit ] && s=$h c=$k; done <"$G/gate-hooks.placed"
R="the install record ($g/gate-hooks.placed)"; [ -z "$s" ] && [ -f "$G/gate-hooks/pre-commit" ] && { s=$( (sha256sum || shasum -a 256) <"$G/gate-hooks/pre-commit" 2>/dev/null); s=${s%% *}; s=${s:-x}; R="the placed copy ($g/gate-hooks/pre-commit), the install record being gone"; }
c=${c%?????????}; case $c in ""|*[!0-9]*) c=0;; esac
if [ ! -e "$p" ]; then w=missing
elif [ ! -f "$p" ] || [ ! -x "$p" ]; then w="not an executable file"
elif [ -n "$s" ] && [ -n "$(find "$p" -newerct "@$((c+1))" 2>/dev/null || echo x)" ]; then t=$( (sha256sum || shasum -a 256) <"$p" 2>/dev/null); t=${t%% *}
  [ -n "$t" ] || w=unverified
  [ -z "$t" ] || [ "$t" = "$s" ] || w="differs from $R"; fi
[ -z "$w" ] && exec "$p" "$@"
r="cp $g/gate-hooks/pre-commit $b"; case $b in */*) [ -d "${p%/*}" ] || r="mkdir -p ${b%/*}; $r";; esac
if [ -h "$p" ] || [ -d "$p" ] || { [ -e "$p" ] && [ ! -x "$p" ]; }; then r="rm -rf $b; $r"; fi; [ -f "$G/gate-hooks/pre-commit" ] || r="rebuild the binary at $b"
[ "$w" = unverified ] && r="put sha256sum or shasum on PATH, none is here to check it with"
[ "$1" = --statusline ] && { echo "gates: binary $w — $r"; exit 0; }
case $r in cp\ *|rm\ *|mkdir\ *) i=$(cat); case $i in *\"Bash\"*) case $i in *"$r"*) exit 0;; esac;; esac;; esac
echo "gates: not run, binary $b $w; restore it: $r (then retry)" >&2; exit 2
`

// FrontEnds are the front ends' file names.
var FrontEnds = []string{"run-gates.sh", "run-gates.ps1"}

// BinaryName is the binary's own name, without an executable suffix.
const BinaryName = "gates"

// Registration is one hook command of a harness settings file: the exec
// form carries its operands in Args; the shell form has Args nil and the
// whole line in Command.
type Registration struct {
	Command string
	Args    []string
}

// interpreters may stand before a front end in a shell-form registration
// (`bash gate-sdk/bin/run-gates.sh --hook …`); their options are skipped.
var interpreters = map[string]bool{
	"sh": true, "bash": true, "dash": true, "pwsh": true, "pwsh.exe": true,
	"powershell": true, "powershell.exe": true,
}

// MemberOf answers the --hook operand a registration dispatches. ok is
// false when the command is not this binary (under any of its three
// spellings) or does not call --hook; err is a shell-form line the lexer
// cannot read. Every reader of a registration calls this one parser.
func MemberOf(r Registration) (member string, ok bool, err error) {
	var toks []string
	if r.Args != nil {
		toks = append([]string{r.Command}, r.Args...)
	} else {
		toks, err = shellWords(r.Command)
		if err != nil {
			return "", false, err
		}
	}
	if len(toks) == 0 {
		return "", false, nil
	}
	if interpreters[baseName(toks[0])] {
		toks = toks[1:]
		if len(toks) >= 3 && toks[0] == "-c" {
			// sh -c <script> <$0> <binary> --hook <member>: the stub's form.
			toks = toks[3:]
		}
		for len(toks) > 0 && strings.HasPrefix(toks[0], "-") {
			toks = toks[1:]
		}
		if len(toks) == 0 {
			return "", false, nil
		}
	}
	if !isOurs(toks[0]) {
		return "", false, nil
	}
	if len(toks) < 3 || toks[1] != "--hook" {
		return "", false, nil
	}
	return toks[2], true, nil
}

// isOurs reports a command token spelling this binary: a front end, the
// binary's own name with or without .exe, or the template placeholder.
func isOurs(tok string) bool {
	if tok == Placeholder || strings.HasSuffix(tok, "/"+Placeholder) {
		return true
	}
	b := baseName(tok)
	for _, f := range FrontEnds {
		if b == f {
			return true
		}
	}
	return b == BinaryName || b == BinaryName+".exe"
}

// baseName is the last path element, under either separator.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// shellWords answers the first simple command's words of a shell line.
func shellWords(line string) ([]string, error) {
	toks, err := shlex.Lex(line)
	if err != nil {
		return nil, err
	}
	pipes := shlex.Split(toks)
	if len(pipes) == 0 || len(pipes[0].Commands) == 0 {
		return nil, nil
	}
	c := pipes[0].Commands[0]
	at := c.Name()
	if at < 0 {
		return nil, nil
	}
	var out []string
	for _, t := range c.Words()[at:] {
		if t.Kind != shlex.Word {
			return nil, errors.New("the registration's command is not a simple command")
		}
		out = append(out, t.Value)
	}
	return out, nil
}
