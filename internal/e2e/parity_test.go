package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubstrateParityOwnsEachSeamBreak breaks the dispatch seam of a copy
// of this repository three ways and holds each red to the letter owning it.
func TestSubstrateParityOwnsEachSeamBreak(t *testing.T) {
	t.Parallel()
	parity := func(s *scratch) (int, string) { return s.run(nil, binPath, "check-gate-substrate-parity") }

	base := publisherClone(t)
	if code, out := parity(base); code != 0 || !strings.Contains(out, "GATE-SUBSTRATE-PARITY: clean (") {
		t.Fatalf("this repository is not green: exit %d\n%s", code, out)
	}

	cases := []struct {
		name   string
		break_ func(s *scratch)
		want   []string
	}{
		{"a deleted descriptor", func(s *scratch) {
			if err := os.Remove(filepath.Join(s.dir, "kits", "gate-sdk", "checks", "check-exec-bit.gate")); err != nil {
				t.Fatal(err)
			}
		}, []string{"[B] compiled gate check-exec-bit (owner gate-sdk) has no .gate descriptor"}},
		{"a descriptor with no compiled function", func(s *scratch) {
			s.write("kits/gate-sdk/checks/check-not-compiled.gate", "# graph: couples=*.md dir=one valve=none tier=precommit\n# spec: gate-sdk/SPEC.md §check-exec-bit — stand-in\n", 0o644)
		}, []string{"kits/gate-sdk/checks/check-not-compiled.gate: [B] descriptor check-not-compiled names no compiled gate"}},
		{"a registered dispatch the binary lacks", func(s *scratch) {
			s.write("scripts/check-not-compiled.gate", "# graph: couples=*.md dir=one valve=none tier=precommit\n# spec: gate-sdk/SPEC.md §check-exec-bit — stand-in\n", 0o644)
			appendLine(t, filepath.Join(s.dir, "scripts", "gates.list"), "check-not-compiled")
		}, []string{"[I] registered member check-not-compiled dispatches to the binary, which carries no gate of that name"}},
		{"a registered name with no declaration", func(s *scratch) {
			appendLine(t, filepath.Join(s.dir, "scripts", "gates.list"), "check-nowhere")
		}, []string{"[A] registered member check-nowhere resolves to no <name>.sh or <name>.gate"}},
		{"a compiled gate neither registered nor declared", func(s *scratch) {
			path := filepath.Join(s.dir, "scripts", "gates.list")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(data), "check-exec-bit\n", "", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"[I] compiled gate check-exec-bit is in scope but neither registered nor declared # unregistered:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := publisherClone(t)
			tc.break_(s)
			s.git("add", "-A")
			code, out := parity(s)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in\n%s", w, out)
				}
			}
		})
	}
}

func appendLine(t *testing.T, path, line string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}
