package knob

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// WriteRoster prints the static knob table for `gates --emit knob-roster`:
// one "<NAME>\t<shape>\t<default>" line per row, kits in table order and
// rows in declaration order. An indexed default prints one line per
// element, a keyed default one "key=value" line per pair in key order, and
// an empty collection one line with an empty third field. A derived
// default renders with each sibling at its own default and each locator
// as ${NAME}; nothing is read from the environment or the disk. nil
// tables means every embedded kit.
func WriteRoster(w io.Writer, tables []*Table) error {
	if tables == nil {
		var err error
		if tables, err = DefaultTables(); err != nil {
			return err
		}
	} else if err := CheckTables(tables); err != nil {
		return err
	}
	rows := map[string]*Row{}
	for _, t := range tables {
		for _, r := range t.Rows {
			rows[r.Name] = r
		}
	}
	var render func(r *Row) (string, error)
	render = func(r *Row) (string, error) {
		// assertion M: locators render as placeholders, siblings at their default.
		v, err := r.DeriveWith(func(name string) (string, error) {
			if isLocator(name) {
				return "${" + name + "}", nil
			}
			dep := rows[name]
			if dep == nil {
				return "", fmt.Errorf("knob %s: derive reads undeclared %s", r.Name, name)
			}
			return render(dep)
		})
		if err != nil {
			return "", err
		}
		if r.TrimTrailingSlash {
			for len(v) > 1 && strings.HasSuffix(v, "/") {
				v = strings.TrimSuffix(v, "/")
			}
		}
		return v, nil
	}
	bw := bufio.NewWriter(w)
	for _, t := range tables {
		for _, r := range t.Rows {
			var vals []string
			switch r.Shape {
			case Scalar:
				v, err := render(r)
				if err != nil {
					return err
				}
				vals = []string{v}
			case Indexed:
				vals = r.Elems
			case Keyed:
				for _, p := range r.Pairs {
					vals = append(vals, p.Key+"="+p.Value)
				}
			}
			writeLines(bw, r.Name, r.Shape, vals)
		}
	}
	return bw.Flush()
}

// writeLines prints one roster-grammar line per value, or one line with an
// empty third field when there are none.
func writeLines(w *bufio.Writer, name string, shape Shape, vals []string) {
	// assertion Q: one NAME<TAB>shape<TAB>value line per element.
	if len(vals) == 0 {
		vals = []string{""}
	}
	for _, v := range vals {
		w.WriteString(name)
		w.WriteByte('\t')
		w.WriteString(shape.String())
		w.WriteByte('\t')
		w.WriteString(v)
		w.WriteByte('\n')
	}
}

// WriteValues prints `gates --emit knob-values NAME...`: each named knob's
// resolved value in the roster's line grammar, "<NAME>\t<shape>\t<element>"
// per element (a keyed entry as key=value, an empty collection as one line
// with an empty third field). Every name is resolved before anything is
// written, so a refusal leaves stdout empty. A name no kit owns or its kit
// does not declare is an error (exit 2); so is a scalar whose value holds a
// newline, which the line grammar cannot carry.
func WriteValues(w io.Writer, set *Set, names []string) error {
	if len(names) == 0 {
		return errors.New("knob-values: name at least one knob")
	}
	vals := make([]*Value, len(names))
	for i, n := range names {
		v, err := set.Resolve(n)
		if err != nil {
			return err
		}
		if v.Shape == Scalar && strings.ContainsAny(v.Scalar, "\n\r") {
			return refuse(n, "%s's value (%s) holds a line break, which knob-values cannot print", n, v.Origin)
		}
		vals[i] = v
	}
	bw := bufio.NewWriter(w)
	for _, v := range vals {
		var fields []string
		switch v.Shape {
		case Scalar:
			fields = []string{v.Scalar}
		case Indexed:
			fields = v.Elems
		case Keyed:
			for _, p := range v.Pairs {
				fields = append(fields, p.Key+"="+p.Value)
			}
		}
		writeLines(bw, v.Name, v.Shape, fields)
	}
	return bw.Flush()
}
