package payload

// Unit tests of init's baseline step: when init may write the baseline,
// and what it accepts of today's findings.

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/baseline"
)

// writeFile writes data at rel under top, making the parents.
func writeFile(t *testing.T, top, rel, data string) {
	t.Helper()
	p := filepath.Join(top, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readFile answers the text at rel under top ("" and false when absent).
func readFile(t *testing.T, top, rel string) (string, bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data), true
}

func TestBaselineIsInits(t *testing.T) {
	const body = "# a baseline\n"
	other := &Lock{Files: []LockFile{{Path: "scripts/other", SHA256: Digest([]byte(body))}}}
	tests := []struct {
		name    string
		on      string // the file's text; "" none, "DIR" a directory
		lock    *Lock
		want    bool
		wantErr string
	}{
		{"none yet", "", nil, true, ""},
		{"init's own, unedited", body, &Lock{Files: []LockFile{{Path: "scripts/gates.baseline", SHA256: Digest([]byte(body))}}}, true, ""},
		{"init's own, edited", body + "x\n", &Lock{Files: []LockFile{{Path: "scripts/gates.baseline", SHA256: Digest([]byte(body))}}}, false, ""},
		{"the adopter's", body, other, false, ""},
		{"no lock", body, nil, false, ""},
		{"unreadable", "DIR", nil, false, "init: cannot read scripts/gates.baseline: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			switch tc.on {
			case "":
			case "DIR":
				if err := os.MkdirAll(filepath.Join(top, "scripts", "gates.baseline"), 0o755); err != nil {
					t.Fatal(err)
				}
			default:
				writeFile(t, top, "scripts/gates.baseline", tc.on)
			}
			got, err := baselineIsInits(&InitWorld{Top: top}, &Plan{GatesDir: "scripts"}, tc.lock)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) || got {
					t.Fatalf("got %v, %v; want the refusal %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func entry(gate, path, class, digest string, count int) baseline.Entry {
	return baseline.Entry{Key: baseline.Key{Gate: gate, Path: path, Class: class, Digest: digest}, Count: count}
}

func TestAcceptToday(t *testing.T) {
	d1, d2, d3 := strings.Repeat("a", 16), strings.Repeat("b", 16), strings.Repeat("c", 16)
	now := baseline.Format([]baseline.Entry{
		entry("check-a", "x.txt", "A", d1, 2),
		entry("check-graph", "", graphStaleClass, d2, 1),
		entry("check-graph", "", "B", d3, 1),
	})
	committed := baseline.Format([]baseline.Entry{
		entry("check-a", "x.txt", "A", d1, 3),
		entry("check-a", "y.txt", "A", d2, 1),
	})
	world := func(top string, asked *[]bool) *InitWorld {
		return &InitWorld{Top: top, Baseline: func(asCommitted bool) ([]byte, error) {
			*asked = append(*asked, asCommitted)
			if asCommitted {
				return committed, nil
			}
			return now, nil
		}}
	}
	t.Run("red gates accepted from both trees", func(t *testing.T) {
		top := t.TempDir()
		var asked []bool
		next := &Lock{}
		counts, err := acceptToday(world(top, &asked), &Plan{GatesDir: "scripts"}, []string{"check-a"}, next)
		if err != nil {
			t.Fatal(err)
		}
		if want := []bool{false, true}; !reflect.DeepEqual(asked, want) {
			t.Errorf("asked %v, want %v", asked, want)
		}
		// The larger count of each key, the stale page left out.
		if want := map[string]int{"check-a": 4, "check-graph": 1}; !reflect.DeepEqual(counts, want) {
			t.Errorf("counts %v, want %v", counts, want)
		}
		got, ok := readFile(t, top, "scripts/gates.baseline")
		want := string(baseline.Format([]baseline.Entry{
			entry("check-a", "x.txt", "A", d1, 3),
			entry("check-a", "y.txt", "A", d2, 1),
			entry("check-graph", "", "B", d3, 1),
		}))
		if !ok || got != want {
			t.Errorf("baseline written:\n%s\nwant:\n%s", got, want)
		}
		if rec, ok := next.file("scripts/gates.baseline"); !ok || rec.SHA256 != Digest([]byte(want)) || rec.Class != classSeed {
			t.Errorf("lock records %+v %v", rec, ok)
		}
	})
	t.Run("nothing red writes nothing", func(t *testing.T) {
		top := t.TempDir()
		var asked []bool
		next := &Lock{}
		counts, err := acceptToday(world(top, &asked), &Plan{GatesDir: "scripts"}, nil, next)
		if err != nil || counts != nil || len(asked) != 0 || len(next.Files) != 0 {
			t.Fatalf("counts %v err %v asked %v lock %+v", counts, err, asked, next.Files)
		}
		if _, ok := readFile(t, top, "scripts/gates.baseline"); ok {
			t.Error("a baseline was written")
		}
	})
	t.Run("no baseline runner writes nothing", func(t *testing.T) {
		top := t.TempDir()
		counts, err := acceptToday(&InitWorld{Top: top}, &Plan{GatesDir: "scripts"}, []string{"check-a"}, &Lock{})
		if err != nil || counts != nil {
			t.Fatalf("counts %v err %v", counts, err)
		}
		if _, ok := readFile(t, top, "scripts/gates.baseline"); ok {
			t.Error("a baseline was written")
		}
	})
	t.Run("a failing run refuses", func(t *testing.T) {
		top := t.TempDir()
		w := &InitWorld{Top: top, Baseline: func(bool) ([]byte, error) { return nil, errors.New("boom") }}
		_, err := acceptToday(w, &Plan{GatesDir: "scripts"}, []string{"check-a"}, &Lock{})
		if err == nil || err.Error() != "init: gates baseline: boom" {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("a malformed file refuses", func(t *testing.T) {
		top := t.TempDir()
		w := &InitWorld{Top: top, Baseline: func(bool) ([]byte, error) { return []byte("not a line\n"), nil }}
		_, err := acceptToday(w, &Plan{GatesDir: "scripts"}, []string{"check-a"}, &Lock{})
		if err == nil || !strings.HasPrefix(err.Error(), "scripts/gates.baseline:1:") {
			t.Fatalf("err %v", err)
		}
	})
}
