package walk

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// DefaultSdkRoot is GATE_SDK_ROOT's default, relative to the working
// directory.
const DefaultSdkRoot = "gate-sdk"

// KitRootsInput is everything the kit-root derivation reads besides the
// disk. Cwd is injected so the composition is a pure function of it.
type KitRootsInput struct {
	// Cwd is the working directory in the module's dialect (Cwd()).
	Cwd string
	// SdkRoot is GATE_SDK_ROOT as read from the environment (it is never a
	// file knob); empty takes DefaultSdkRoot.
	SdkRoot string
	// KitDirs is GATE_SDK_KIT_DIRS as the knob engine resolved it. Empty
	// derives the set; otherwise its whitespace-separated words replace it.
	KitDirs string
	// ReadDir and IsDir, when set, answer for the file system in place of
	// the disk (a tree read from a commit); nil is the disk.
	ReadDir func(dir string) ([]os.DirEntry, error)
	IsDir   func(p string) bool
}

// KitRoot is one kit root in each of its spellings.
type KitRoot struct {
	// Path is relative to the working directory (absolute when the root
	// lies outside it): for paths opened, walked, or matched against names
	// read from the tree.
	Path string
	// Abs is absolute, in the module's dialect.
	Abs string
	// Rel is relative to the gate-sdk root's parent: for text that names
	// kits from their common parent (couples= fields, knob prefixes).
	Rel string
}

// KitRootSet is the kit roots in order, every spelling index-aligned.
type KitRootSet struct {
	roots []KitRoot
}

// Roots answers every root with all its spellings.
func (s KitRootSet) Roots() []KitRoot { return append([]KitRoot(nil), s.roots...) }

// Paths is the working-directory spelling (kit_roots), what
// `gates --emit kit-roots` prints.
func (s KitRootSet) Paths() []string { return s.pick(func(r KitRoot) string { return r.Path }) }

// Abs is the absolute spelling (kit_roots_abs).
func (s KitRootSet) Abs() []string { return s.pick(func(r KitRoot) string { return r.Abs }) }

// Rel is the parent-relative spelling (kit_roots_rel).
func (s KitRootSet) Rel() []string { return s.pick(func(r KitRoot) string { return r.Rel }) }

// At spells each root relative to anchor, an absolute path in the module's
// dialect such as a git toplevel: the spelling git takes as a pathspec from
// `git -C <anchor>`. A root at the anchor answers "."; one outside it keeps
// its absolute spelling (git will refuse it: see Under).
func (s KitRootSet) At(anchor string) []string {
	return s.pick(func(r KitRoot) string {
		rel, ok := RelUnder(anchor, r.Abs)
		switch {
		case !ok:
			return r.Abs
		case rel == "":
			return "."
		}
		return rel
	})
}

// Under narrows At(top) to the roots inside top, the only ones git accepts
// as pathspecs. Its reader owes the empty answer its own arm: skip the git
// spawn and say the corpus is empty, since git handed no pathspec reads the
// whole tree.
func (s KitRootSet) Under(top string) []string {
	var out []string
	for _, r := range s.roots {
		if rel, ok := RelUnder(top, r.Abs); ok {
			if rel == "" {
				rel = "."
			}
			out = append(out, rel)
		}
	}
	return out
}

func (s KitRootSet) pick(f func(KitRoot) string) []string {
	out := make([]string, len(s.roots))
	for i, r := range s.roots {
		out[i] = f(r)
	}
	return out
}

// KitRoots derives the kit roots. With KitDirs empty: the gate-sdk root,
// then every directory beside it (under its parent, in name order) that
// holds a checks/ or a smoke/ directory. With KitDirs set, its words
// replace the set; a relative word passes through the Path and Rel
// spellings unchanged.
func KitRoots(in KitRootsInput) (KitRootSet, error) {
	// assertion M: one list, every spelling index-aligned.
	if !PathRoot(in.Cwd) {
		return KitRootSet{}, fmt.Errorf("kit roots: working directory %q is not absolute", in.Cwd)
	}
	sdk := trimTrailingSep(in.SdkRoot)
	if sdk == "" {
		sdk = DefaultSdkRoot
	}
	sdkAbs := AbsAgainst(in.Cwd, sdk)
	parentAbs := lexParent(sdkAbs)
	spell := func(given string) KitRoot {
		abs := AbsAgainst(in.Cwd, given)
		r := KitRoot{Abs: abs}
		if PathRoot(given) {
			r.Path = abs
			if rel, ok := RelUnder(in.Cwd, abs); ok {
				r.Path = nonEmpty(rel)
			}
		} else {
			r.Path = given
		}
		if rel, ok := RelUnder(parentAbs, abs); ok {
			r.Rel = nonEmpty(rel)
		} else {
			r.Rel = abs
		}
		return r
	}

	if words := strings.Fields(in.KitDirs); len(words) > 0 {
		set := KitRootSet{}
		for _, w := range words {
			r := spell(w)
			if !PathRoot(w) {
				// An override's relative word passes through unchanged.
				r.Path, r.Rel = w, w
			}
			set.roots = append(set.roots, r)
		}
		return set, nil
	}

	set := KitRootSet{roots: []KitRoot{spell(sdk)}}
	// List the parent physically: "<sdk>/.." is what the filesystem says.
	parent := Child(sdkAbs, "..")
	readDir, dirAt := os.ReadDir, isDir
	if in.ReadDir != nil && in.IsDir != nil {
		readDir, dirAt = in.ReadDir, in.IsDir
	}
	entries, err := readDir(parent)
	if err != nil {
		return KitRootSet{}, fmt.Errorf("kit roots: could not list directory %s: %w", parent, err)
	}
	givenParent := lexParent(sdk)
	own := lastSegment(sdkAbs)
	for _, e := range entries {
		name := e.Name()
		if name == own {
			continue
		}
		dir := Child(parent, name)
		if !dirAt(dir) || !(dirAt(Child(dir, "checks")) || dirAt(Child(dir, "smoke"))) {
			continue
		}
		// assertion S: a name that is not UTF-8 refuses only where it would
		// be reported, as a kit root; a stray file or directory beside the
		// kit, which is no kit, is passed over unread.
		if err := checkUTF8(name); err != nil {
			return KitRootSet{}, fmt.Errorf("kit roots: %w", &NonUTF8Error{Path: Child(parent, strings.ToValidUTF8(name, "\uFFFD"))})
		}
		r := spell(Child(givenParent, name))
		set.roots = append(set.roots, r)
	}
	return set, nil
}

func nonEmpty(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// lastSegment answers the final '/'-separated segment of a dialect path.
func lastSegment(p string) string {
	p = trimTrailingSep(p)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// lexParent drops the last segment of a path; a path ending in "." or
// ".." gains "/.." instead, so no lexical step changes what it names. The
// parent of a bare relative name is "" (the working directory).
func lexParent(p string) string {
	p = trimTrailingSep(p)
	seg := lastSegment(p)
	if seg == "." || seg == ".." {
		return Child(p, "..")
	}
	i := strings.LastIndexAny(p, `/\`)
	switch {
	case i < 0:
		return ""
	case i == 0:
		return p[:1]
	case i == 2 && driveRooted(p):
		return p[:3]
	}
	return p[:i]
}

// WriteKitRoots is the `gates --emit kit-roots` body: the working-directory
// spelling, one root per line.
func WriteKitRoots(w io.Writer, roots []string) error {
	var b strings.Builder
	for _, r := range roots {
		b.WriteString(r)
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing kit roots: %w", err)
	}
	return nil
}
