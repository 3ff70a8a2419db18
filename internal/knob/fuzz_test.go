package knob

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/kits"
)

// FuzzResolveKnobFile: a tracked knob file of any content either resolves
// every gate-sdk knob or is refused with findings that each name the file
// and one of its lines; nothing panics and nothing else escapes.
func FuzzResolveKnobFile(f *testing.F) {
	for _, seed := range []string{
		"GATE_SDK_JOB_REF_PATTERNS[] = 1\nGATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_CRATE_TARGET_LINT_CMD\n",
		"GATE_SDK_CRATE_TARGET_LINT_CMD[] <- GATE_SDK_JOB_REF_PATTERNS\nGATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_PROGRAM_FLOOR\n",
		"GATE_SDK_RELEASE_SECTIONS[] = brief: x\nGATE_SDK_RELEASE_SECTION_ALIASES[] = brief: x\n",
		"GATE_SDK_PAYLOAD_RECIPES[a] = b\nGATE_SDK_PAYLOAD_RECIPES =\n",
		"GATE_SDK_UPDATE_CHECK = off\nGATE_SDK_TMP_DIR =\nGATE_SDK_JOBS = 1\n",
		"GATE_SDK_NATIVE_CRATE = ///\nGATE_SDK_GRAPH_THEME = x\nCANON_KIT_X = 1\n",
	} {
		f.Add([]byte(seed))
	}
	tables, err := DefaultTables()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	if err := os.MkdirAll(dir+"/scripts", 0o755); err != nil {
		f.Fatal(err)
	}
	file := "scripts/gate-sdk-config.knobs"
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(dir+"/"+file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		e := env{}
		s, err := Load(Options{Dir: dir, Lookup: e.lookup, Tables: tables, AbsAgainst: absAgainst})
		if err != nil {
			t.Fatal(err)
		}
		nlines := strings.Count(string(data), "\n") + 1
		for _, r := range tables[0].Rows {
			v, err := s.Resolve(r.Name)
			if err == nil {
				if v.Shape != r.Shape {
					t.Fatalf("%s resolved as %s", r.Name, v.Shape)
				}
				continue
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || len(ce.Findings) == 0 {
				t.Fatalf("%s: refusal is not a ConfigError with findings: %v", r.Name, err)
			}
			for _, fd := range ce.Findings {
				if fd.File != file || fd.Line < 1 || fd.Line > nlines {
					t.Fatalf("finding %q names no line of the file", fd.Error())
				}
			}
		}
	})
}

// FuzzParseTable: a knob table of any content is either refused or loads,
// and a loaded table renders its roster without panicking.
func FuzzParseTable(f *testing.F) {
	all, err := kits.All()
	if err != nil {
		f.Fatal(err)
	}
	for _, k := range all {
		f.Add(k.Data)
	}
	for _, name := range []string{"canon-kit", "evidence-kit", "drift-kit"} {
		data, err := os.ReadFile("../../testdata/knob/" + name + ".toml")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("[kit]\nname = \"x-kit\"\nprefix = \"X_KIT\"\n[[knob]]\nname = \"X_KIT_A\"\nshape = \"scalar\"\nderive = \"{GATE_SDK_GATES_DIR}/{X_KIT_B}{@exe}\"\nreads = [\"GATE_SDK_GATES_DIR\", \"X_KIT_B\"]\ndescription = \"d\"\n[[knob]]\nname = \"X_KIT_B\"\nshape = \"scalar\"\ndefault = \".\"\ndescription = \"d\"\n"))
	core, err := DefaultTables()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := ParseTable("fuzz", data)
		if err != nil {
			return
		}
		set := append([]*Table{core[0]}, tb)
		if tb.Name == "gate-sdk" {
			set = []*Table{tb}
		}
		if CheckTables(set) != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteRoster(&b, set); err != nil {
			t.Fatalf("a checked table set failed to render: %v", err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if strings.Count(l, "\t") < 2 {
				t.Fatalf("roster line %q lacks its fields", l)
			}
		}
	})
}
