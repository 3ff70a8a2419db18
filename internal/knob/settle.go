package knob

import (
	"errors"
	"sort"
)

// resolveAll is phase 2, the kit's first resolution: splice references,
// settle every collection, run every validator, and collect all findings.
func (k *kitState) resolveAll() error {
	s, t := k.set, k.t
	p := k.load1()
	findings := append([]*Finding(nil), p.findings...)
	var foreign []*Finding
	reached := map[*kitState]bool{k: true}
	addErr := func(err error) {
		var ce *ConfigError
		var f *Finding
		switch {
		case errors.As(err, &ce):
			if ce.Kit == t.Name {
				return // our own phase-1 findings are already listed
			}
			for _, o := range s.kits {
				if o.t.Name == ce.Kit && !reached[o] {
					reached[o] = true
					foreign = append(foreign, ce.Findings...)
				}
			}
		case errors.As(err, &f):
			findings = append(findings, f)
		default:
			findings = append(findings, &Finding{Msg: err.Error()})
		}
	}

	// assertion H: references splice in one pass; every reference in
	// either file is checked at this first resolution.
	for _, l := range []*layer{p.tracked, p.overlay} {
		if l == nil {
			continue
		}
		for _, e := range sortedEntries(l) {
			for _, it := range e.items {
				if it.ref == "" {
					e.spliced = append(e.spliced, it.value)
					e.splLines = append(e.splLines, it.line)
					continue
				}
				elems, f, err := k.splice(e.name, it.ref)
				if err != nil {
					addErr(err)
				}
				if f != nil {
					f.File, f.Line = l.path, it.line
					findings = append(findings, f)
					continue
				}
				for range elems {
					e.splLines = append(e.splLines, it.line)
				}
				e.spliced = append(e.spliced, elems...)
			}
		}
	}

	// assertion G: a file naming a knob replaces it whole; the overlay
	// beats the tracked file; pairs sort by key.
	k.colls = map[string]*Value{}
	for _, row := range t.Rows {
		if row.Shape == Scalar {
			continue
		}
		v := &Value{Name: row.Name, Shape: row.Shape, Origin: OriginDefault, Elems: []string{}, Pairs: []Pair{}}
		var e *entry
		var from *layer
		for _, l := range []*layer{p.overlay, p.tracked} {
			if l != nil && l.entries[row.Name] != nil {
				e, from = l.entries[row.Name], l
				break
			}
		}
		if e == nil {
			v.Elems = append(v.Elems, row.Elems...)
			v.Pairs = append(v.Pairs, row.Pairs...)
		} else {
			v.Origin, v.File, v.Line = from.origin, from.path, e.line
			v.Elems = append(v.Elems, e.spliced...)
			v.elemLines = append(v.elemLines, e.splLines...)
			v.Pairs = append(v.Pairs, e.pairs...)
			sortPairs(v.Pairs)
		}
		k.colls[row.Name] = v
	}

	// assertion N: every row's validator, and the kit's own rules, at the
	// first resolution; every finding is collected before refusing.
	if len(p.findings) == 0 {
		for _, row := range t.Rows {
			if row.Shape == Scalar {
				if _, err := s.scalar(row); err != nil {
					addErr(err)
				}
				continue
			}
			if msg := checkPairs(row, k.colls[row.Name].Pairs); msg != "" {
				v := k.colls[row.Name]
				findings = append(findings, &Finding{File: v.File, Line: v.Line, Knob: row.Name, Msg: msg})
			}
		}
		for _, c := range t.Checks {
			findings = append(findings, runKitCheck(c, k.colls)...)
		}
	}
	if len(findings)+len(foreign) == 0 {
		return nil
	}
	return &ConfigError{Kit: t.Name, Findings: append(findings, foreign...)}
}

// splice answers OTHER's resolved elements for a reference line in NAME's
// file. f is this line's refusal; err carries another kit's refusal.
func (k *kitState) splice(name, other string) (elems []string, f *Finding, err error) {
	s := k.set
	if other == name {
		return nil, refuse(name, "%s[] <- %s: a knob cannot splice itself", name, other), nil
	}
	ok := s.owner(other)
	var row *Row
	if ok != nil {
		row = ok.t.rows[other]
	}
	if row == nil {
		return nil, refuse(name, "%s[] <- %s: %s is not a statically owned knob", name, other, other), nil
	}
	if row.Shape != Indexed {
		return nil, refuse(name, "%s[] <- %s: %s is %s; only an indexed knob's elements can be spliced", name, other, other, row.Shape), nil
	}
	op := ok.load1()
	if ok != k && len(op.findings) > 0 {
		return nil, refuse(name, "%s[] <- %s: %s's knob configuration is refused (its findings follow)", name, other, ok.t.Name),
			&ConfigError{Kit: ok.t.Name, Findings: op.findings}
	}
	for _, l := range []*layer{op.overlay, op.tracked} {
		if l == nil || l.entries[other] == nil {
			continue
		}
		oe := l.entries[other]
		if oe.hasRef {
			return nil, refuse(name, "%s[] <- %s: %s's own value splices a reference (%s:%d); references resolve in one pass", name, other, other, l.path, oe.line), nil
		}
		for _, it := range oe.items {
			elems = append(elems, it.value)
		}
		return elems, nil, nil
	}
	return append(elems, row.Elems...), nil, nil
}

func sortedEntries(l *layer) []*entry {
	out := make([]*entry, 0, len(l.entries))
	for _, e := range l.entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// member resolves a family or open-kit member: environment, overlay,
// tracked file. It has no default; absent everywhere is ErrNoMember.
func (k *kitState) member(name string) (*Value, error) {
	v := &Value{Name: name, Shape: Scalar}
	if env, ok := k.set.lookup(name); ok {
		v.Scalar, v.Origin = env, OriginEnv
		return v, nil
	}
	p := k.load1()
	for _, l := range []*layer{p.overlay, p.tracked} {
		if l == nil {
			continue
		}
		if e := l.entries[name]; e != nil && e.member && e.empty != nil {
			v.Scalar, v.Origin, v.File, v.Line = e.empty.value, l.origin, l.path, e.empty.line
			return v, nil
		}
	}
	return nil, &Finding{Knob: name, Msg: name + " is set by no layer (environment, overlay or tracked file)", Err: ErrNoMember}
}
