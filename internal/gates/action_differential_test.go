package gates

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
	"go.yaml.in/yaml/v3"
)

// The differential test: every workflow of testdata/spellings, written in
// block style, is respelled by the generator below in thirteen ways, and
// all seven Actions gates must say the same thing about every spelling.
//
// Five spellings respell the literal run: blocks alone, keeping each
// value: as folded blocks (keeping, stripping and setting keep chomping;
// an empty line goes between two lines the fold would join, so the lines
// below move and the outputs are compared through the line map), with
// their indentation indicator written, and anchored.
//
// Six spellings keep every byte of every line that holds content where it
// was: the block original, a byte-order mark before it, CRLF and CR-only
// line ends, every mapping key quoted, and every repeated scalar value
// turned into an anchor and aliases. Their outputs must be byte-identical,
// ShellCheck's columns included.
//
// The flow and JSON spellings put every key and every sequence item on the
// line it had (so a finding on a key keeps its line), but a multi-line
// scalar (a run: | body) can only be a quoted string inside a flow
// collection, so it sits on its key's line. Their outputs must be
// byte-identical to each other, and equal to the block output once each
// block line is mapped to the line its content lands on in the flow
// spelling (a body line maps to its key's line). run-shell and run-path
// place a multi-line body written as a quoted string on its key's line
// with no column (its source is not its text), so for them the flow
// family is held to the block output only on the workflows with no
// multi-line run: body, and to each other everywhere.

const spellingsDir = "../../testdata/spellings"

type spelling struct {
	name   string
	render func(src string, doc *yaml.Node) (string, map[int]int)
	flow   bool
	// moves marks a block spelling that moves lines (its map says where
	// each block line went) and keeps every body's value: every gate's
	// output must be the block output with its lines mapped.
	moves bool
}

var spellings = []spelling{
	{"block", func(s string, _ *yaml.Node) (string, map[int]int) { return s, nil }, false, false},
	{"bom", func(s string, _ *yaml.Node) (string, map[int]int) { return "\ufeff" + s, nil }, false, false},
	{"crlf", func(s string, _ *yaml.Node) (string, map[int]int) { return strings.ReplaceAll(s, "\n", "\r\n"), nil }, false, false},
	{"cr", func(s string, _ *yaml.Node) (string, map[int]int) { return strings.ReplaceAll(s, "\n", "\r"), nil }, false, false},
	{"quoted-keys", quoteKeys, false, false},
	{"anchors", anchorRepeats, false, false},
	{"flow", func(s string, d *yaml.Node) (string, map[int]int) { return flowRender(d, false) }, true, false},
	{"json", func(s string, d *yaml.Node) (string, map[int]int) { return flowRender(d, true) }, true, false},
	{"folded", func(s string, d *yaml.Node) (string, map[int]int) { return foldRuns(s, d, "") }, false, true},
	{"folded-strip", func(s string, d *yaml.Node) (string, map[int]int) { return foldRuns(s, d, "-") }, false, true},
	{"folded-keep", func(s string, d *yaml.Node) (string, map[int]int) { return foldRuns(s, d, "+") }, false, true},
	{"literal-indicator", indicateRuns, false, false},
	{"anchored-runs", anchorRuns, false, false},
}

// literalRuns answers every run: value written as a literal block with a
// body, with its key.
func literalRuns(doc *yaml.Node) (keys, vals []*yaml.Node) {
	walkNodes(doc, func(m *yaml.Node) {
		if m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			if k.Value == "run" && v.Kind == yaml.ScalarNode && v.Style&yaml.LiteralStyle != 0 && strings.Trim(v.Value, "\n") != "" {
				keys, vals = append(keys, k), append(vals, v)
			}
		}
	})
	return keys, vals
}

// headerAt answers the byte offset and length of a block scalar's header
// ('|' and its indicators) on its line.
func headerAt(line string, v *yaml.Node) (int, int) {
	at := v.Column - 1
	n := 1
	for at+n < len(line) && strings.ContainsRune("+-123456789", rune(line[at+n])) {
		n++
	}
	return at, n
}

// foldRuns respells every literal run: block as a folded one with the same
// value (chomp "" keeps each block's chomping indicator, "-" or "+" sets
// it): a folded block joins two adjacent lines that neither start with a
// blank, so an empty line goes between every such pair, and the line map
// says where each line went.
func foldRuns(src string, doc *yaml.Node, chomp string) (string, map[int]int) {
	_, vals := literalRuns(doc)
	lines := strings.Split(src, "\n")
	header := map[int]*yaml.Node{}
	for _, v := range vals {
		header[v.Line] = v
	}
	var out []string
	moved := map[int]int{}
	for i := 0; i < len(lines); i++ {
		moved[i+1] = len(out) + 1
		v := header[i+1]
		if v == nil {
			out = append(out, lines[i])
			continue
		}
		at, n := headerAt(lines[i], v)
		h := ">" + lines[i][at+1:at+n]
		if chomp != "" {
			h = ">" + chomp + strings.Trim(lines[i][at+1:at+n], "+-")
		}
		out = append(out, lines[i][:at]+h+lines[i][at+n:])
		// The body: the lines up to the value's last, as the literal
		// block holds them.
		body := strings.Split(strings.TrimRight(v.Value, "\n"), "\n")
		indent := -1
		prevText, prevSpaced := false, false
		k := 0 // body lines met
		for k < len(body) && i+1 < len(lines) {
			i++
			l := lines[i]
			t := strings.TrimLeft(l, " ")
			if indent < 0 && t != "" {
				indent = len(l) - len(t)
			}
			if t == "" && (indent < 0 || len(l) <= indent) {
				moved[i+1] = len(out) + 1
				out = append(out, l)
				k++
				continue
			}
			spaced := len(l) > indent && (l[indent] == ' ' || l[indent] == '\t')
			if prevText && !prevSpaced && !spaced {
				out = append(out, "")
			}
			moved[i+1] = len(out) + 1
			out = append(out, l)
			prevText, prevSpaced = true, spaced
			k++
		}
	}
	for k, v := range moved {
		if k == v {
			delete(moved, k)
		}
	}
	return strings.Join(out, "\n"), moved
}

// indicateRuns writes every literal run: block's indentation indicator
// (its body's indentation right of the run key), so no line moves.
func indicateRuns(src string, doc *yaml.Node) (string, map[int]int) {
	keys, vals := literalRuns(doc)
	lines := strings.Split(src, "\n")
	var edits []edit
	for i, v := range vals {
		body := lines[v.Line]
		for j := v.Line; j < len(lines) && strings.TrimSpace(lines[j]) == ""; j++ {
			body = lines[j+1]
		}
		d := len(body) - len(strings.TrimLeft(body, " ")) - (keys[i].Column - 1)
		if d < 1 || d > 9 {
			continue
		}
		at, n := headerAt(lines[v.Line-1], v)
		edits = append(edits, edit{v.Line, at, n, lines[v.Line-1][at:at+n] + strconv.Itoa(d)})
	}
	return applyEdits(src, edits), nil
}

// anchorRuns anchors every literal run: block (&rN before its header), a
// value the spelling leaves the same.
func anchorRuns(src string, doc *yaml.Node) (string, map[int]int) {
	_, vals := literalRuns(doc)
	var edits []edit
	for i, v := range vals {
		edits = append(edits, edit{v.Line, v.Column - 1, 0, fmt.Sprintf("&r%d ", i)})
	}
	return applyEdits(src, edits), nil
}

// runValues answers a document's run: values in order.
func runValues(doc *yaml.Node) []string {
	var out []string
	walkNodes(doc, func(m *yaml.Node) {
		if m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == "run" {
				out = append(out, strings.TrimRight(m.Content[i+1].Value, "\n"))
			}
		}
	})
	return out
}

// edit replaces n bytes at a byte offset of a source line with text.
type edit struct {
	line, col, n int
	text         string
}

// applyEdits applies edits right to left on each line, so earlier offsets
// stay valid.
func applyEdits(src string, edits []edit) string {
	lines := strings.Split(src, "\n")
	sort.SliceStable(edits, func(i, k int) bool {
		if edits[i].line != edits[k].line {
			return edits[i].line < edits[k].line
		}
		return edits[i].col > edits[k].col
	})
	for _, e := range edits {
		l := lines[e.line-1]
		lines[e.line-1] = l[:e.col] + e.text + l[e.col+e.n:]
	}
	return strings.Join(lines, "\n")
}

// quoteKeys wraps every plain mapping key in quotes, double and single in
// turn.
func quoteKeys(src string, doc *yaml.Node) (string, map[int]int) {
	var edits []edit
	n := 0
	walkNodes(doc, func(m *yaml.Node) {
		if m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i]
			if k.Style != 0 {
				continue
			}
			q := `"`
			if n%2 == 1 {
				q = "'"
			}
			n++
			edits = append(edits, edit{k.Line, k.Column - 1 + len(k.Value), 0, q}, edit{k.Line, k.Column - 1, 0, q})
		}
	})
	return applyEdits(src, edits), nil
}

// anchorRepeats anchors the first occurrence of every plain one-line
// scalar value, and aliases the later ones. run: values
// are left alone: the spec refuses an anchor there.
func anchorRepeats(src string, doc *yaml.Node) (string, map[int]int) {
	seen := map[string][]*yaml.Node{}
	var order []string
	walkNodes(doc, func(m *yaml.Node) {
		if m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			if k.Value == "run" || v.Kind != yaml.ScalarNode || v.Style != 0 || !plainSafe.MatchString(v.Value) {
				continue
			}
			if _, ok := seen[v.Value]; !ok {
				order = append(order, v.Value)
			}
			seen[v.Value] = append(seen[v.Value], v)
		}
	})
	var edits []edit
	for i, val := range order {
		ns := seen[val]
		name := fmt.Sprintf("v%d", i)
		edits = append(edits, edit{ns[0].Line, ns[0].Column - 1, 0, "&" + name + " "})
		for _, n := range ns[1:] {
			edits = append(edits, edit{n.Line, n.Column - 1, len(val), "*" + name})
		}
	}
	return applyEdits(src, edits), nil
}

func walkNodes(n *yaml.Node, fn func(*yaml.Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, c := range n.Content {
		walkNodes(c, fn)
	}
}

// flowRender writes the document as one flow collection (JSON when json
// is set), each key and item on the line it had. It answers the line map
// of every block line whose content moved: the body lines of a
// multi-line scalar, mapped to the scalar's own line.
func flowRender(doc *yaml.Node, asJSON bool) (string, map[int]int) {
	var b strings.Builder
	line := 1
	moved := map[int]int{}
	at := func(l int) {
		for line < l {
			b.WriteString("\n  ")
			line++
		}
	}
	scalar := func(n *yaml.Node) string {
		if !asJSON && plainSafe.MatchString(n.Value) {
			return n.Value
		}
		q, _ := json.Marshal(n.Value)
		return string(q)
	}
	var emit func(n *yaml.Node)
	emit = func(n *yaml.Node) {
		at(n.Line)
		switch n.Kind {
		case yaml.DocumentNode:
			emit(n.Content[0])
		case yaml.MappingNode:
			b.WriteString("{")
			for i := 0; i+1 < len(n.Content); i += 2 {
				if i > 0 {
					b.WriteString(", ")
				}
				emit(n.Content[i])
				b.WriteString(": ")
				emit(n.Content[i+1])
			}
			b.WriteString("}")
		case yaml.SequenceNode:
			b.WriteString("[")
			for i, c := range n.Content {
				if i > 0 {
					b.WriteString(", ")
				}
				emit(c)
			}
			b.WriteString("]")
		case yaml.ScalarNode:
			b.WriteString(scalar(n))
			if k := strings.Count(strings.TrimRight(n.Value, "\n"), "\n"); k > 0 || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
				for i := 1; i <= k+1; i++ {
					moved[n.Line+i] = n.Line
				}
			}
		}
	}
	emit(doc)
	b.WriteString("\n")
	return b.String(), moved
}

var plainSafe = regexp.MustCompile(`^[A-Za-z0-9_./-][A-Za-z0-9_./ @-]*[A-Za-z0-9_./@-]$|^[A-Za-z0-9_]$`)

// mapLines rewrites every line number an output names through the map:
// "path:L:", "path:L:C:" and "(line L)".
var lineRef = regexp.MustCompile(`(\.yml:)(\d+)(:\d+)?:|\(line (\d+)\)`)

func mapLines(out string, m map[string]map[int]int) string {
	var b strings.Builder
	for _, ln := range strings.SplitAfter(out, "\n") {
		file := ""
		if i := strings.Index(ln, ".yml:"); i >= 0 {
			file = ln[:i+4]
			if k := strings.LastIndex(file, " "); k >= 0 {
				file = file[k+1:]
			}
		}
		mm := m[file]
		b.WriteString(lineRef.ReplaceAllStringFunc(ln, func(s string) string {
			sub := lineRef.FindStringSubmatch(s)
			if sub[4] != "" {
				n, _ := strconv.Atoi(sub[4])
				if to, ok := mm[n]; ok {
					n = to
				}
				return fmt.Sprintf("(line %d)", n)
			}
			n, _ := strconv.Atoi(sub[2])
			if to, ok := mm[n]; ok {
				n = to
			}
			return fmt.Sprintf("%s%d%s:", sub[1], n, sub[3])
		}))
	}
	return b.String()
}

func TestSpellingsAgree(t *testing.T) {
	ents, err := os.ReadDir(spellingsDir)
	if err != nil {
		t.Fatal(err)
	}
	type wfile struct {
		name, src string
		doc       *yaml.Node
		multi     bool // a run: block body (a quoted string in the flow spellings)
	}
	var corpus []wfile
	support := map[string]string{}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(spellingsDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(e.Name(), ".yml") {
			continue
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		w := wfile{name: e.Name(), src: string(data), doc: &doc}
		walkNodes(&doc, func(m *yaml.Node) {
			if m.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(m.Content); i += 2 {
					if m.Content[i].Value == "run" && strings.Contains(m.Content[i+1].Value, "\n") {
						w.multi = true
					}
				}
			}
		})
		corpus = append(corpus, w)
	}
	if len(corpus) < 30 {
		t.Fatalf("%d workflows under %s, want at least 30", len(corpus), spellingsDir)
	}
	support["scripts/ci/lint.sh"] = "#!/bin/sh\n"
	support["scripts/release/package.sh"] = "#!/bin/sh\n"
	support["web/tools/bundle.sh"] = "#!/bin/sh\n"
	support["docs/jobs.md"] = "The `deploy-production` job follows `deploy-staging`; `deploy-preview` is gone.\n"
	modes := map[string]uint32{}
	for p := range support {
		if strings.HasSuffix(p, ".sh") {
			modes[p] = 0o100755
		}
	}
	env := map[string]string{"PATH": os.Getenv("PATH")}
	// check-action-run-shell's runs share one ShellCheck content cache
	// (§check-action-run-shell I): a body another spelling already had
	// linted is served, and every block still maps the reports through
	// its own lines, which is what a spelling can move. The key is the
	// extracted body, so a spelling that changed the body misses and is
	// linted afresh; the lint path itself is held by
	// TestRunShellBatchedEqualsPerBlock, and the cached run printing what
	// an uncached one prints by TestRunShellContentCache.
	scDir := t.TempDir()
	scStore := cache.Open("spellings-test", func() (string, error) { return scDir, nil })
	// outputs[spelling][gate][file] is the gate's output on that file alone
	// (job-ref: over the whole spelled corpus).
	type key struct{ spelling, gate, file string }
	outputs := map[key]string{}
	respelled := map[string]int{}               // spelling -> workflows it changed
	maps := map[string]map[string]map[int]int{} // spelling -> path -> line map
	for _, sp := range spellings {
		maps[sp.name] = map[string]map[int]int{}
		tree := map[string]string{}
		for p, s := range support {
			tree[p] = s
		}
		for _, w := range corpus {
			text, m := sp.render(w.src, w.doc)
			if sp.name != "block" && text == w.src && !sp.moves && sp.name != "literal-indicator" && sp.name != "anchored-runs" {
				t.Fatalf("%s: the %s spelling changed nothing", w.name, sp.name)
			}
			if text != w.src {
				respelled[sp.name]++
			}
			// A spelling of the run: blocks must keep every run: value.
			if sp.moves || sp.name == "literal-indicator" || sp.name == "anchored-runs" {
				var got yaml.Node
				if err := yaml.Unmarshal([]byte(text), &got); err != nil {
					t.Fatalf("%s: the %s spelling does not parse: %v\n%s", w.name, sp.name, err, text)
				}
				if a, b := runValues(w.doc), runValues(&got); !reflect.DeepEqual(a, b) {
					t.Fatalf("%s: the %s spelling changed a run: value:\n%q\n%q", w.name, sp.name, a, b)
				}
			}
			p := ".github/workflows/" + w.name
			tree[p] = text
			maps[sp.name][p] = m
		}
		dir := t.TempDir()
		writeFiles(t, dir, tree)
		// Each workflow alone (with the support files) is laid out once
		// per spelling and read by every gate: the gates only read it, and
		// each run's scratch is a path of its own, left unmade as the
		// battery leaves it.
		alone := map[string]string{}
		scratchRoot := t.TempDir()
		for _, def := range actionGates() {
			if def.Name == "check-action-job-ref" {
				r := gatetest.Exec(def.Rule, def.Name, dir, &gatetest.Tree{Data: tree, Modes: modes}, actionKnobs(corpusKnobs), env)
				outputs[key{sp.name, def.Name, ""}] = fmt.Sprintf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
				continue
			}
			for _, w := range corpus {
				p := ".github/workflows/" + w.name
				one := map[string]string{p: tree[p]}
				for s, v := range support {
					one[s] = v
				}
				d := alone[p]
				if d == "" {
					d = t.TempDir()
					writeFiles(t, d, one)
					alone[p] = d
				}
				scratch := filepath.Join(scratchRoot, strconv.Itoa(len(outputs)))
				rule := def.Rule
				if def.Name == "check-action-run-shell" {
					rule = func(c *gate.Context) int { c.Cache = scStore; return def.Rule(c) }
				}
				r := gatetest.ExecScratch(rule, def.Name, d, scratch, &gatetest.Tree{Data: one, Modes: modes}, actionKnobs(corpusKnobs), env)
				if r.Code == gate.Refused {
					t.Errorf("%s %s on %s refused: %s", def.Name, sp.name, w.name, r.Stderr)
				}
				outputs[key{sp.name, def.Name, w.name}] = fmt.Sprintf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
			}
		}
	}
	findings := 0
	for _, def := range actionGates() {
		files := []string{""}
		if def.Name != "check-action-job-ref" {
			files = nil
			for _, w := range corpus {
				files = append(files, w.name)
			}
		}
		bodyGate := def.Name == "check-action-run-shell" || def.Name == "check-action-run-path"
		for _, f := range files {
			block := outputs[key{"block", def.Name, f}]
			if strings.HasPrefix(block, "exit 1") {
				findings++
			}
			multi := false
			for _, w := range corpus {
				if w.name == f || f == "" {
					multi = multi || w.multi
				}
			}
			for _, sp := range spellings[1:] {
				got := outputs[key{sp.name, def.Name, f}]
				want := block
				switch {
				case sp.moves:
					want = mapLines(block, maps[sp.name])
				case !sp.flow:
				case bodyGate && multi:
					want = outputs[key{"flow", def.Name, f}]
				default:
					all := map[string]map[int]int{}
					for p, m := range maps[sp.name] {
						all[p] = m
					}
					want = mapLines(block, all)
				}
				if got != want {
					t.Errorf("%s on %s: the %s spelling says\n%s\nwhere the block spelling says\n%s", def.Name, f, sp.name, got, want)
				}
			}
		}
	}
	// The run: block spellings are only a test where they respell blocks.
	for _, sp := range spellings {
		if sp.moves && respelled[sp.name] < 10 {
			t.Errorf("the %s spelling changed %d workflows; the corpus should hold literal run: blocks", sp.name, respelled[sp.name])
		}
	}
	// The comparison is only meaningful if the corpus has findings to move.
	if findings < 20 {
		t.Errorf("only %d (gate, workflow) pairs with findings; the corpus should exercise the gates", findings)
	}
	t.Logf("%d workflows x %d spellings x 7 gates; %d gate/workflow pairs with findings", len(corpus), len(spellings), findings)
}
