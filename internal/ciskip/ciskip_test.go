package ciskip

import (
	"fmt"
	"strings"
	"testing"
)

// fakeT records how Missing ended the test.
type fakeT struct{ skipped, fatal string }

func (f *fakeT) Helper()                           {}
func (f *fakeT) Skipf(format string, args ...any)  { f.skipped = fmt.Sprintf(format, args...) }
func (f *fakeT) Fatalf(format string, args ...any) { f.fatal = fmt.Sprintf(format, args...) }

func TestMissingSkipsOutsideCI(t *testing.T) {
	f := &fakeT{}
	missingIn(f, false, "chromium", "no chromium on PATH")
	if f.fatal != "" || f.skipped != "SKIP: no chromium on PATH" {
		t.Fatalf("outside CI: skipped %q fatal %q", f.skipped, f.fatal)
	}
}

func TestMissingFailsUnderCI(t *testing.T) {
	f := &fakeT{}
	missingIn(f, true, "chromium", "no chromium on PATH")
	if f.skipped != "" || !strings.Contains(f.fatal, "under CI=true a missing chromium fails the test") || !strings.Contains(f.fatal, "no chromium on PATH") {
		t.Fatalf("under CI: skipped %q fatal %q", f.skipped, f.fatal)
	}
}

func TestMissingSkipsUnderCIWhenExempt(t *testing.T) {
	f := &fakeT{}
	missingIn(f, true, "module-proxy", "the proxy cannot serve m@v1")
	if f.fatal != "" || !strings.Contains(f.skipped, "allowed in CI: "+Exempt["module-proxy"]) {
		t.Fatalf("an exempt key under CI: skipped %q fatal %q", f.skipped, f.fatal)
	}
	for k, why := range Exempt {
		if strings.TrimSpace(why) == "" {
			t.Errorf("Exempt[%q] names no reason", k)
		}
	}
}
