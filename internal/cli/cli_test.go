package cli

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/failopen"
)

func TestNormalizeEmit(t *testing.T) {
	got, err := normalize("run-gates", []string{"--emit", "kit-roots", "x"})
	if err != nil || !reflect.DeepEqual(got, []string{"--emit-kit-roots", "x"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := normalize("run-gates", []string{"--emit", "nope"}); err == nil || !strings.Contains(err.Error(), "kit-roots") {
		t.Fatalf("unknown emit name: %v", err)
	}
	if _, err := normalize("run-gates", []string{"--emit"}); err == nil {
		t.Fatal("--emit with no name must refuse")
	}
	if got, _ := normalize("run-gates", []string{"--run", "--emit"}); !reflect.DeepEqual(got, []string{"--run", "--emit"}) {
		t.Fatalf("only a leading --emit is rewritten: %q", got)
	}
}

func TestParseRunArgs(t *testing.T) {
	cases := []struct {
		args    []string
		want    runArgs
		help    bool
		refusal string
	}{
		{args: nil},
		{args: []string{"-h"}, help: true},
		{args: []string{"scripts2"}, want: runArgs{gatesDir: "scripts2"}},
		{args: []string{"--", "-odd"}, want: runArgs{gatesDir: "-odd"}},
		{args: []string{"--for", "a.md", "b.md"}, want: runArgs{hasFor: true, forPaths: []string{"a.md", "b.md"}}},
		{args: []string{"--only", "b", "a", "--", "x", "-y"}, want: runArgs{hasOnly: true, only: []string{"b", "a"}, dashDash: true, forward: []string{"x", "-y"}}},
		{args: []string{"--only"}, refusal: "--only needs at least one gate name"},
		{args: []string{"--for"}, refusal: "--for needs at least one path"},
		{args: []string{"--only", "--for"}, refusal: "unrecognized option '--for'"},
		{args: []string{"--bogus"}, refusal: "unrecognized option '--bogus'"},
		{args: []string{"a", "b"}, refusal: "unexpected operand 'b'"},
	}
	for _, c := range cases {
		got, help, err := parseRunArgs("run-gates", c.args)
		if c.refusal != "" {
			if _, ok := err.(usageError); !ok || !strings.Contains(err.Error(), c.refusal) {
				t.Errorf("%q: err %v, want usage refusal %q", c.args, err, c.refusal)
			}
			continue
		}
		if !c.help {
			c.want.format = formatText
		}
		if err != nil || help != c.help || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v help=%v err=%v, want %+v", c.args, got, help, err, c.want)
		}
	}
}

func TestEveryArmRowIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range armTable() {
		if !strings.HasPrefix(a.Flag, "--") || a.Main == nil || a.Summary == "" {
			t.Errorf("incomplete arm row %+v", a)
		}
		if seen[a.Flag] {
			t.Errorf("arm %s listed twice", a.Flag)
		}
		seen[a.Flag] = true
	}
	if got := FailOpenArms(); !reflect.DeepEqual(got, []string{"--hook", "--statusline"}) {
		t.Fatalf("fail-open set %q", got)
	}
}

// The arm table's FailOpen flags and internal/failopen (which
// check-front-end-fail-open reads, a rule importing no command line) name
// one set: a renamed or dropped arm reds here first.
func TestFailOpenSetIsTheArmTables(t *testing.T) {
	got := FailOpenArms()
	sort.Strings(got)
	if want := failopen.Arms(); !reflect.DeepEqual(got, want) {
		t.Fatalf("arm table's fail-open arms %q, internal/failopen.Arms() %q", got, want)
	}
	for _, name := range failopen.Arms() {
		found := false
		for _, a := range armTable() {
			if a.Flag == name {
				found = true
			}
		}
		if !found {
			t.Errorf("fail-open arm %s is no arm-table row", name)
		}
	}
}

func TestPublishedURL(t *testing.T) {
	got := publishedURL("https://example.org/docs/", "gate-sdk/SPEC.md §check-tree-terms")
	if got != "https://example.org/docs/gate-sdk/SPEC.md#check-tree-terms" {
		t.Fatal(got)
	}
}
