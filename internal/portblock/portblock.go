// Package portblock derives the port's remaining work in a consumer tree:
// which registered gates are still shell scripts rather than compiled
// rules, what each requires beyond the program floor, and which tracked
// shell files still owe a port disposition.
//
// It answers three reports (kits/gate-sdk/SPEC.md §--emit port-blockers):
// Requirements over every registry member (a compiled member answers
// from its registry row, the one --needs prints; a shell member from its
// text through the shell lexer), Group over the still-shell members
// (partitioned by what they call and which globs they compose), and Tree
// over the tracked shell files. Nothing here starts a process or reads a
// file: the caller hands every input in.
package portblock

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/shlex"
)

// Member is one registry member with what the reports read of it.
type Member struct {
	Name        string
	Kind        registry.DeclKind
	Path        string // declaration path, as the rows print it
	Manifest    *registry.Manifest
	ManifestErr error
	// Compiled is true when the binary carries a rule of the member's
	// name; Needs is that rule's registry row (a Descriptor member only).
	Compiled bool
	Needs    []string
	Source   []byte // a Shell member's text
	Couples  []string
	Fixture  string // c2: pair, no-fixture or none
}

// Input is everything the reports read.
type Input struct {
	Members []Member
	Floor   []string // GATE_SDK_PROGRAM_FLOOR
	// Knob answers a registered knob's resolved words; ok false names no
	// knob any table or declaration owns.
	Knob func(name string) (words []string, ok bool, err error)
	// Builtins are the interpreter's keywords and builtins.
	Builtins map[string]bool
	// LibFuncs are the shell functions the kit libraries define.
	LibFuncs map[string]bool
}

// Row is one requirement row.
type Row struct {
	Member, Program, Evidence string
}

// Undecided marks a row whose program could not be bounded.
const Undecided = "?"

// Verdict is one member's requirement answer.
type Verdict struct {
	Rows       []Row
	Undecided  bool
	Calls      []string // command words a kit library or the file itself defines
	Globs      []string // literal *.<ext> tokens on non-comment lines
	Undecision string   // why, when the whole member could not be read
}

// C7 renders the verdict as the --group column: clean, the programs, or ?.
func (v Verdict) C7() string {
	if v.Undecided {
		return Undecided
	}
	if len(v.Rows) == 0 {
		return "clean"
	}
	var ps []string
	for _, r := range v.Rows {
		ps = append(ps, r.Program)
	}
	return strings.Join(ps, ",")
}

// Requires answers one member's requirement rows.
func Requires(in Input, m Member) Verdict {
	floor := map[string]bool{}
	for _, f := range in.Floor {
		floor[f] = true
	}
	var v Verdict
	add := func(prog, evidence string) {
		if prog == "" {
			return
		}
		if prog == Undecided {
			v.Undecided = true
		} else if floor[prog] {
			return
		}
		for _, r := range v.Rows {
			if r.Program == prog && prog != Undecided {
				return
			}
		}
		v.Rows = append(v.Rows, Row{Member: m.Name, Program: prog, Evidence: evidence})
	}
	switch m.Kind {
	case registry.Unresolved:
		// assertion A: a member the registry cannot answer for is undecidable, never empty.
		add(Undecided, "(resolves to no declaration)")
	case registry.Ambiguous:
		add(Undecided, m.Path+" (ambiguous: a .sh and a .gate declare it)")
	case registry.Descriptor:
		if !m.Compiled {
			add(Undecided, m.Path+" (no compiled rule of this name in the binary)")
			break
		}
		// assertion B: a compiled member answers from its registry row, floor-filtered.
		for _, n := range m.Needs {
			name, knob, isKnob := strings.Cut(n, "\t")
			switch {
			case isKnob && name == Undecided:
				prog, why := knobProgram(in, knob)
				add(prog, fmt.Sprintf("%s (--needs, %s%s)", m.Path, knob, why))
			case n == Undecided:
				add(Undecided, m.Path+" (--needs)")
			default:
				add(n, m.Path+" (--needs)")
			}
		}
	case registry.Shell:
		scanShell(in, m, &v, add)
	}
	return v
}

// knobProgram answers the command word a knob's value names.
func knobProgram(in Input, knob string) (string, string) {
	if in.Knob == nil {
		return Undecided, ": no knob reader"
	}
	words, ok, err := in.Knob(knob)
	switch {
	case err != nil:
		return Undecided, ": " + err.Error()
	case !ok:
		return Undecided, ": no table or declaration owns it"
	case len(words) == 0 || words[0] == "":
		return "", "" // an empty command knob starts nothing
	}
	return base(words[0]), ""
}

func base(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// reserved are the words that open or continue a compound command.
var reserved = map[string]bool{"{": true, "}": true, "!": true, "if": true, "then": true, "else": true, "elif": true, "fi": true,
	"do": true, "done": true, "while": true, "until": true, "time": true, "esac": true, "in": true}

var (
	funcDef  = regexp.MustCompile(`(?m)^[ \t]*(?:function[ \t]+([A-Za-z_][A-Za-z0-9_:-]*)|([A-Za-z_][A-Za-z0-9_:-]*)[ \t]*\(\))`)
	declareF = regexp.MustCompile(`declare[ \t]+-F[ \t]+([A-Za-z_][A-Za-z0-9_:-]*)`)
	extGlob  = regexp.MustCompile(`\*\.[A-Za-z0-9]+`)
	knobRef  = regexp.MustCompile(`^\$\{?([A-Za-z_][A-Za-z0-9_]*)(\[@\]|\[\*\])?\}?$`)
)

// Functions answers the names a shell text defines as functions (a
// `name()` or `function name` line) or marks as one (`declare -F name`).
func Functions(src []byte) map[string]bool {
	out := map[string]bool{}
	for _, m := range funcDef.FindAllSubmatch(src, -1) {
		out[string(m[1])+string(m[2])] = true
	}
	for _, m := range declareF.FindAllSubmatch(src, -1) {
		out[string(m[1])] = true
	}
	return out
}

// scanShell reads a shell member's command-position words.
func scanShell(in Input, m Member, v *Verdict, add func(string, string)) {
	toks, err := shlex.Lex(string(m.Source))
	if err != nil {
		where := m.Path
		if e, ok := err.(*shlex.Error); ok {
			where = fmt.Sprintf("%s:%d", m.Path, e.Pos.Line)
		}
		// assertion C: a file the lexer refuses is undecidable as a whole.
		v.Undecision = err.Error()
		add(Undecided, where+" (the shell lexer cannot read it)")
		return
	}
	own := Functions(m.Source)
	calls := map[string]bool{}
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		for _, p := range shlex.Split(list) {
			for _, c := range p.Commands {
				words := c.Words()
				i := c.Name()
				if i < 0 {
					continue
				}
				// A function body opens after `name ( )`, so skip the
				// operators and reserved words still ahead of the name.
				for i < len(words) && (words[i].Kind != shlex.Word || (!words[i].Quoted && reserved[words[i].Raw])) {
					i++
				}
				if i >= len(words) {
					continue
				}
				w := words[i]
				at := fmt.Sprintf("%s:%d", m.Path, w.Pos.Line)
				name := w.Value
				// command -v X is this tree's guard announcing X; command X and exec X run X.
				if (name == "command" || name == "exec") && !w.Quoted {
					j := i + 1
					guard := false
					for j < len(words) && strings.HasPrefix(words[j].Value, "-") {
						if words[j].Value == "-v" || words[j].Value == "-V" {
							guard = true
						}
						j++
					}
					if j >= len(words) {
						continue
					}
					w, name = words[j], words[j].Value
					at = fmt.Sprintf("%s:%d", m.Path, w.Pos.Line)
					if guard {
						classify(in, own, calls, name, w, at, add)
						continue
					}
				}
				classify(in, own, calls, name, w, at, add)
			}
		}
	})
	for c := range calls {
		v.Calls = append(v.Calls, c)
	}
	sort.Strings(v.Calls)
	globs := map[string]bool{}
	for _, line := range strings.Split(string(m.Source), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") {
			continue
		}
		for _, g := range extGlob.FindAllString(line, -1) {
			globs[g] = true
		}
	}
	for g := range globs {
		v.Globs = append(v.Globs, g)
	}
	sort.Strings(v.Globs)
}

// classify sorts one command-position word: a keyword, builtin or
// function is no program (a function is a kit-library call); a knob
// expansion resolves through the knob reader; any other expansion is
// undecidable; a literal is a program, floor-filtered by add.
func classify(in Input, own, calls map[string]bool, name string, w shlex.Token, at string, add func(string, string)) {
	if strings.Contains(name, "$") || w.Expands || len(w.Subs) > 0 {
		if m := knobRef.FindStringSubmatch(name); m != nil {
			if _, ok, _ := in.knob(m[1]); ok {
				prog, why := knobProgram(in, m[1])
				add(prog, fmt.Sprintf("%s (%s%s)", at, m[1], why))
				return
			}
		}
		add(Undecided, fmt.Sprintf("%s (%s)", at, name))
		return
	}
	if name == "" || in.Builtins[name] {
		return
	}
	if own[name] || in.LibFuncs[name] {
		calls[name] = true
		return
	}
	add(base(name), at)
}

func (in Input) knob(name string) ([]string, bool, error) {
	if in.Knob == nil {
		return nil, false, nil
	}
	return in.Knob(name)
}

// WriteRequirements prints the default arm: one row per requirement, then
// the trailer.
func WriteRequirements(w io.Writer, in Input) {
	compiled, shell, undecided := 0, 0, 0
	for _, m := range in.Members {
		switch m.Kind {
		case registry.Descriptor:
			compiled++
		case registry.Shell:
			shell++
		}
		v := Requires(in, m)
		if v.Undecided {
			undecided++
		}
		for _, r := range v.Rows {
			fmt.Fprintf(w, "%s\t%s\t%s\n", r.Member, r.Program, r.Evidence)
		}
	}
	// assertion D: the trailer counts members scanned and members undecidable.
	fmt.Fprintf(w, "# %d members scanned: %d compiled, %d shell, %d other; %d undecidable\n",
		len(in.Members), compiled, shell, len(in.Members)-compiled-shell, undecided)
}

// WriteGroups prints the --group arm.
func WriteGroups(w io.Writer, in Input) {
	type row struct {
		m Member
		v Verdict
	}
	groups := map[string][]row{}
	var keys []string
	var unkeyed []row
	ported, permanent, held, scanned := 0, 0, 0, 0
	for _, m := range in.Members {
		scanned++
		if m.Kind == registry.Descriptor {
			// assertion E: a compiled member is ported and leaves the partition.
			ported++
			continue
		}
		if m.Kind != registry.Shell {
			unkeyed = append(unkeyed, row{m: m, v: Verdict{Undecided: true}})
			continue
		}
		if m.Manifest != nil && m.Manifest.NoPort != nil {
			permanent++
			continue
		}
		if m.Manifest != nil && m.Manifest.PortUntil != nil {
			held++
			continue
		}
		v := Requires(in, m)
		if len(v.Calls) == 0 && len(v.Globs) == 0 {
			// assertion F: an empty key is never grouped, not even with another.
			unkeyed = append(unkeyed, row{m: m, v: v})
			continue
		}
		k := strings.Join(v.Calls, ",") + "\x00" + strings.Join(v.Globs, ",")
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], row{m: m, v: v})
	}
	sort.SliceStable(keys, func(i, j int) bool { return len(groups[keys[i]]) > len(groups[keys[j]]) })
	for gi, k := range keys {
		calls, globs, _ := strings.Cut(k, "\x00")
		fmt.Fprintf(w, "group %d: %d members\tcalls=%s\tglobs=%s\n", gi+1, len(groups[k]), orDash(calls), orDash(globs))
		for _, r := range groups[k] {
			tier := Undecided
			if r.m.Manifest != nil && r.m.Manifest.Graph != nil {
				tier = r.m.Manifest.Graph.Tier
			}
			fmt.Fprintf(w, "%s\tlines=%d\tc2=%s\tc3=%s\tc7=%s\tcouples=%s\n", r.m.Name, lines(r.m.Source), r.m.Fixture, tier, r.v.C7(), orDash(strings.Join(r.m.Couples, ",")))
		}
	}
	for _, r := range unkeyed {
		fmt.Fprintf(w, "?\t%s\tlines=%d\t%s\n", r.m.Name, lines(r.m.Source), orDash(r.m.Path))
	}
	owed := scanned - ported - permanent
	// assertion G: the trailer separates still owed (held included) from takeable.
	fmt.Fprintf(w, "# %d members scanned, %d groups, %d undecidable, %d ported, %d permanently shell, %d held; still owed %d, takeable at this cut %d\n",
		scanned, len(keys), len(unkeyed), ported, permanent, held, owed, owed-held)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// lines is wc -l: the count of newline bytes.
func lines(src []byte) int { return strings.Count(string(src), "\n") }

// TreeFile is one tracked shell file of the --tree corpus.
type TreeFile struct {
	Path   string
	Source []byte
}

// WriteTree prints the --tree arm: every file with its disposition and
// line count, then the trailer, whose grammar is an interface.
func WriteTree(w io.Writer, files []TreeFile) {
	noPort, held, owed := 0, 0, 0
	for _, f := range files {
		d := registry.ReadDisposition(f.Source)
		switch {
		case d.State == "no-port":
			noPort++
		case strings.HasPrefix(d.State, "port-until:"):
			held++
		default:
			owed++
		}
		fmt.Fprintf(w, "%s\t%s\tlines=%d\n", f.Path, d.State, lines(f.Source))
	}
	// assertion H: the trailer counts scanned, no-port, held and owed.
	fmt.Fprintf(w, "# %d files scanned, %d no-port, %d held, %d owed\n", len(files), noPort, held, owed)
}

// InTreeCorpus reports whether a tracked path belongs to the --tree
// corpus: a *.sh that is not a *.test.sh, under no pruned directory.
func InTreeCorpus(path string, pruned func(segment string) bool) bool {
	if !strings.HasSuffix(path, ".sh") || strings.HasSuffix(path, ".test.sh") {
		return false
	}
	segs := strings.Split(path, "/")
	for _, s := range segs[:len(segs)-1] {
		if pruned(s) {
			return false
		}
	}
	return true
}
