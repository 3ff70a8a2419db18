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

// TestVerdictSubdirectoryTranscripts: in a consumer, the battery and every
// registered gate print from a nested directory exactly what they print
// at the top, and exit alike: the run enters the top first.
func TestVerdictSubdirectoryTranscripts(t *testing.T) {
	a := newAdopter(t)
	if r := a.runIn("", binPath, "init"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A violation, so the transcripts carry findings as well as clean lines.
	a.write("stray/notes.txt", "a new top-level entry\n")
	a.write("docs/deep/er/page.md", "nested\n")
	a.must("git", "add", "-A")
	a.must("git", "commit", "-q", "--no-verify", "-m", "chore: vendor gate-sdk")
	nested := "docs/deep/er"
	same := func(label string, args ...string) {
		t.Helper()
		top := a.runIn("", binPath, args...)
		sub := a.runIn(nested, binPath, args...)
		if top.code != sub.code || top.stdout != sub.stdout || top.stderr != sub.stderr {
			t.Errorf("%s from %s differs from the top's:\n--- top: exit %d\n%s%s\n--- %s: exit %d\n%s%s",
				label, nested, top.code, top.stdout, top.stderr, nested, sub.code, sub.stdout, sub.stderr)
		}
	}
	same("gates --run", "--run")
	battery := a.runIn("", binPath, "--run")
	if !strings.Contains(battery.stdout, "stray") {
		t.Fatalf("the battery did not judge the top-level entry this test plants:\n%s%s", battery.stdout, battery.stderr)
	}
	var names []string
	for _, l := range strings.Split(a.read("scripts/gates.list"), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			names = append(names, l)
		}
	}
	if len(names) < 10 {
		t.Fatalf("the consumer registers %d gates; the zero-config set this test is about is gone", len(names))
	}
	for _, n := range names {
		same(n, n)
	}
	same("--list", "--list")
	same("--emit kit-roots", "--emit", "kit-roots")
}
