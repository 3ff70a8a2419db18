package gates

// check-assertion-strength: an assertion is at least as strong as its own
// failure message. A smoke or unit-test guard that only tells zero from
// non-zero must not carry a message naming a verdict the callee binds to
// one particular non-zero code: the guard would pass the callee's other
// failures too, and the message would lie about what was checked.

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/shlex"
)

const strengthValve = "assertion-strength-exempt"

var (
	exitHeader  = lazyre.New(`^#[ \t]*exit:(.*)$`)
	verdictWord = lazyre.New(`^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$`)
	kitBinRef   = lazyre.New(`(?:^|/)bin/([A-Za-z0-9._-]+\.sh)$`)
	intWord     = lazyre.New(`^[0-9]+$`)
)

func checkAssertionStrength(c *gate.Context) int {
	wv, err := c.Knobs.Scalar("GATE_SDK_ASSERTION_STRENGTH_WINDOW")
	if err != nil {
		return c.RefuseErr(err)
	}
	window := 8
	if wv != "" {
		if window, err = strconv.Atoi(wv); err != nil || window < 1 {
			return c.Refuse("GATE_SDK_ASSERTION_STRENGTH_WINDOW is %q, not a count of lines", wv)
		}
	}
	// Each scanned dir with the kit root its own-kit bin/ calls resolve
	// in: a named dir's parent, and a kit fixture tree's own kit, which a
	// relocated tree (GATE_SDK_KIT_TESTS_DIR) is not the child of.
	dirs := c.Args
	owner := map[string]string{}
	if len(dirs) == 0 {
		trees, err := kitTestsDirs(c)
		if err != nil {
			return c.RefuseErr(err)
		}
		dirs = kitSubdirs(c, "smoke")
		for i, d := range trees {
			if st, err := os.Stat(runPath(c, d)); err == nil && st.IsDir() {
				dirs = append(dirs, d)
				owner[d] = strings.TrimRight(c.KitRoots[i], "/")
			}
		}
	}
	if len(dirs) == 0 {
		return c.Refuse("no kit root holds smoke/ or gate-tests/, and no dir was named: nothing to read")
	}
	r := c.NewReport(map[string]string{
		"A": `compare the status the message names: "$KIT/bin/tool.sh" …; rc=$?; [ "$rc" -eq 1 ] || fail "did not PAUSE" — or say why truthiness is enough in # assertion-strength-exempt: <reason>`,
		"B": "write why the truthiness guard is enough after the colon; an empty # assertion-strength-exempt: declares nothing",
	})
	scripts, guards, exempt := 0, 0, 0
	contracts := map[string]map[string]int{} // callee path -> discriminable token -> code
	for _, d := range dirs {
		files, err := dirFiles(c, d, ".sh")
		if err != nil {
			return c.RefuseErr(err)
		}
		kitRoot, _ := splitDir(strings.TrimRight(d, "/"))
		if o, ok := owner[d]; ok {
			kitRoot = o
		}
		for _, path := range files {
			scripts++
			data, toks, err := readLexed(c, path)
			if err != nil {
				return c.RefuseErr(err)
			}
			lines := strings.Split(string(data), "\n")
			calls, err := reachCalls(c, toks, kitRoot, contracts)
			if err != nil {
				return c.RefuseErr(err)
			}
			var found []gate.Finding
			for i, call := range calls {
				if !call.truthy {
					continue
				}
				guards++
				end := call.line + window
				// The window stops before the next in-reach call and the
				// comment block that is that call's own.
				if i+1 < len(calls) && calls[i+1].line <= end {
					end = calls[i+1].line - 1 - len(precedingComments(lines, calls[i+1].line))
				}
				if end < call.line {
					end = call.line
				}
				if end > len(lines) {
					end = len(lines)
				}
				body := lines[call.line-1 : end]
				v, why := valveIn(append(precedingComments(lines, call.line), commentLines(body)...), strengthValve)
				if v && why != "" {
					exempt++
					continue
				}
				text := codeText(body)
				for _, tok := range sortedKeys(call.contract) {
					code := call.contract[tok]
					if !wordIn(text, tok) || comparesCode(text, code) {
						continue
					}
					if v {
						// assertion B: an empty reason exempts nothing.
						found = append(found, gate.Finding{Class: "B", Path: path, Line: call.line,
							Msg: fmt.Sprintf("# %s: on this guard gives no reason, so it exempts nothing", strengthValve)})
						break
					}
					// assertion A: a truthiness guard's message names a one-code verdict.
					found = append(found, gate.Finding{Class: "A", Path: path, Line: call.line,
						Msg: fmt.Sprintf("the guard on %s tests truthiness only, yet its failure text names %s, which %s binds to exit %d alone: any other failure passes the same guard", call.callee, tok, call.callee, code)})
				}
			}
			addInLineOrder(r, found)
		}
	}
	callees := 0
	for _, m := range contracts {
		if len(m) > 0 {
			callees++
		}
	}
	line := fmt.Sprintf("%s read; %s in reach of %s with an exit contract; %d exempt",
		// consumer-value-exempt: the English plural on the clean line; it names no directory, though scripts/ is one
		plural(scripts, "script", "scripts"), plural(guards, "truthiness guard", "truthiness guards"), plural(callees, "callee", "callees"), exempt)
	if guards == 0 {
		// assertion C: no guard in reach is nothing judged, whatever was
		// read, and the battery counts it so.
		return r.Nothing(line)
	}
	return r.Done(line)
}

type reachCall struct {
	line     int
	callee   string
	contract map[string]int
	truthy   bool
}

// reachCalls answers every command calling a tool of the scanned dir's own
// kit bin/ that declares an exit contract, in line order, each marked when
// its status is read only by truthiness (an if/while/until condition, or
// an && / || chain).
func reachCalls(c *gate.Context, toks []shlex.Token, kitRoot string, contracts map[string]map[string]int) ([]reachCall, error) {
	var out []reachCall
	var err error
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		pipes := shlex.Split(list)
		for pi, p := range pipes {
			for _, cmd := range p.Commands {
				for _, w := range cmd.Words() {
					m := kitBinRef.Get().FindStringSubmatch(w.Value)
					if m == nil || err != nil {
						continue
					}
					callee := registry.Join(registry.Join(kitRoot, "bin"), m[1])
					contract, ok := contracts[callee]
					if !ok {
						contract, err = exitContract(c, callee)
						if err != nil {
							return
						}
						contracts[callee] = contract
					}
					if len(contract) == 0 {
						continue // out of reach: no # exit: header
					}
					truthy := p.Sep == "&&" || p.Sep == "||" || (pi > 0 && (pipes[pi-1].Sep == "&&" || pipes[pi-1].Sep == "||"))
					if words := p.Commands[0].Words(); len(words) > 0 && !words[0].Quoted {
						switch words[0].Raw {
						case "if", "elif", "while", "until", "!":
							truthy = true
						}
					}
					out = append(out, reachCall{line: w.Pos.Line, callee: callee, contract: contract, truthy: truthy})
					break
				}
			}
		}
	})
	sortCalls(out)
	return out, err
}

func sortCalls(cs []reachCall) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].line < cs[j].line })
}

// exitContract reads a callee's # exit: header lines: each verdict token
// binds to the nearest integer before it on its line. A token bound to
// code 0 or to two codes cannot be told apart by a status test and is left
// out. An absent callee declares nothing.
func exitContract(c *gate.Context, callee string) (map[string]int, error) {
	data, present, err := readOptional(c, callee)
	if err != nil || !present {
		return nil, err
	}
	codes := map[string]map[int]bool{}
	for _, l := range headerBlock(string(data)) {
		m := exitHeader.Get().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		code := -1
		for _, f := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == ';' || r == '(' || r == ')' }) {
			f = strings.TrimRight(f, ".:=")
			switch {
			case intWord.Get().MatchString(f):
				code, _ = strconv.Atoi(f)
			case code >= 0 && len(f) >= 2 && verdictWord.Get().MatchString(f):
				if codes[f] == nil {
					codes[f] = map[int]bool{}
				}
				codes[f][code] = true
			}
		}
	}
	out := map[string]int{}
	for tok, set := range codes {
		if len(set) != 1 {
			continue
		}
		for code := range set {
			if code != 0 {
				out[tok] = code
			}
		}
	}
	return out, nil
}

func commentLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "#") {
			out = append(out, t)
		} else if i := strings.Index(l, " #"); i >= 0 {
			out = append(out, strings.TrimSpace(l[i:]))
		}
	}
	return out
}

// codeText joins the window's non-comment lines.
func codeText(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "#") {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// wordIn reports tok as a whole word of text.
func wordIn(text, tok string) bool {
	return regexp.MustCompile(`(^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(tok) + `($|[^A-Za-z0-9_-])`).MatchString(text)
}

// comparesCode reports a status comparison against code in text: a test
// (-eq, -ne, ==, !=, =) or a case arm.
func comparesCode(text string, code int) bool {
	n := strconv.Itoa(code)
	return regexp.MustCompile(`(-eq|-ne|==|!=|=)\s*['"]?`+n+`['"]?($|[^0-9])`).MatchString(text) ||
		regexp.MustCompile(`(?m)^\s*\(?\s*`+n+`\s*\)`).MatchString(text)
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
