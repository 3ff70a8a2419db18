package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// MergeSettings merges a settings template's hook registrations into a
// harness settings document (nil or empty: a new one), with the template's
// Placeholder replaced by bin. A registration already present for the same
// event and member is left alone, so a second merge changes nothing; the
// user's own keys, entries and their order are kept. changed reports
// whether the answer differs from existing. A document that is not a JSON
// object, or whose hooks are not of the harness's shape, is an error and
// the caller must leave the file untouched.
func MergeSettings(existing, template []byte, bin string) (out []byte, changed bool, err error) {
	tmpl, err := decodeObject(template)
	if err != nil {
		return nil, false, fmt.Errorf("the settings template: %v", err)
	}
	doc := &object{}
	if len(bytes.TrimSpace(existing)) > 0 {
		if doc, err = decodeObject(existing); err != nil {
			return nil, false, err
		}
	}
	thooks, ok := tmpl.get("hooks").(*object)
	if !ok {
		return nil, false, errors.New("the settings template has no hooks object")
	}
	hooks, err := hooksOf(doc)
	if err != nil {
		return nil, false, err
	}
	for _, event := range thooks.keys {
		tgroups, ok := thooks.vals[event].([]any)
		if !ok {
			return nil, false, fmt.Errorf("the settings template's hooks.%s is not a list", event)
		}
		for _, tg := range tgroups {
			g, ok := tg.(*object)
			if !ok {
				return nil, false, fmt.Errorf("the settings template's hooks.%s holds a group that is not an object", event)
			}
			matcher, _ := g.get("matcher").(string)
			entries, _ := g.get("hooks").([]any)
			for _, e := range entries {
				eo, ok := e.(*object)
				if !ok {
					return nil, false, fmt.Errorf("the settings template's hooks.%s holds an entry that is not an object", event)
				}
				entry := substitute(eo, bin)
				added, err := addEntry(hooks, event, matcher, g.has("matcher"), entry)
				if err != nil {
					return nil, false, err
				}
				changed = changed || added
			}
		}
	}
	// assertion G: the template's statusLine is set where the document
	// has none; one the user set is theirs and stays.
	if sl, ok := tmpl.get("statusLine").(*object); ok {
		cur, isObj := doc.get("statusLine").(*object)
		if !doc.has("statusLine") || (isObj && sameObject(cur, legacyStatus(bin))) {
			doc.set("statusLine", substitute(sl, bin))
			changed = true
		}
	}
	if !changed && len(bytes.TrimSpace(existing)) > 0 {
		return existing, false, nil
	}
	var b bytes.Buffer
	writeValue(&b, doc, "")
	b.WriteByte('\n')
	return b.Bytes(), true, nil
}

// hooksOf answers doc's hooks object, adding an empty one when absent.
func hooksOf(doc *object) (*object, error) {
	v, present := doc.vals["hooks"]
	if !present {
		h := &object{}
		doc.set("hooks", h)
		return h, nil
	}
	h, ok := v.(*object)
	if !ok {
		return nil, errors.New("its \"hooks\" is not an object")
	}
	return h, nil
}

// addEntry adds entry under event, in the group with the same matcher (or
// a new group), unless a registration for the same member is there.
func addEntry(hooks *object, event, matcher string, hasMatcher bool, entry *object) (bool, error) {
	var groups []any
	if v, ok := hooks.vals[event]; ok {
		if groups, ok = v.([]any); !ok {
			return false, fmt.Errorf("its hooks.%s is not a list", event)
		}
	}
	want, wantOK := entryMember(entry)
	var home *object
	for _, gv := range groups {
		g, ok := gv.(*object)
		if !ok {
			return false, fmt.Errorf("its hooks.%s holds a group that is not an object", event)
		}
		entries, ok := g.get("hooks").([]any)
		if !ok && g.has("hooks") {
			return false, fmt.Errorf("its hooks.%s holds a group whose hooks is not a list", event)
		}
		for i, ev := range entries {
			if eo, ok := ev.(*object); ok && wantOK {
				if m, ok := entryMember(eo); ok && m == want {
					if isLegacy(eo, entry) || olderStub(eo, entry) {
						// assertion J: an older init's direct
						// registration, or one through an older stub, is
						// rewritten through the stub.
						entries[i] = entry
						return true, nil
					}
					return false, nil
				}
			}
		}
		gm, _ := g.get("matcher").(string)
		if home == nil && gm == matcher && g.has("matcher") == hasMatcher {
			home = g
		}
	}
	if home != nil {
		entries, _ := home.get("hooks").([]any)
		home.set("hooks", append(entries, entry))
	} else {
		g := &object{}
		if hasMatcher {
			g.set("matcher", matcher)
		}
		g.set("hooks", []any{entry})
		groups = append(groups, g)
	}
	hooks.set(event, groups)
	return true, nil
}

// entryMember reads a settings entry's registration with the one parser.
func entryMember(e *object) (string, bool) {
	cmd, ok := e.get("command").(string)
	if !ok {
		return "", false
	}
	r := Registration{Command: cmd}
	if args, ok := e.get("args").([]any); ok {
		r.Args = []string{}
		for _, a := range args {
			s, ok := a.(string)
			if !ok {
				return "", false
			}
			r.Args = append(r.Args, s)
		}
	}
	m, ok, err := MemberOf(r)
	return m, ok && err == nil
}

// substitute answers a copy of a template entry with the placeholders
// replaced in its command and its args: the binary's by bin, the stub's
// by Stub.
func substitute(e *object, bin string) *object {
	fill := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, Placeholder, bin), StubPlaceholder, Stub)
	}
	out := &object{}
	for _, k := range e.keys {
		v := e.vals[k]
		switch k {
		case "command":
			if s, ok := v.(string); ok {
				v = fill(s)
			}
		case "args":
			if list, ok := v.([]any); ok {
				args := make([]any, len(list))
				for i, a := range list {
					if s, ok := a.(string); ok {
						a = fill(s)
					}
					args[i] = a
				}
				v = args
			}
		}
		out.set(k, v)
	}
	return out
}

// legacyEntry answers the registration an init before the footing stub
// wrote for the same entry: the binary itself as the exec-form program
// with the member's operands, the other keys alike. ok is false for an
// entry that does not run through the stub.
func legacyEntry(e *object) (*object, bool) {
	args, ok := e.get("args").([]any)
	if !ok || len(args) < 5 || args[0] != "-c" {
		return nil, false
	}
	bin, ok := args[3].(string)
	if !ok {
		return nil, false
	}
	out := &object{}
	for _, k := range e.keys {
		switch k {
		case "command":
			out.set(k, bin)
		case "args":
			out.set(k, append([]any(nil), args[4:]...))
		default:
			out.set(k, e.vals[k])
		}
	}
	return out, true
}

// isLegacy reports an entry an older init wrote for the member entry
// registers: the binary (bin) run directly with the same operands,
// whatever its other keys (an older timeout) say.
func isLegacy(existing, entry *object) bool {
	old, ok := legacyEntry(entry)
	if !ok {
		return false
	}
	cmd, _ := existing.get("command").(string)
	return cmd == old.get("command") && reflect.DeepEqual(plain(existing.get("args")), plain(old.get("args")))
}

// olderStub reports an entry an init wrote through an earlier text of the
// footing stub: the same entry but for the stub's script, every other key
// alike.
func olderStub(existing, entry *object) bool {
	a, ok1 := existing.get("args").([]any)
	b, ok2 := entry.get("args").([]any)
	if !ok1 || !ok2 || len(a) != len(b) || len(a) < 5 || a[0] != "-c" || b[0] != "-c" || a[2] != StubName || b[2] != StubName {
		return false
	}
	if s, ok := a[1].(string); !ok || s == b[1] {
		return false
	}
	swapped := &object{}
	for _, k := range existing.keys {
		if k == "args" {
			swapped.set(k, append([]any{"-c", b[1]}, a[2:]...))
			continue
		}
		swapped.set(k, existing.vals[k])
	}
	return sameObject(swapped, entry)
}

// legacyStatus answers the status line an init before the footing stub
// wrote: the binary itself, double-quoted, with --statusline.
func legacyStatus(bin string) *object {
	o := &object{}
	o.set("type", "command")
	o.set("command", `"`+bin+`" --statusline`)
	return o
}

// object is a JSON object that keeps its keys' order.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(k string) any { return o.vals[k] }

func (o *object) has(k string) bool { _, ok := o.vals[k]; return ok }

func (o *object) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// decodeObject decodes one JSON object, keeping key order and numbers as
// written.
func decodeObject(data []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not valid JSON: more than one value")
	}
	o, ok := v.(*object)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return o, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("an object key is not a string")
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				if _, dup := o.vals[k]; dup {
					return nil, fmt.Errorf("the key %q appears twice in one object", k)
				}
				o.set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// writeValue renders v with two-space indentation.
func writeValue(b *bytes.Buffer, v any, indent string) {
	switch v := v.(type) {
	case *object:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range v.keys {
			b.WriteString(indent + "  ")
			b.WriteString(quote(k))
			b.WriteString(": ")
			writeValue(b, v.vals[k], indent+"  ")
			if i < len(v.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range v {
			b.WriteString(indent + "  ")
			writeValue(b, e, indent+"  ")
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case string:
		b.WriteString(quote(v))
	case json.Number:
		b.WriteString(v.String())
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	default:
		enc, _ := json.Marshal(v)
		b.Write(enc)
	}
}
