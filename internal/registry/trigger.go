package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gate-sdk/gates/internal/glob"
)

// EveryCouplesKnob is the sentinel a member puts in its declared knob
// names when it expands other members' fields (check-graph, the parity
// gate, the selector, ...): it stands for every knob a knob: token in the
// descriptor corpus names.
const EveryCouplesKnob = "registry.EVERY_COUPLES_KNOB"

// KitReach answers which static kits a set of declared knob names reaches:
// the kit owning each name (a <KIT>_...* family name included), the kits
// its derivation's declared inputs name, transitively, and the kits the
// reference lines of each reached kit's tracked knob file point at.
// Environment-only names reach none. The answer is kit stems in the
// static-kit table's order. The knob engine implements it.
type KitReach interface {
	KitsReached(names []string) ([]string, error)
}

// Env is what a member's effective trigger is derived from beyond its own
// manifest.
type Env struct {
	// KitRoots are the kit roots spelled as the paths to be matched are
	// (the working-directory spelling at the hook and --for).
	KitRoots []string
	// GatesDir is the resolved gates directory, where tracked knob files
	// sit.
	GatesDir string
	// Knobs resolves knob: tokens.
	Knobs Knobs
	// Reach answers the static kits a member's knob names reach. It may be
	// nil only where no member declares a knob.
	Reach KitReach
	// Declared answers the knob names a member's registry row declares
	// (EveryCouplesKnob among them where it applies). Nil declares none.
	Declared func(member string) []string
	// ModuleFiles answers a member's cut of the binary's source, as paths.
	// Nil, or an answer of none, adds nothing (a vendored tree ships no
	// source).
	ModuleFiles func(member string) ([]string, error)
	// LoadCorpus answers the descriptor corpus the sentinel's names are
	// read from, and why it could not be read (a member declaring the
	// sentinel is then refused rather than handed a short set). It is
	// called when a member first needs it: most runs register no member
	// that declares the sentinel, and reading every descriptor of every
	// kit root was a fifth of a small battery's start. Nil reads as an
	// empty corpus.
	LoadCorpus func() ([]*Manifest, error)
	// CorpusKnobNames, when set, answers what CouplesKnobNames answers of
	// LoadCorpus's corpus (Registry.CorpusKnobNames, which may keep each
	// declaration's names), and the sentinel asks it instead.
	CorpusKnobNames func() ([]string, error)
}

// KnobFiles derives a member's knob-file couples: the tracked default
// knob file <gates-dir>/<stem>-config.knobs of every static kit its
// declared names reach, in table order. A mode=staged member that reaches
// any is refused: the hook would hand it the knob file as a path to scan.
func (e *Env) KnobFiles(name string, m *Manifest) ([]string, error) {
	var names []string
	if e.Declared != nil {
		names = slices.Clone(e.Declared(name))
	}
	if i := slices.Index(names, EveryCouplesKnob); i >= 0 {
		// assertion O: the sentinel stands for every knob the corpus's tokens name.
		var corpusNames []string
		var cerr error
		switch {
		case e.CorpusKnobNames != nil:
			corpusNames, cerr = e.CorpusKnobNames()
		case e.LoadCorpus != nil:
			var corpus []*Manifest
			if corpus, cerr = e.LoadCorpus(); cerr == nil {
				corpusNames = CouplesKnobNames(corpus)
			}
		}
		if cerr != nil {
			return nil, &Error{File: m.Path, Kind: KindExpansion, Msg: fmt.Sprintf("%s expands every member's knob: tokens, and the descriptor corpus did not read: %v", name, cerr), Err: cerr}
		}
		names = slices.Delete(names, i, i+1)
		names = append(names, corpusNames...)
	}
	if len(names) == 0 {
		return nil, nil
	}
	if e.Reach == nil {
		return nil, refusal(m.Path, 0, KindNoKitTable, "%s declares knobs but no kit table was given to derive its knob files", name)
	}
	stems, err := e.Reach.KitsReached(names)
	if err != nil {
		return nil, &Error{File: m.Path, Kind: KindExpansion, Msg: fmt.Sprintf("deriving %s's knob files: %v", name, err), Err: err}
	}
	if len(stems) > 0 && m.Graph != nil && m.Graph.Staged() {
		// assertion O: a staged member must not be handed a knob file as an operand.
		return nil, refusal(m.Path, m.Graph.Line, KindStagedStatic,
			"%s is mode=staged and reaches static kit(s) %s; a derived knob file would reach it as a path to scan, so drop mode=staged or the knob reads",
			name, strings.Join(stems, ", "))
	}
	files := make([]string, 0, len(stems))
	for _, s := range stems {
		files = append(files, Join(e.GatesDir, s+"-config.knobs"))
	}
	return files, nil
}

// DerivedCouples answers a member's derived couples: its knob files, then
// its module files. A mode=staged member takes no module cut.
func (e *Env) DerivedCouples(name string, m *Manifest) ([]string, error) {
	out, err := e.KnobFiles(name, m)
	if err != nil {
		return nil, err
	}
	if e.ModuleFiles != nil && (m.Graph == nil || !m.Graph.Staged()) {
		mods, err := e.ModuleFiles(name)
		if err != nil {
			return nil, &Error{File: m.Path, Kind: KindExpansion, Msg: fmt.Sprintf("deriving %s's module files: %v", name, err), Err: err}
		}
		out = append(out, mods...)
	}
	return out, nil
}

// ExpandCouples expands the member's authored couples= field, with no
// derived couples appended (the reach readers ask about walks and
// declaration paths, which neither derived set is).
func (e *Env) ExpandCouples(m *Manifest) ([]string, error) {
	out, err := Expand(m.Graph.Couples, e.KitRoots, e.Knobs)
	if err != nil {
		return nil, locate(err, m.Path, m.Graph.Line)
	}
	return out, nil
}

// Trigger is a member's effective trigger: the patterns a path is matched
// against to select it.
type Trigger struct {
	Member   string
	Staged   bool     // select by git pathspec and pass the matched paths as operands
	Patterns []string // expanded trigger= else couples=, then derived couples
}

// Trigger derives a member's effective trigger: its trigger= field, else
// its couples= field, expanded, followed by its derived couples. A
// trigger=* member is left as the one pattern "*".
func (e *Env) Trigger(name string, m *Manifest) (*Trigger, error) {
	if m.Graph == nil {
		return nil, refusal(m.Path, 0, KindNoManifest, "no # graph: line")
	}
	t := &Trigger{Member: name, Staged: m.Graph.Staged()}
	field := m.Graph.Trigger
	if field == nil {
		field = m.Graph.Couples
	}
	if len(m.Graph.Trigger) == 1 && m.Graph.Trigger[0] == "*" {
		t.Patterns = []string{"*"}
		return t, nil
	}
	// assertion P: trigger= else couples=, expanded, then the derived couples.
	exp, err := Expand(field, e.KitRoots, e.Knobs)
	if err != nil {
		return nil, locate(err, m.Path, m.Graph.Line)
	}
	derived, err := e.DerivedCouples(name, m)
	if err != nil {
		return nil, err
	}
	t.Patterns = append(exp, derived...)
	return t, nil
}

// Selects reports whether an edit to path fires the member. A whole-tree
// member asks the one couples matcher; a mode=staged member asks git's
// default pathspec reading, in which '*' crosses '/' too.
func (t *Trigger) Selects(path string) bool {
	for _, p := range t.Patterns {
		if t.Staged {
			if glob.Pathspec(p, path) {
				return true
			}
		} else if glob.Match(p, path) {
			return true
		}
	}
	return false
}

// Operands answers, in order, the paths that select the member: what a
// mode=staged member receives as positional arguments.
func (t *Trigger) Operands(paths []string) []string {
	var out []string
	for _, p := range paths {
		if t.Selects(p) {
			out = append(out, p)
		}
	}
	return out
}

// Selection is one member an edit fires, with a mode=staged member's
// matching paths as its operands.
type Selection struct {
	Member   Member
	Operands []string // nil for a whole-tree member
}

// Select answers, in registry order and each member once, the members an
// edit to any of paths fires: the one selection the pre-commit hook,
// --for and check-graph's coverage read. An unresolved member, or one
// whose declaration cannot be read, is an error: the selection cannot know
// whether it would fire.
func (r *Registry) Select(env *Env, paths []string) ([]Selection, error) {
	var out []Selection
	for _, m := range r.Distinct() {
		if err := m.Resolution.Err(); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", r.Path, m.Line, err)
		}
		if m.ManifestErr != nil {
			return nil, m.ManifestErr
		}
		t, err := env.Trigger(m.Name, m.Manifest)
		if err != nil {
			return nil, err
		}
		ops := t.Operands(paths)
		if len(ops) == 0 {
			continue
		}
		sel := Selection{Member: m}
		if t.Staged {
			sel.Operands = ops
		}
		out = append(out, sel)
	}
	return out, nil
}
