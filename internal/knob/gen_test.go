package knob

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/gate-sdk/gates/kits"
)

// TestGeneratedTablesAreCurrent holds tables_gen.go to what the generator
// writes from today's embedded tables.
func TestGeneratedTablesAreCurrent(t *testing.T) {
	all, err := kits.All()
	if err != nil {
		t.Fatal(err)
	}
	want, err := GeneratedSource(all)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("tables_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("internal/knob/tables_gen.go is not what the embedded knob tables generate; run make kit-manifest")
	}
	if len(generatedTables) != len(all) {
		t.Fatalf("%d generated tables for %d embedded", len(generatedTables), len(all))
	}
}

// TestGeneratedTablesBuildAsDecoded: each generated value builds the
// table its TOML builds, and a table whose bytes changed is decoded, not
// served from the generated value.
func TestGeneratedTablesBuildAsDecoded(t *testing.T) {
	all, err := kits.All()
	if err != nil {
		t.Fatal(err)
	}
	served, err := DefaultTables()
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range all {
		src := "kits/" + k.Kit + "/knobs.toml"
		decoded, err := ParseTable(src, k.Data)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := generatedTables[k.Kit]
		if !ok || g.sum != tableSum(k.Data) {
			t.Fatalf("%s: no generated table for these bytes", src)
		}
		built, err := buildTable(src, g.raw)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(built, decoded) || !reflect.DeepEqual(served[i], decoded) {
			t.Fatalf("%s: the generated table builds differently from its TOML", src)
		}
		edited := append(append([]byte(nil), k.Data...), "\n[[retired]]\nname = \"GATE_SDK_NOT_A_KNOB\"\nnote = \"gone\"\n"...)
		if k.Kit != kits.Core {
			continue
		}
		fresh, err := embeddedTable(k.Kit, edited)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := fresh.retired["GATE_SDK_NOT_A_KNOB"]; !ok {
			t.Fatal("a table whose bytes changed was served from the generated value")
		}
	}
}
