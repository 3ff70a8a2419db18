package harness

import (
	"bytes"
	"fmt"
	"reflect"
)

// UnmergeSettings takes out of a settings document what MergeSettings put
// in with the same template and bin: each hook entry equal to a template
// entry after substitution (type, command, args and every other key), and
// the statusLine when it is the template's. A group left with no entry,
// an event left with no group and a hooks object left empty go too. The
// user's own entries stay, a registration of the binary under another
// spelling among them: only what init itself writes is init's to remove.
// empty reports that nothing at all is left, which the caller reads as
// "remove the file". A document MergeSettings would refuse is an error.
func UnmergeSettings(existing, template []byte, bin string) (out []byte, removed int, empty bool, err error) {
	tmpl, err := decodeObject(template)
	if err != nil {
		return nil, 0, false, fmt.Errorf("the settings template: %v", err)
	}
	if len(bytes.TrimSpace(existing)) == 0 {
		return existing, 0, true, nil
	}
	doc, err := decodeObject(existing)
	if err != nil {
		return nil, 0, false, err
	}
	ours := map[string][]*object{} // event -> the entries init writes
	eachEntry(tmpl, func(event string, e *object) {
		sub := substitute(e, bin)
		ours[event] = append(ours[event], sub)
		if old, ok := legacyEntry(sub); ok {
			ours[event] = append(ours[event], old) // an older init's spelling
		}
	})
	if hv, present := doc.vals["hooks"]; present {
		hooks, ok := hv.(*object)
		if !ok {
			return nil, 0, false, fmt.Errorf("its \"hooks\" is not an object")
		}
		for _, event := range append([]string(nil), hooks.keys...) {
			groups, ok := hooks.vals[event].([]any)
			if !ok || len(ours[event]) == 0 {
				continue
			}
			var keptGroups []any
			for _, gv := range groups {
				g, ok := gv.(*object)
				if !ok {
					keptGroups = append(keptGroups, gv)
					continue
				}
				entries, ok := g.get("hooks").([]any)
				if !ok {
					keptGroups = append(keptGroups, gv)
					continue
				}
				var kept []any
				for _, e := range entries {
					if eo, ok := e.(*object); ok && matchesAny(eo, ours[event]) {
						removed++
						continue
					}
					kept = append(kept, e)
				}
				if len(kept) == 0 && len(entries) > 0 {
					continue // the group held only init's entries
				}
				if len(kept) != len(entries) {
					g.set("hooks", kept)
				}
				keptGroups = append(keptGroups, g)
			}
			if len(keptGroups) == 0 {
				hooks.del(event)
			} else {
				hooks.set(event, keptGroups)
			}
		}
		if len(hooks.keys) == 0 && removed > 0 {
			doc.del("hooks")
		}
	}
	if sl, ok := tmpl.get("statusLine").(*object); ok {
		if cur, ok := doc.get("statusLine").(*object); ok && (sameObject(cur, substitute(sl, bin)) || sameObject(cur, legacyStatus(bin))) {
			doc.del("statusLine")
			removed++
		}
	}
	if removed == 0 {
		return existing, 0, false, nil
	}
	var b bytes.Buffer
	writeValue(&b, doc, "")
	b.WriteByte('\n')
	return b.Bytes(), removed, len(doc.keys) == 0, nil
}

func matchesAny(e *object, set []*object) bool {
	for _, o := range set {
		if sameObject(e, o) || olderStub(e, o) {
			return true
		}
	}
	return false
}

// sameObject compares two decoded objects by value, key order aside.
func sameObject(a, b *object) bool {
	return reflect.DeepEqual(plain(a), plain(b))
}

func plain(v any) any {
	switch v := v.(type) {
	case *object:
		m := map[string]any{}
		for _, k := range v.keys {
			m[k] = plain(v.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, kk := range o.keys {
		if kk == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			return
		}
	}
}

// Wired is one registration of this binary in a settings document: the
// event, the member and the program the harness starts (for a shell-form
// entry, its first word).
type Wired struct {
	Event, Member, Program string
	// Stub: the entry runs Program through the footing stub, which
	// blocks while Program is missing instead of exiting 127.
	Stub bool
}

// Registrations answers every hook entry of a settings document that the
// one registration parser reads as a member of this binary.
func Registrations(doc []byte) ([]Wired, error) {
	o, err := decodeObject(doc)
	if err != nil {
		return nil, err
	}
	var out []Wired
	eachEntry(o, func(event string, eo *object) {
		m, ok := entryMember(eo)
		if !ok {
			return
		}
		cmd, _ := eo.get("command").(string)
		old, stub := legacyEntry(eo)
		if stub {
			// Through the stub: the program that matters is the binary.
			cmd, _ = old.get("command").(string)
		} else if _, exec := eo.get("args").([]any); !exec {
			if ws, err := shellWords(cmd); err == nil && len(ws) > 0 {
				cmd = ws[0]
			}
		}
		out = append(out, Wired{Event: event, Member: m, Program: cmd, Stub: stub})
	})
	return out, nil
}

// eachEntry calls fn on every hook entry object of a settings document,
// by event, skipping what is not of the harness's shape.
func eachEntry(doc *object, fn func(event string, e *object)) {
	hooks, ok := doc.get("hooks").(*object)
	if !ok {
		return
	}
	for _, event := range hooks.keys {
		groups, _ := hooks.vals[event].([]any)
		for _, gv := range groups {
			g, _ := gv.(*object)
			if g == nil {
				continue
			}
			entries, _ := g.get("hooks").([]any)
			for _, e := range entries {
				if eo, ok := e.(*object); ok {
					fn(event, eo)
				}
			}
		}
	}
}
