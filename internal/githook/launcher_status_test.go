package githook

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every status --git-hook answers (0 pass, 1 findings, 2 could not run)
// is the hook's own status, passed through with nothing added; any other
// refuses the commit naming the binary.
func TestLaunchPassesEveryVerdictStatus(t *testing.T) {
	dir := t.TempDir()
	stub := filepath.Join(dir, "stub")
	for _, status := range []int{0, 1, 2, 3, 125, 255} {
		body := fmt.Sprintf("#!/bin/sh\necho verdict\nexit %d\n", status)
		if err := os.WriteFile(stub, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		var out, errb strings.Builder
		code := Launch(PreCommit, nil, LaunchInput{Dir: dir, Env: envOf("GATE_SDK_NATIVE_BIN=stub"), Stdout: &out, Stderr: &errb})
		if status <= 2 {
			if code != status || errb.Len() != 0 || out.String() != "verdict\n" {
				t.Errorf("exit %d: code %d stdout %q stderr %q", status, code, out.String(), errb.String())
			}
			continue
		}
		if code != 2 || !strings.Contains(errb.String(), fmt.Sprintf("status %d", status)) || !strings.Contains(errb.String(), stub) {
			t.Errorf("exit %d: code %d stderr %q", status, code, errb.String())
		}
	}
}

// The launcher's knob is found under a gates directory however it is
// spelled (".", a trailing slash), in a CRLF file, and with no
// environment at all.
func TestReadNativeBinSpellings(t *testing.T) {
	for _, c := range []struct {
		gatesDir, file, body, want, origin string
	}{
		{".", "gate-sdk-config.knobs", "GATE_SDK_NATIVE_BIN = top/gates\n", "top/gates", "gate-sdk-config.knobs"},
		{"ci/", "ci/gate-sdk-config.knobs", "GATE_SDK_NATIVE_BIN = ci/gates\n", "ci/gates", "ci/gate-sdk-config.knobs"},
		{"", "scripts/gate-sdk-config.knobs", "# gates\r\nGATE_SDK_NATIVE_BIN = crlf/gates\r\n", "crlf/gates", "scripts/gate-sdk-config.knobs"},
		{"", "scripts/gate-sdk-config.local.knobs", "X = 1\n  GATE_SDK_NATIVE_BIN=local\n", "local", "scripts/gate-sdk-config.local.knobs"},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, c.file)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		var env Lookup
		if c.gatesDir != "" {
			env = envOf("GATE_SDK_GATES_DIR=" + c.gatesDir)
		}
		got, err := ReadNativeBin(dir, env)
		if err != nil || got.Value != c.want || got.Origin != c.origin {
			t.Errorf("gates dir %q, %s: %+v %v; want %q from %q", c.gatesDir, c.file, got, err, c.want, c.origin)
		}
	}
	if got, err := ReadNativeBin(t.TempDir(), nil); err != nil || got.Value != DefaultNativeBin() || got.Origin != "default" {
		t.Errorf("no environment: %+v %v", got, err)
	}
}
