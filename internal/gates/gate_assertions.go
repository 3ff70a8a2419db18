package gates

// check-gate-assertions: a gate's SPEC section that letters its assertions
// and the gate's code that marks them agree, label for label, so prose and
// code cannot drift apart unseen.

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
)

func checkGateAssertions(c *gate.Context) int {
	specs := c.Args
	if len(specs) == 0 {
		specs = defaultSpecs(c)
	}
	if len(specs) == 0 {
		if code, ok := nothingOwn(c, fmt.Sprintf("no SPEC.md of this repository's own at %s: 0 contracts", registry.Join(c.GatesDir, "SPEC.md"))); ok {
			return code
		}
		return c.Refuse("no SPEC.md to read: none at %s and none in a kit root (%s)", registry.Join(c.GatesDir, "SPEC.md"), strings.Join(c.KitRoots, " "))
	}
	src, module, err := nativeModule(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	r := c.NewReport(map[string]string{
		"A": "make the contract's count-word equal its labels, or, in a lettered list, letter the items A, B, C … in order with none repeated",
		"B": "name a gate the registry resolves in the section heading, or give the rule its .sh or its module under the port's naming rule",
		"C": "mark each rule in the gate's code with a comment \"assertion X:\" beside the lines that hold it (# in shell, // in Go)",
		"D": "keep the code's assertion markers and the section's labels one set: add the missing marker or drop the label, and reletter or drop an extra marker",
	})
	contracts, outOfReach := 0, 0
	for _, spec := range specs {
		data, err := readFile(c, spec)
		if err != nil {
			return c.Refuse("cannot read %s: %v", spec, unwrapPath(err))
		}
		for _, sec := range specSections(string(data)) {
			labels, count, form := contractOf(sec)
			if len(distinct(labels)) < 2 {
				continue
			}
			contracts++
			where := fmt.Sprintf("%s:%d", spec, sec.line)
			// assertion A: the count-word (or the list's lettering) agrees with the span.
			switch {
			case form == formSentence && count != len(labels):
				r.Add(gate.Finding{Class: "A", Path: spec, Line: sec.line,
					Msg: fmt.Sprintf("§%s's contract counts %d assertions but letters %d (%s)", sec.name, count, len(labels), strings.Join(labels, " "))})
			case form == formList && !lettered(labels):
				r.Add(gate.Finding{Class: "A", Path: spec, Line: sec.line,
					Msg: fmt.Sprintf("§%s's lettered list reads %s, not A, B, C … in order", sec.name, strings.Join(labels, " "))})
			}
			res, err := registry.Resolve(dirFS{c}, sec.name, c.GatesDir, c.KitRoots)
			if err != nil {
				return c.RefuseErr(err)
			}
			code := ""
			switch res.Kind {
			case registry.Shell:
				code = res.Path
			case registry.Descriptor:
				if !module {
					contracts--
					outOfReach++
					continue
				}
				code = moduleFile(src, sec.name)
			}
			marks, found, err := readMarkers(c, code)
			if err != nil {
				return c.RefuseErr(err)
			}
			if code == "" || !found {
				// assertion B: the heading resolves to gate code.
				what := "no gate declaration"
				if code != "" {
					what = "no module at " + code
				}
				r.Add(gate.Finding{Class: "B", Path: spec, Line: sec.line, Msg: fmt.Sprintf("§%s letters a contract but resolves to %s", sec.name, what)})
				continue
			}
			if len(marks) == 0 {
				// assertion C: resolved code with no marker at all.
				r.Add(gate.Finding{Class: "C", Path: code, Msg: fmt.Sprintf("carries no assertion marker for the %d rules §%s letters (%s)", len(labels), sec.name, where)})
				continue
			}
			// assertion D: the marker set equals the span.
			want := distinct(labels)
			for _, l := range want {
				if !marks[l] {
					r.Add(gate.Finding{Class: "D", Path: code, Msg: fmt.Sprintf("missing marker for assertion %s of §%s (%s)", l, sec.name, where)})
				}
			}
			var extra []string
			for l := range marks {
				if !slices.Contains(want, l) {
					extra = append(extra, l)
				}
			}
			sort.Strings(extra) // byte order
			for _, l := range extra {
				r.Add(gate.Finding{Class: "D", Path: code, Msg: fmt.Sprintf("extra marker %q: §%s letters no such assertion (%s)", l, sec.name, where)})
			}
		}
	}
	return r.Done(fmt.Sprintf("%s matched to their code across %s; %s declared out of reach (no go.mod)",
		plural(contracts, "lettered contract", "lettered contracts"), plural(len(specs), "SPEC", "SPECs"),
		plural(outOfReach, "compiled member", "compiled members")))
}

// defaultSpecs answers <gates-dir>/SPEC.md when present, then each kit
// root's SPEC.md that exists.
func defaultSpecs(c *gate.Context) []string {
	var out []string
	for _, p := range append([]string{registry.Join(c.GatesDir, "SPEC.md")}, kitSpecs(c)...) {
		if st, err := os.Stat(runPath(c, p)); err == nil && !st.IsDir() && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func kitSpecs(c *gate.Context) []string {
	var out []string
	for _, k := range c.KitRoots {
		out = append(out, registry.Join(strings.TrimRight(k, "/"), "SPEC.md"))
	}
	return out
}

type specSection struct {
	name  string // the gate the heading names
	line  int    // heading line
	paras [][]string
	body  []string
}

var gateHeading = lazyre.New("^(#{2,3}) `?(check-[a-z0-9][a-z0-9-]*)`?\\s*$")
var anyHeading = lazyre.New(`^(#{1,6}) `)

// specSections answers every section whose heading is exactly a gate name
// (## or ###), its body running to the next heading of its level or above.
// Fenced code is no heading.
func specSections(text string) []specSection {
	lines := strings.Split(text, "\n")
	var out []specSection
	var cur *specSection
	level := 0
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if !fence {
			if h := anyHeading.Get().FindStringSubmatch(l); h != nil {
				if cur != nil && len(h[1]) <= level {
					out = append(out, *cur)
					cur = nil
				}
				if m := gateHeading.Get().FindStringSubmatch(l); m != nil && cur == nil {
					cur = &specSection{name: m[2], line: i + 1}
					level = len(m[1])
					continue
				}
			}
		}
		if cur != nil {
			cur.body = append(cur.body, l)
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

const (
	formNone = iota
	formSentence
	formList
)

// listItem is the port's lettered-list spelling of a contract: a line
// opening "- **X.**" or "X. " with X one capital letter.
var listItem = lazyre.New(`^(?:- \*\*([A-Z])\.\*\*|([A-Z])\. )`)

// contractOf answers a section's contract: its labels in order, the
// count-word's value for the sentence form, and which form it took. The
// sentence form is the first paragraph's "<cardinal> <noun>: (A) … (B) …"
// (the paragraph after a lone descriptor line); the list form is the
// section's lettered list items.
func contractOf(sec specSection) (labels []string, count, form int) {
	para := firstParagraph(sec.body)
	if n, span, ok := sentenceContract(para); ok {
		return span, n, formSentence
	}
	for _, l := range sec.body {
		if m := listItem.Get().FindStringSubmatch(l); m != nil {
			labels = append(labels, m[1]+m[2])
		}
	}
	if len(labels) > 0 {
		return labels, len(labels), formList
	}
	return nil, 0, formNone
}

// firstParagraph joins the section's first paragraph, skipping a lone
// descriptor line (one line ending in ").").
func firstParagraph(body []string) string {
	var paras []string
	var cur []string
	for _, l := range body {
		if strings.TrimSpace(l) == "" {
			if len(cur) > 0 {
				paras = append(paras, strings.Join(cur, " "))
				cur = nil
			}
			continue
		}
		cur = append(cur, strings.TrimSpace(l))
	}
	if len(cur) > 0 {
		paras = append(paras, strings.Join(cur, " "))
	}
	if len(paras) == 0 {
		return ""
	}
	if len(paras) > 1 && strings.HasSuffix(paras[0], ").") && !strings.Contains(strings.TrimSuffix(paras[0], ")."), ". ") {
		return paras[1]
	}
	return paras[0]
}

var (
	countNoun   = lazyre.New(`(^|[^a-z0-9-])([a-z]+(?:-[a-z]+)?) (assertions|assertion|axes|axis|checks)([^a-z0-9]|$)`)
	parenLabel  = lazyre.New(`\(([^()]*)\)`)
	singleLabel = lazyre.New(`^[A-Z]$`)
)

// sentenceContract finds a count-word of two or more adjacent to an
// enumeration noun whose first following parenthetical is a one-letter
// label, and answers the count and every one-letter label after it.
func sentenceContract(para string) (int, []string, bool) {
	// ASCII lowercasing keeps byte offsets, so the match slices the
	// original-case paragraph at the same place.
	low := asciiLower(para)
	for _, m := range countNoun.Get().FindAllStringSubmatchIndex(low, -1) {
		n := cardinal(low[m[4]:m[5]])
		if n < 2 {
			continue
		}
		rest := para[m[7]:]
		first := parenLabel.Get().FindStringSubmatch(rest)
		if first == nil || !singleLabel.Get().MatchString(first[1]) {
			continue
		}
		var span []string
		for _, p := range parenLabel.Get().FindAllStringSubmatch(rest, -1) {
			if singleLabel.Get().MatchString(p[1]) {
				span = append(span, p[1])
			}
		}
		return n, span, true
	}
	return 0, nil, false
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

var units = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
	"eighteen": 18, "nineteen": 19}
var tens = map[string]int{"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

// cardinal answers a spelled cardinal's value (one … ninety-nine), 0 for
// any other word.
func cardinal(w string) int {
	if n, ok := units[w]; ok {
		return n
	}
	if n, ok := tens[w]; ok {
		return n
	}
	if t, u, ok := strings.Cut(w, "-"); ok {
		if n, ok := tens[t]; ok {
			if m, ok := units[u]; ok && m < 10 {
				return n + m
			}
		}
	}
	return 0
}

// markerRE finds assertion markers under either comment leader; the label
// may run longer than one character so a multi-character marker surfaces
// as an extra.
var markerRE = lazyre.New(`(?:#|//)\s*assertion ([A-Za-z0-9]+):`)

// readMarkers answers the marker labels in a code file and whether the
// file exists.
func readMarkers(c *gate.Context, path string) (map[string]bool, bool, error) {
	if path == "" {
		return nil, false, nil
	}
	data, present, err := readOptional(c, path)
	if err != nil || !present {
		return nil, present, err
	}
	marks := map[string]bool{}
	for _, m := range markerRE.Get().FindAllStringSubmatch(string(data), -1) {
		marks[m[1]] = true
	}
	return marks, true, nil
}

func distinct(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// lettered reports labels spelling A, B, C … in order, none repeated.
func lettered(labels []string) bool {
	for i, l := range labels {
		if l != string(rune('A'+i)) {
			return false
		}
	}
	return true
}
