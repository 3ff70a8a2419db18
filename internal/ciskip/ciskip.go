// Package ciskip is how a test that needs a program (or a platform
// facility) the machine lacks steps aside: a skip on a contributor's
// machine, a failure under CI=true, where .ci/tools installs every program
// the tests need, so a tool that did not install cannot leave a test unrun
// under a green build. A skip CI may take is on the allowlist below, with
// why the test cannot run there.
package ciskip

import (
	"os"
	"testing"
)

// Exempt names each missing thing CI may skip for, with why the test
// cannot run there. A key not listed fails its test under CI=true.
var Exempt = map[string]string{
	// The corpus test downloads five pinned modules once; the proxy is a
	// network service, not a program .ci/tools can install.
	"module-proxy": "the Go module proxy is a network service outside the runner; an outage is not the tree's",
	// Under check-crate-arms the suites arm runs every fixture suite of
	// the repository beside the test arm, so the e2e test that would run
	// them again defers to it: the work is done in the same run.
	"crate-arms-suites": "check-crate-arms runs every fixture suite in its own arm of the same run",
}

// T is what Missing needs of a test.
type T interface {
	Helper()
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Missing ends a test that cannot run because key (a program, a package,
// a facility) is missing here; reason says what and how to get it. Under
// CI=true it fails the test unless Exempt names key.
func Missing(t T, key, reason string) {
	t.Helper()
	missingIn(t, os.Getenv("CI") == "true", key, reason)
}

// missingIn is Missing with CI's presence given.
func missingIn(t T, ci bool, key, reason string) {
	t.Helper()
	if !ci {
		t.Skipf("SKIP: %s", reason)
		return
	}
	if why, ok := Exempt[key]; ok {
		t.Skipf("SKIP (allowed in CI: %s): %s", why, reason)
		return
	}
	t.Fatalf("under CI=true a missing %s fails the test (.ci/tools must install it, or ciskip.Exempt must say why CI cannot run it): %s", key, reason)
}

var _ T = (*testing.T)(nil)
