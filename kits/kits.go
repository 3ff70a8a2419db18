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
