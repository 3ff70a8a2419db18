// Package registry reads the gate registry and every gate declaration: the
// gates.list member grammar, name resolution across the gates directory
// and the kit roots, the header fields of .sh and .gate declarations (the
// "# graph:" manifest and its companions), couples= expansion through
// knob: and kit: tokens, derived couples, and the effective trigger that
// selects a member for a path. Every reader of these formats calls this
// package; none carries its own parser.
//
// Paths are strings spelled as the caller spells them, joined with '/';
// the package never walks a tree, never reads the working directory and
// never starts a process. Knob values and kit reach come in through the
// Knobs and KitReach interfaces, which the knob engine implements.
// Refusals are *Error values naming file and line, classified by ErrKind.
package registry

import (
	"fmt"
	"slices"
)

// Member is one gates.list line with its resolution and manifest.
type Member struct {
	Name string
	Line int // the registry line naming it
	Resolution
	// Manifest is the parsed declaration header, nil when the member is
	// unresolved or its header could not be read (see ManifestErr).
	Manifest    *Manifest
	ManifestErr error
}

// Registry is a loaded gates.list.
type Registry struct {
	*List
	GatesDir string
	KitRoots []string
	Members  []Member
}

// Load reads <gates-dir>/gates.list, resolves every member and parses each
// resolved member's declaration header. An absent registry is a
// KindNoRegistry refusal; a member that resolves nowhere is kept with Kind
// Unresolved, and a header that does not parse is kept in ManifestErr, so
// each reader decides what either costs. Load itself fails only on the
// registry's own grammar or on a path it could not examine.
func Load(fsys FS, gatesDir string, kitRoots []string) (*Registry, error) {
	path := ListPath(gatesDir)
	data, err := fsys.ReadFile(path)
	if err != nil {
		if absent(err) {
			return nil, &Error{File: path, Kind: KindNoRegistry, Msg: "no registry at " + path, Err: err}
		}
		return nil, &Error{File: path, Kind: KindIO, Msg: fmt.Sprintf("cannot read: %v", err), Err: err}
	}
	l, err := ParseList(path, data)
	if err != nil {
		return nil, err
	}
	r := &Registry{List: l, GatesDir: gatesDir, KitRoots: slices.Clone(kitRoots)}
	for _, e := range l.Entries {
		res, err := Resolve(fsys, e.Name, gatesDir, kitRoots)
		if err != nil {
			return nil, err
		}
		m := Member{Name: e.Name, Line: e.Line, Resolution: res}
		if res.Kind != Unresolved {
			m.Manifest, m.ManifestErr = readManifest(fsys, res.Path)
		}
		r.Members = append(r.Members, m)
	}
	return r, nil
}

func readManifest(fsys FS, path string) (*Manifest, error) {
	data, err := fsys.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Kind: KindIO, Msg: fmt.Sprintf("cannot read: %v", err), Err: err}
	}
	return ParseManifest(path, data)
}

// Distinct answers the members with a name listed twice kept once, at its
// first line.
func (r *Registry) Distinct() []Member {
	var out []Member
	seen := map[string]bool{}
	for _, m := range r.Members {
		if !seen[m.Name] {
			seen[m.Name] = true
			out = append(out, m)
		}
	}
	return out
}

// Member answers the first member of that name.
func (r *Registry) Member(name string) (Member, bool) {
	for _, m := range r.Members {
		if m.Name == name {
			return m, true
		}
	}
	return Member{}, false
}

// Skipped answers the members every reader but the battery skips: those
// that resolve nowhere. Registry-reading gates count them on their clean
// line.
func (r *Registry) Skipped() []Member {
	var out []Member
	for _, m := range r.Members {
		if m.Kind == Unresolved {
			out = append(out, m)
		}
	}
	return out
}

// Corpus answers the descriptor corpus the EveryCouplesKnob sentinel reads:
// every .gate in the search dirs and every resolved member's declaration,
// each once, in search order then registry order. A declaration that does
// not parse is refused, since a lost token would silently shrink the set.
func (r *Registry) Corpus(fsys FS) ([]*Manifest, error) {
	return r.corpus(fsys, nil)
}

// CorpusReusing is Corpus taking a registered member's manifest, parsed
// by Load, for its declaration instead of reading the file again. Only
// for a fsys that reads the bytes Load's did (the same files, not the
// index's copies nor a commit's): the manifest is then what a second read
// would parse.
func (r *Registry) CorpusReusing(fsys FS) ([]*Manifest, error) {
	known := map[string]*Manifest{}
	for _, mem := range r.Members {
		if mem.Kind != Unresolved && mem.ManifestErr == nil && mem.Manifest != nil {
			known[mem.Path] = mem.Manifest
		}
	}
	return r.corpus(fsys, known)
}

// KnobNamesMemo keeps, per declaration file, the knob names its manifest
// carries (what CouplesKnobNames reads of it), for a reader that can tell
// the file unchanged without reading it. Lookup answers the names kept for
// path while the file is the one they were read from; Store offers the
// names just read from path.
type KnobNamesMemo interface {
	Lookup(path string) ([]string, bool)
	Store(path string, names []string)
}

// CorpusKnobNames answers CouplesKnobNames(CorpusReusing(fsys)): every
// knob name the corpus's manifests carry, taking a registered member's
// manifest from Load and each other declaration's names from memo where
// it keeps them, reading (and offering memo) the rest. A declaration that
// does not read or parse is refused as CorpusReusing refuses it.
func (r *Registry) CorpusKnobNames(fsys FS, memo KnobNamesMemo) ([]string, error) {
	known := map[string]*Manifest{}
	for _, mem := range r.Members {
		if mem.Kind != Unresolved && mem.ManifestErr == nil && mem.Manifest != nil {
			known[mem.Path] = mem.Manifest
		}
	}
	manifests, names, err := r.corpusWith(fsys, known, memo)
	if err != nil {
		return nil, err
	}
	names = append(names, CouplesKnobNames(manifests)...)
	slices.Sort(names)
	return slices.Compact(names), nil
}

func (r *Registry) corpus(fsys FS, known map[string]*Manifest) ([]*Manifest, error) {
	out, _, err := r.corpusWith(fsys, known, nil)
	return out, err
}

// corpusWith answers the corpus's manifests: known's for the paths it
// holds, each other declaration read, then the registered members' from
// Load. With memo set, a declaration known does not hold answers its knob
// names instead (kept by memo, or read and offered to it), and its
// manifest is not among those answered.
func (r *Registry) corpusWith(fsys FS, known map[string]*Manifest, memo KnobNamesMemo) ([]*Manifest, []string, error) {
	lm, _ := memo.(ListingMemo)
	decls, err := declarationsWith(fsys, SearchDirs(r.GatesDir, r.KitRoots), lm)
	if err != nil {
		return nil, nil, err
	}
	var out []*Manifest
	var names []string
	seen := map[string]bool{}
	for _, d := range decls {
		if d.Kind != Descriptor || seen[d.Path] {
			continue
		}
		seen[d.Path] = true
		if m, ok := known[d.Path]; ok {
			out = append(out, m)
			continue
		}
		if memo != nil {
			if kept, ok := memo.Lookup(d.Path); ok {
				names = append(names, kept...)
				continue
			}
		}
		m, err := readManifest(fsys, d.Path)
		if err != nil {
			return nil, nil, err
		}
		if memo != nil {
			own := CouplesKnobNames([]*Manifest{m})
			memo.Store(d.Path, own)
			names = append(names, own...)
			continue
		}
		out = append(out, m)
	}
	for _, mem := range r.Members {
		if mem.Kind == Unresolved || seen[mem.Path] {
			continue
		}
		seen[mem.Path] = true
		if mem.ManifestErr != nil {
			return nil, nil, mem.ManifestErr
		}
		out = append(out, mem.Manifest)
	}
	return out, names, nil
}
