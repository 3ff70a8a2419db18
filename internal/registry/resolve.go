package registry

import (
	"fmt"
	"slices"
	"strings"
)

// DeclKind says what a member name resolved to.
type DeclKind int

// The resolution outcomes.
const (
	Unresolved DeclKind = iota // no search dir declares the name
	Shell                      // <dir>/<name>.sh, run as a child process
	Descriptor                 // <dir>/<name>.gate, dispatched to the binary
	Ambiguous                  // one dir carries both spellings
)

func (k DeclKind) String() string {
	switch k {
	case Shell:
		return "shell"
	case Descriptor:
		return "descriptor"
	case Ambiguous:
		return "ambiguous"
	}
	return "unresolved"
}

// Resolution is where a member's declaration lives.
type Resolution struct {
	Name string
	Kind DeclKind
	// Path is the declaration path: the file whose header carries the
	// manifest. For Ambiguous it is the .sh, the file the shell's
	// within-dir order would pick; it is "" for Unresolved.
	Path string
	// Alt is the .gate beside Path when Kind is Ambiguous.
	Alt string
	// Dir is the search dir that answered.
	Dir string
}

// Err answers the refusal an unresolved or ambiguous resolution is, and
// nil otherwise. The battery turns it into a red at the member's registry
// line; readers that only skip check Kind instead.
func (r Resolution) Err() error {
	switch r.Kind {
	case Unresolved:
		return refusal("", 0, KindUnresolved, "%s resolves to no <name>.sh or <name>.gate in any search dir", r.Name)
	case Ambiguous:
		return refusal(r.Path, 0, KindAmbiguous, "ambiguous dispatch: %s and %s both declare %s; keep one", r.Path, r.Alt, r.Name)
	}
	return nil
}

// SearchDirs answers the declaration dirs in resolution order: the gates
// dir, then each kit root's checks/. A dir listed twice is kept once, at
// its first place.
func SearchDirs(gatesDir string, kitRoots []string) []string {
	dirs := []string{gatesDir}
	for _, r := range kitRoots {
		d := Join(strings.TrimRight(r, "/"), "checks")
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// Resolve finds name's declaration: <gates-dir>/<name>.sh, then
// <gates-dir>/<name>.gate, then each kit root's checks/<name>.sh and
// checks/<name>.gate. Dirs are tried consumer-first and the first dir
// declaring the name answers, so a consumer shadows a kit's gate with a
// same-named file of either spelling. A dir carrying both spellings
// answers Ambiguous. The error is non-nil only when a path could not be
// examined.
func Resolve(fsys FS, name, gatesDir string, kitRoots []string) (Resolution, error) {
	return ResolveIn(fsys, name, SearchDirs(gatesDir, kitRoots))
}

// ResolveIn is Resolve over an explicit, ordered list of declaration dirs
// (the fixture runner's checks-dir operands replace the default set).
func ResolveIn(fsys FS, name string, dirs []string) (Resolution, error) {
	for _, dir := range dirs {
		sh, gate := Join(dir, name+".sh"), Join(dir, name+".gate")
		// assertion B: .sh is tried before .gate within one dir.
		hasSh, err := isFile(fsys, sh)
		if err != nil {
			return Resolution{}, err
		}
		hasGate, err := isFile(fsys, gate)
		if err != nil {
			return Resolution{}, err
		}
		switch {
		case hasSh && hasGate:
			// assertion C: both spellings in one dir is ambiguous dispatch.
			return Resolution{Name: name, Kind: Ambiguous, Path: sh, Alt: gate, Dir: dir}, nil
		case hasSh:
			return Resolution{Name: name, Kind: Shell, Path: sh, Dir: dir}, nil
		case hasGate:
			return Resolution{Name: name, Kind: Descriptor, Path: gate, Dir: dir}, nil
		}
	}
	// assertion D: a name no dir declares is unresolved, not an error.
	return Resolution{Name: name, Kind: Unresolved}, nil
}

// Declaration is one declaration file found in a search dir.
type Declaration struct {
	Name string
	Path string
	Kind DeclKind // Shell or Descriptor
}

// Declarations lists the <name>.sh and <name>.gate files directly inside
// each dir, dirs in the order given and names sorted within a dir. A dir
// that does not exist contributes nothing.
func Declarations(fsys FS, dirs []string) ([]Declaration, error) {
	return declarationsWith(fsys, dirs, nil)
}

// ListingMemo keeps each search dir's declaration file names (the ones
// Declarations lists of it, in its order), for a reader that can tell the
// dir's entries unchanged without listing it. Listing answers the names
// kept for dir while its entries are the ones they were listed from;
// StoreListing offers the names just listed. A KnobNamesMemo that is also
// a ListingMemo answers the corpus's listing too (CorpusKnobNames).
type ListingMemo interface {
	Listing(dir string) ([]string, bool)
	StoreListing(dir string, names []string)
}

// declarationsWith is Declarations taking each dir's names from memo
// where it keeps them, listing (and offering memo) the rest; nil lists
// every dir.
func declarationsWith(fsys FS, dirs []string, memo ListingMemo) ([]Declaration, error) {
	var out []Declaration
	for _, dir := range dirs {
		if memo != nil {
			if names, ok := memo.Listing(dir); ok {
				for _, n := range names {
					out = append(out, declarationOf(dir, n))
				}
				continue
			}
		}
		ok, err := isDir(fsys, dir)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		ents, err := fsys.ReadDir(dir)
		if err != nil {
			return nil, &Error{File: dir, Kind: KindIO, Msg: fmt.Sprintf("cannot list: %v", err), Err: err}
		}
		var names []string
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() {
				continue
			}
			if strings.HasSuffix(n, ".gate") && len(n) > len(".gate") || strings.HasSuffix(n, ".sh") && len(n) > len(".sh") {
				out = append(out, declarationOf(dir, n))
				names = append(names, n)
			}
		}
		if memo != nil {
			memo.StoreListing(dir, names)
		}
	}
	return out, nil
}

// declarationOf is the declaration file n (a <name>.gate or <name>.sh)
// directly inside dir.
func declarationOf(dir, n string) Declaration {
	if strings.HasSuffix(n, ".gate") {
		return Declaration{Name: strings.TrimSuffix(n, ".gate"), Path: Join(dir, n), Kind: Descriptor}
	}
	return Declaration{Name: strings.TrimSuffix(n, ".sh"), Path: Join(dir, n), Kind: Shell}
}
