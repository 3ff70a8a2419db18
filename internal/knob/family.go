package knob

import (
	"sort"
	"strings"
)

// Member is one family member.
type Member struct {
	Name   string
	Suffix string
	Value  string
	Origin Origin
}

// Family answers every member under prefix, a declared family prefix or an
// open kit's PREFIX_, from the environment and both files, sorted by name.
// It is a resolution set, never a roster: a reader looks up the names its
// own roster gives and refuses a missing one.
func (s *Set) Family(prefix string) ([]Member, error) {
	k := s.owner(prefix)
	if k == nil {
		return nil, refuse(prefix, "%s is not under any kit's prefix", prefix)
	}
	declared := k.t.Open && prefix == k.t.Prefix+"_"
	for _, f := range k.t.Families {
		declared = declared || f.Prefix == prefix
	}
	if !declared {
		return nil, refuse(prefix, "%s is neither a declared family nor an open kit's prefix", prefix)
	}
	if s.opts.Environ == nil {
		return nil, refuse(prefix, "reading the %s family needs the environment's names (Options.Environ)", prefix)
	}
	if err := k.ensure(); err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, kv := range s.opts.Environ() {
		n, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(n, prefix) && k.memberName(n) == "" && k.isMember(n) {
			names[n] = true
		}
	}
	p := k.load1()
	for _, l := range []*layer{p.tracked, p.overlay} {
		if l == nil {
			continue
		}
		for n, e := range l.entries {
			if e.member && strings.HasPrefix(n, prefix) {
				names[n] = true
			}
		}
	}
	out := make([]Member, 0, len(names))
	for n := range names {
		v, err := k.member(n)
		if err != nil {
			return nil, err
		}
		out = append(out, Member{Name: n, Suffix: strings.TrimPrefix(n, prefix), Value: v.Scalar, Origin: v.Origin})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// isMember reports whether an owned name is neither a row nor any of the
// kit's reserved names, so it can only be a member.
func (k *kitState) isMember(name string) bool {
	t := k.t
	if t.rows[name] != nil || isEngineVar(t, name) {
		return false
	}
	if _, ok := t.envOnly[name]; ok {
		return false
	}
	_, retired := t.retired[name]
	return !retired
}
