// Package testenv is the one place a test may write this process's
// environment (the pins hold every other file to passing an environment
// instead). It is for a test that proves what the process does with a
// variable only its own environment can carry, such as the PATH os/exec
// looks programs up on.
package testenv

import "testing"

// Setenv sets key to value for the rest of the test and restores it after
// (testing's own Setenv: the test, and its parents, must not be parallel).
func Setenv(t testing.TB, key, value string) {
	t.Helper()
	t.Setenv(key, value)
}
