package harness

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// slimmed runs slim over one JSON text.
func slimmed(t *testing.T, in string) (string, error) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(in))
	dec.UseNumber()
	var b bytes.Buffer
	err := slim(dec, &b, 0, "")
	return b.String(), err
}

// assertion F: only a long string under tool_response, below its top,
// is dropped; a string of exactly the kept size, a long value of another
// kind, a long tool_response that is itself a string, and a long string
// elsewhere are kept. Arrays are read at any depth but the top.
func TestSlimDropsOnlyLongStringsUnderToolResponse(t *testing.T) {
	q := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }
	long := maxKept - 1 // its JSON spelling, quotes and all, is one past the kept size
	for _, c := range []struct {
		in   string
		kept []string
		gone []string
	}{
		{`{"tool_response": {"content": ` + q(long) + `, "filePath": "/a"}}`, []string{`"filePath"`}, []string{`"content"`}},
		{`{"tool_response": {"content": ` + q(maxKept-2) + `}}`, []string{`"content"`}, nil},
		{`{"tool_response": {"list": [` + q(long) + `]}}`, []string{`"list"`}, nil},
		{`{"tool_response": ` + q(long) + `}`, []string{`"tool_response"`}, nil},
		{`{"other": {"content": ` + q(long) + `}}`, []string{`"content"`}, nil},
		{`{"a": [1, "x", [true, null]], "session_id": "s"}`, []string{`"a":[1,"x",[true,null]]`, `"session_id":"s"`}, nil},
	} {
		out, err := slimmed(t, c.in)
		if err != nil {
			t.Errorf("%.60s…: %v", c.in, err)
			continue
		}
		for _, k := range c.kept {
			if !strings.Contains(out, k) {
				t.Errorf("%.60s…: %s dropped: %.120s", c.in, k, out)
			}
		}
		for _, k := range c.gone {
			if strings.Contains(out, k) {
				t.Errorf("%.60s…: %s kept", c.in, k)
			}
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("%.60s…: the slimmed text is no JSON: %v", c.in, err)
		}
	}
	if _, err := slimmed(t, `[1, 2]`); err == nil {
		t.Error("an array at the top was read")
	}
}

// The roster is sorted by name, and one member's knobs are its own.
func TestRosterOrderAndOneMembersKnobs(t *testing.T) {
	names := Names()
	if !sort.StringsAreSorted(names) || len(names) < 2 {
		t.Fatalf("Names() = %v", names)
	}
	for _, n := range names {
		m, _ := Lookup(n)
		want := append([]string(nil), m.Knobs...)
		sort.Strings(want)
		if got := EveryHookKnob(n); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("EveryHookKnob(%s) = %v, want %v", n, got, want)
		}
	}
}
