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
	"io/fs"
	"path"
	"sort"
	"strings"
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
