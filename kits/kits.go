// Package kits embeds every kit's knob table so the binary carries the
// defaults it resolves against.
//
// A kit publishes its table as kits/<kit>/knobs.toml; adding that file is
// the whole enrolment, since the embed pattern below picks up every one.
// The package only hands out bytes: parsing and validating a table is
// internal/knob's job.
package kits

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	fixtures "github.com/gate-sdk/gates"
)

//go:embed */knobs.toml
var tables embed.FS

// Table is one embedded knob table: the kit root's name and the TOML bytes.
type Table struct {
	Kit  string // kit root name, e.g. "gate-sdk"
	Data []byte
}

// Core is the kit whose table comes first: it owns the locators every other
// kit's knob files are found by.
const Core = "gate-sdk"

// All returns every embedded knob table, gate-sdk first and then the other
// kits in name order, so every caller sees one stable order.
func All() ([]Table, error) {
	names, err := fs.Glob(tables, "*/knobs.toml")
	if err != nil {
		return nil, err
	}
	sort.Slice(names, func(i, j int) bool {
		ki, kj := path.Dir(names[i]), path.Dir(names[j])
		if (ki == Core) != (kj == Core) {
			return ki == Core
		}
		return ki < kj
	})
	out := make([]Table, 0, len(names))
	for _, n := range names {
		data, err := tables.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, Table{Kit: path.Dir(n), Data: data})
	}
	return out, nil
}

//go:embed */checks/*.gate
var descriptors embed.FS

// Descriptor answers the shipped `.gate` descriptor of a compiled gate as
// kits/<kit>/checks/<name>.gate spells it, so a gate's help can quote its
// declared invariant where no kit is vendored. ok is false when no
// embedded kit ships the name.
func Descriptor(name string) (path string, data []byte, ok bool) {
	if name == "" || strings.ContainsAny(name, `*?[\/`) {
		return "", nil, false
	}
	matches, err := fs.Glob(descriptors, "*/checks/"+name+".gate")
	if err != nil || len(matches) != 1 {
		return "", nil, false
	}
	data, err = descriptors.ReadFile(matches[0])
	if err != nil {
		return "", nil, false
	}
	return matches[0], data, true
}

// The vendorable copy of every kit root, carried so `gates init` can vendor
// a kit with no network and no checkout. The embed takes whatever the
// directory holds when the binary is built, scratch included, so the files
// a vendoring writes are the ones Manifest lists, never the embed's own
// listing.
//
//go:embed all:gate-sdk
var kitTrees embed.FS

// readKitFile answers one file of kit as the binary carries it. The core
// kit's fixture pairs and templates are authored at the module's top-level
// gate-tests/ and templates/, so a manifest path under either is read from
// that tree's embed.
func readKitFile(kit, rel string) ([]byte, error) {
	if !authoredAtTop(kit, rel) {
		return kitTrees.ReadFile(path.Join(kit, rel))
	}
	if strings.HasPrefix(rel, fixtureTree+"/") {
		return fixtures.GateTests.ReadFile(rel)
	}
	return fixtures.Templates.ReadFile(rel)
}

// FixtureTree is the kit-relative directory of a kit's fixture pairs.
const FixtureTree = fixtureTree

// authoredAtTop reports whether kit's file rel is authored at the module's
// top level rather than under kits/<kit>/: the core kit's fixture pairs
// and templates.
func authoredAtTop(kit, rel string) bool {
	return kit == Core && (strings.HasPrefix(rel, fixtureTree+"/") || strings.HasPrefix(rel, templateTree+"/"))
}

// fixtureTree and templateTree are the kit-relative directories of a
// kit's fixture pairs and templates.
const (
	fixtureTree  = "gate-tests"
	templateTree = "templates"
)

// manifestSuffix names the tracked list of one kit root's files with their git
// modes, "<mode> <path>" per line, path relative to the kit root. A unit
// test holds it equal to `git ls-files -s`, and `make kit-manifest`
// rewrites it.
const manifestSuffix = ".manifest"

//go:embed *.manifest
var manifests embed.FS

// The module archives, one per kit (kits/<kit>.modules.txtar): the files
// of the kit's nested Go modules, which the kit embed cannot carry.
//
//go:embed *.modules.txtar
var archives embed.FS

// File is one file of a vendorable kit.
type File struct {
	Path string // relative to the kit root, slash-separated
	Exec bool   // tracked 100755
	Data []byte
}

// Tree answers the files of kit in manifest order. A manifest line whose
// file the embed does not carry, or a malformed line, is an error: the
// binary was built from a tree whose manifest is stale.
func Tree(kit string) ([]File, error) {
	raw, err := manifests.ReadFile(kit + manifestSuffix)
	if err != nil {
		return nil, fmt.Errorf("this binary carries no manifest for kit %q: %w", kit, err)
	}
	entries, err := ParseManifest(kit+manifestSuffix, raw)
	if err != nil {
		return nil, err
	}
	// A directory holding a go.mod is another Go module, which go:embed
	// cannot carry: its files come from the kit's module archive.
	dirs := moduleDirs(entries)
	archived, err := moduleArchive(kit)
	if err != nil {
		return nil, err
	}
	out := make([]File, 0, len(entries))
	for _, e := range entries {
		if inModule(e.Path, dirs) {
			f, ok := archived[e.Path]
			if !ok || f.Exec != e.Exec {
				return nil, fmt.Errorf("kits/%s does not carry %s as kits/%s%s lists it; rebuild after `make kit-manifest`", ArchiveName(kit), e.Path, kit, manifestSuffix)
			}
			delete(archived, e.Path)
			out = append(out, f)
			continue
		}
		data, err := readKitFile(kit, e.Path)
		if err != nil {
			return nil, fmt.Errorf("kits/%s%s lists %s, which this binary does not carry; rebuild after `make kit-manifest`", kit, manifestSuffix, e.Path)
		}
		out = append(out, File{Path: e.Path, Exec: e.Exec, Data: data})
	}
	if len(archived) > 0 {
		var extra []string
		for p := range archived {
			extra = append(extra, p)
		}
		sort.Strings(extra)
		return nil, fmt.Errorf("kits/%s carries %s, which kits/%s%s does not list in a nested module; rebuild after `make kit-manifest`", ArchiveName(kit), strings.Join(extra, " "), kit, manifestSuffix)
	}
	return out, nil
}

// moduleArchive answers kit's archived files by path.
func moduleArchive(kit string) (map[string]File, error) {
	raw, err := archives.ReadFile(ArchiveName(kit))
	if err != nil {
		return nil, fmt.Errorf("this binary carries no module archive for kit %q: %w", kit, err)
	}
	files, err := DecodeArchive("kits/"+ArchiveName(kit), raw)
	if err != nil {
		return nil, err
	}
	out := make(map[string]File, len(files))
	for _, f := range files {
		out[f.Path] = f
	}
	return out, nil
}

// Entry is one manifest line.
type Entry struct {
	Path string
	Exec bool
}

// ParseManifest reads a kit manifest: "<mode> <path>" per line, the mode
// 100644 or 100755, the path relative and clean. name labels refusals.
func ParseManifest(name string, raw []byte) ([]Entry, error) {
	var out []Entry
	for i, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		if line == "" {
			continue
		}
		mode, p, ok := strings.Cut(line, " ")
		if !ok || (mode != "100644" && mode != "100755") || p == "" || path.Clean(p) != p || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("%s:%d: not a \"<100644|100755> <relative path>\" line: %q", name, i+1, line)
		}
		out = append(out, Entry{Path: p, Exec: mode == "100755"})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: lists no file", name)
	}
	return out, nil
}

// Vendorable answers the kits this binary can vendor, gate-sdk first.
func Vendorable() []string {
	names, _ := fs.Glob(manifests, "*"+manifestSuffix)
	var out []string
	for _, n := range names {
		out = append(out, strings.TrimSuffix(n, manifestSuffix))
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i] == Core) != (out[j] == Core) {
			return out[i] == Core
		}
		return out[i] < out[j]
	})
	return out
}

// The core kit's templates `gates init` writes a consumer file from, each
// kit-relative. init (internal/payload, the --harness wiring) reads them by
// these names, and check-release-change-declared takes its claimed set from
// SeedTemplates, so the set the gate holds is the one init reads and never
// a second list.
const (
	// SeedPatterns becomes the consumer's commit-pattern list.
	SeedPatterns = "templates/msg-patterns.list"
	// SeedWorkflow becomes the consumer's CI workflow.
	SeedWorkflow = "templates/gates-workflow.yml"
	// SeedClaudeSettings is merged into .claude/settings.json by
	// `gates init --harness claude`.
	SeedClaudeSettings = "templates/claude-settings.json"
)

// SeedTemplates answers every core-kit template init claims, in the order
// init reads them.
func SeedTemplates() []string {
	return []string{SeedPatterns, SeedWorkflow, SeedClaudeSettings}
}
