package e2e

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gates"
)

// publisherOnlyNames answers the compiled gates no kit ships a descriptor
// for (owner "" in the table): the publisher's own members.
func publisherOnlyNames(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, d := range gates.All() {
		if d.Owner == "" {
			out = append(out, d.Name)
		}
	}
	if len(out) == 0 {
		t.Fatal("the table holds no publisher-only gate; the case this test is about is gone")
	}
	return out
}

// TestVerdictPublisherOnlyListing: a publisher-only gate is in the
// publisher's --list and completion, and in neither in a fresh consumer,
// where it has no descriptor to run under.
func TestVerdictPublisherOnlyListing(t *testing.T) {
	only := publisherOnlyNames(t)
	a := newAdopter(t)
	if r := a.runIn("", binPath, "init"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	consumerList := a.must(binPath, "--list")
	consumerDone := a.must(binPath, "__complete", "check-")
	consumerHelp := a.must(binPath, "__complete", "help", "check-")
	pub := run(t, moduleRoot, cleanEnv(moduleRoot), binPath, "--list")
	pubDone := run(t, moduleRoot, cleanEnv(moduleRoot), binPath, "__complete", "check-")
	if pub.code != 0 || pubDone.code != 0 {
		t.Fatalf("the publisher's --list / completion: exit %d, %d\n%s%s", pub.code, pubDone.code, pub.stderr, pubDone.stderr)
	}
	has := func(out, name string) bool {
		for _, l := range strings.Split(out, "\n") {
			if l == name || strings.HasPrefix(l, name+"\t") {
				return true
			}
		}
		return false
	}
	for _, n := range only {
		if has(consumerList, n) {
			t.Errorf("a consumer's --list names publisher-only %s", n)
		}
		if has(consumerDone, n) || has(consumerHelp, n) {
			t.Errorf("a consumer's completion offers publisher-only %s", n)
		}
		if !has(pub.stdout, n) {
			t.Errorf("the publisher's --list lacks its own %s", n)
		}
		if !has(pubDone.stdout, n) {
			t.Errorf("the publisher's completion lacks its own %s", n)
		}
	}
	// Every kit-shipped gate stays listed in the consumer.
	for _, d := range gates.All() {
		if d.Owner != "" && !has(consumerList, d.Name) {
			t.Errorf("a consumer's --list lacks shipped %s", d.Name)
		}
	}
}
