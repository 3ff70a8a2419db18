package gates

// check-gate-output: a registered member no fixture case can reach (one
// carrying # no-fixture:) still speaks the output contract in its source:
// it emits a clean line and a help: line. Presence only — whether the line
// fires is a fixture's question, and these members have none.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/shlex"
)

// goClean and goHelp are the Go reporter API's two emitters: a report's
// Done prints the clean line, and NewReport's help map the help: lines.
var (
	goClean = lazyre.New(`\.(Done|Nothing|Disarmed)\(`)
	goHelp  = lazyre.New(`\.NewReport\(map\[string\]string\{`)
)

func checkGateOutput(c *gate.Context) int {
	if len(c.Args) > 1 {
		return c.Refuse("usage: check-gate-output [gates-dir]")
	}
	gatesDir := c.GatesDir
	if len(c.Args) == 1 {
		gatesDir = c.Args[0]
	}
	reg, err := registryAt(c, gatesDir)
	if err != nil {
		return c.RefuseErr(err)
	}
	src, module, err := nativeModule(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	r := c.NewReport(map[string]string{
		"A": `a shell gate prints its clean line (echo "<ID>: clean (<what was checked>)") and a help: line for each failure class; keep both in the script`,
		"B": "a compiled gate's module (the port's naming rule: <GATE_SDK_NATIVE_SRC>/gates/<name less check-, '-' as '_'>.go) ends its report with Done and builds it with NewReport(map[string]string{…}) holding each class's help",
	})
	held, paired, outOfReach := 0, 0, []string{}
	for _, m := range reg.Distinct() {
		if m.Kind == registry.Unresolved {
			continue
		}
		// assertion C: a member with no # graph: line is still judged.
		hdr, err := memberHeader(c, m)
		if err != nil {
			return c.Refuse("cannot read the header of %s: %v", m.Path, err)
		}
		if hdr == nil || hdr.NoFixture == nil {
			paired++ // its fixture pair proves its output when run
			continue
		}
		held++
		switch m.Kind {
		case registry.Shell:
			data, err := readFile(c, m.Path)
			if err != nil {
				return c.Refuse("cannot read %s: %v", m.Path, unwrapPath(err))
			}
			clean, help, err := shellEmits(m.Path, data)
			if err != nil {
				return c.RefuseErr(err)
			}
			// assertion A: a shell member emits a clean line and a help: line.
			for _, miss := range missing(clean, help, `a clean line (an echo or printf of "<ID>: clean (…)")`, "a help: line") {
				r.Add(gate.Finding{Class: "A", Path: m.Path, Msg: fmt.Sprintf("%s carries # no-fixture:, so its source is the only proof of its output, and nothing in it prints %s", m.Name, miss)})
			}
		case registry.Descriptor, registry.Ambiguous:
			if !module {
				outOfReach = append(outOfReach, m.Name)
				continue
			}
			file := moduleFile(src, m.Name)
			data, present, err := readOptional(c, file)
			if err != nil {
				return c.RefuseErr(err)
			}
			// assertion B: a compiled member's module exists and uses both emitters.
			if !present {
				r.Add(gate.Finding{Class: "B", Path: file, Msg: fmt.Sprintf("%s is a compiled member carrying # no-fixture:, and its module is not there (a half-landed port)", m.Name)})
				continue
			}
			code := stripGoComments(string(data))
			for _, miss := range missing(goClean.Get().MatchString(code), goHelp.Get().MatchString(code), "Report.Done (the clean line)", "NewReport with a help map (the help: lines)") {
				r.Add(gate.Finding{Class: "B", Path: file, Msg: fmt.Sprintf("%s carries # no-fixture:, so its module is the only proof of its output, and it never calls %s", m.Name, miss)})
			}
		}
	}
	note := ""
	if len(outOfReach) > 0 {
		note = fmt.Sprintf("; %s out of reach with no go.mod (%s)", plural(len(outOfReach), "compiled member", "compiled members"), strings.Join(outOfReach, " "))
	}
	done := r.Done
	if held == 0 {
		done = r.Nothing // every member is left to its fixture pair
	}
	return done(fmt.Sprintf("%s with # no-fixture: emit a clean line and a help: line; %d proved by their fixture pairs%s",
		plural(held, "member", "members"), paired, note))
}

func missing(clean, help bool, cleanWhat, helpWhat string) []string {
	var out []string
	if !clean {
		out = append(out, cleanWhat)
	}
	if !help {
		out = append(out, helpWhat)
	}
	return out
}

// shellEmits reports whether a script has an echo or printf whose words
// spell ": clean" and one whose words spell "help:", read through the
// lexer so a comment or an unrelated string is no emission.
func shellEmits(path string, data []byte) (clean, help bool, err error) {
	toks, err := lexShell(path, data)
	if err != nil {
		return false, false, err
	}
	forEachCommand(toks, func(cmd shlex.Command) {
		name, args := cmdName(cmd)
		if name != "echo" && name != "printf" {
			return
		}
		for _, a := range args {
			if strings.Contains(a.Value, ": clean") {
				clean = true
			}
			if strings.HasPrefix(strings.TrimLeft(a.Value, " "), "help:") {
				help = true
			}
		}
	})
	return clean, help, nil
}

// stripGoComments drops // line comments and /* */ blocks, so a commented
// call is no emission. String and rune contents are kept as they are.
func stripGoComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\'':
			// A rune literal: '"' or '\'' must not open a string.
			j := i + 1
			if j < len(s) && s[j] == '\\' {
				j++
			}
			if k := strings.IndexByte(s[min(j+1, len(s)):], '\''); k >= 0 && k < 10 {
				j = j + 1 + k
			}
			b.WriteString(s[i:min(j+1, len(s))])
			i = j
		case s[i] == '"' || s[i] == '`':
			q := s[i]
			j := i + 1
			for j < len(s) && s[j] != q {
				if q == '"' && s[j] == '\\' {
					j++
				}
				if q == '"' && j < len(s) && s[j] == '\n' {
					break
				}
				j++
			}
			if j >= len(s) {
				j = len(s) - 1
			}
			b.WriteString(s[i : j+1])
			i = j
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
