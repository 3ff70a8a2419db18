package spawn

import "testing"

// TestSelfRefusesATestBinary: a Go test binary never stands in for gates
// (it would rerun its suite on a gate's arguments); the built binary and
// the kernel's image link do.
func TestSelfRefusesATestBinary(t *testing.T) {
	for image, refused := range map[string]bool{
		"/tmp/go-build1/b001/cli.test": true,
		"gates.test":                   true,
		"/work/bin/gates":              false,
		"/proc/self/exe":               false,
		"/opt/tests/gates":             false,
	} {
		if err := notTestBinary(image); (err != nil) != refused {
			t.Errorf("notTestBinary(%q) = %v, want refused %v", image, err, refused)
		}
	}
	if _, err := Self(); err == nil {
		t.Fatal("Self() answered this test binary as a program to spawn")
	}
}
