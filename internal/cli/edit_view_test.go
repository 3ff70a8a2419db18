package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/testenv"
)

// editGates runs the edit-gates member in process over an Edit of rel,
// through the overlay (full false) or the full view (full true), and
// answers what it printed and whether the overlay was the view judged.
func (l *landedRepo) editGates(rel string, full bool) (string, bool) {
	l.t.Helper()
	return l.editGatesEnv(rel, full, l.env(l.dir))
}

func (l *landedRepo) editGatesEnv(rel string, full bool, env func(string) (string, bool)) (string, bool) {
	l.t.Helper()
	payload, err := json.Marshal(map[string]any{
		"session_id": "s1", "cwd": l.dir, "hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input":    map[string]any{"file_path": filepath.Join(l.dir, rel), "old_string": "a", "new_string": "b"},
		"tool_response": map[string]any{"success": true},
	})
	if err != nil {
		l.t.Fatal(err)
	}
	overlay := false
	editFullView, editViewTaken = full, func(ok bool) { overlay = ok }
	defer func() { editFullView, editViewTaken = false, nil }()
	var out bytes.Buffer
	code := Main([]string{"--hook", "edit-gates"}, IO{Stdin: bytes.NewReader(payload), Stdout: &out, Stderr: &out, Env: env})
	if code != 0 {
		l.t.Fatalf("edit-gates over %s: exit %d\n%s", rel, code, out.String())
	}
	return out.String(), overlay
}

// The overlay edit-gates judges an edit in (the index, the edited file put
// over it) answers what the listing of the index's entries on disk
// answers, wherever the rest of the tree is as the index records it; an
// edit of a rule input, and an index the overlay cannot stand for, take
// the full view. Not parallel: it sets the package's test seams.
func TestEditGatesOverlayAgreesWithTheFullView(t *testing.T) {
	l := newLandedRepo(t)
	leak := "Keep notes in /ho" + "me/marta/notes.\n"
	cases := []struct {
		name    string
		rel     string
		prepare func()
		overlay bool // the overlay is the view judged
		red     string
	}{
		{"clean markdown", "docs/guide.md", func() { l.write("docs/guide.md", "How to use it, now longer.\n") }, true, ""},
		{"a leak in markdown", "docs/guide.md", func() { l.write("docs/guide.md", leak) }, true, "docs/guide.md:1"},
		{"a workflow with a tag pin", ".github/workflows/ci.yml", func() {
			l.write(".github/workflows/ci.yml", "name: ci\non: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n")
		}, true, "check-action-pinning"},
		{"the registry", "scripts/gates.list", func() {
			l.write("scripts/gates.list", "check-tree-terms\ncheck-action-pinning\ncheck-commit-subject\ncheck-commit-msg\n\n")
		}, false, ""},
		{"a knob file", "scripts/gate-sdk-config.knobs", func() { l.write("scripts/gate-sdk-config.knobs", "GATE_SDK_KIT_DIRS = gate-sdk\n\n") }, false, ""},
		{"a pattern list", "scripts/msg-patterns.list", func() {
			l.write("scripts/msg-patterns.list", "(^|[^A-Za-z0-9._-])/(home|Users)/[A-Za-z0-9._-]+/\nuse it\n")
		}, false, "docs/guide.md:1"},
		{"a kit file", "gate-sdk/checks/check-tree-terms.gate", func() {}, false, ""},
		{"an untracked new file with a leak", "docs/new.md", func() { l.write("docs/new.md", leak) }, true, "docs/new.md:1"},
		{"a gitignored file", "notes/private.md", func() {
			l.write("notes/private.md", leak)
			f, err := os.OpenFile(filepath.Join(l.dir, ".git/info/exclude"), os.O_APPEND|os.O_WRONLY, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("/notes/\n")
			f.Close()
		}, true, ""},
		{"a tracked file deleted", "README.md", func() { os.Remove(filepath.Join(l.dir, "README.md")) }, true, ""},
		{"a conflict-free index with an intent-to-add entry", "docs/guide.md", func() {
			l.write("docs/later.md", "later\n")
			l.git(l.dir, "add", "-N", "docs/later.md")
			l.write("docs/guide.md", leak)
		}, false, "docs/guide.md:1"},
	}
	for _, c := range cases {
		// Each case starts from the committed tree.
		l.git(l.dir, "reset", "-q", "--hard")
		l.git(l.dir, "clean", "-qfd", "-e", "scripts/msg-patterns.local.list")
		c.prepare()
		full, _ := l.editGates(c.rel, true)
		fast, overlay := l.editGates(c.rel, false)
		if fast != full {
			t.Errorf("%s: the overlay answers\n%s\nthe full view\n%s", c.name, fast, full)
		}
		if overlay != c.overlay {
			t.Errorf("%s: overlay judged %v, want %v", c.name, overlay, c.overlay)
		}
		if c.red == "" && full != "" || c.red != "" && !strings.Contains(full, c.red) {
			t.Errorf("%s: want %q in the verdict, got\n%s", c.name, c.red, full)
		}
	}
}

// A hook call keeps the result caches its gates filled: the second Edit of
// an unchanged file is answered from them. Not parallel: it sets the
// build's stamp.
func TestEditGatesKeepsItsResultCache(t *testing.T) {
	saved := sourceStamp
	defer func() { sourceStamp = saved }()
	sourceStamp = "edit-gates-cache-test"
	l := newLandedRepo(t)
	env := func(k string) (string, bool) {
		switch k {
		case "GATE_SDK_CACHE":
			return "on", true
		case "GATE_SDK_VERBOSE":
			return "1", true
		}
		return l.env(l.dir)(k)
	}
	l.write("docs/guide.md", "How to use it, edited.\n")
	first, _ := l.editGatesEnv("docs/guide.md", false, env)
	second, _ := l.editGatesEnv("docs/guide.md", false, env)
	if !strings.Contains(first, "TREE-TERMS-SETS 0 hits, 1 misses") || !strings.Contains(second, "TREE-TERMS-SETS 1 hits, 0 misses") {
		t.Fatalf("the second call was not answered from the first one's cache:\nfirst:\n%s\nsecond:\n%s", first, second)
	}
	// The index it read was verified once and recorded, as the hooks'
	// reads record it.
	if _, err := os.Stat(filepath.Join(l.dir, ".git", "gates-cache", "index-verified")); err != nil {
		t.Fatalf("no record of the verified index: %v", err)
	}
}

// assertion D (edit-gates): an Edit of a tracked file starts no git: with
// none on the process's PATH, the overlay still answers, clean and red
// alike. Not parallel: it sets the process's PATH and the package's seams.
func TestEditGatesOverlayStartsNoGit(t *testing.T) {
	l := newLandedRepo(t)
	// os/exec finds git on the process's own PATH, whatever environment
	// the hook is handed: only an empty one proves no git starts.
	testenv.Setenv(t, "PATH", t.TempDir())
	l.write("docs/guide.md", "How to use it, edited.\n")
	if out, overlay := l.editGates("docs/guide.md", false); out != "" || !overlay {
		t.Fatalf("a clean edit with no git on PATH: overlay %v\n%s", overlay, out)
	}
	l.write("docs/guide.md", "Keep notes in /ho"+"me/marta/notes.\n")
	if out, _ := l.editGates("docs/guide.md", false); !strings.Contains(out, "docs/guide.md:1") || strings.Contains(out, "could not run") {
		t.Fatalf("a leak with no git on PATH:\n%s", out)
	}
}

// assertion F (edit-gates): an Edit judged over the overlay starts from
// the overlay the last Edit of the same index was judged in: the members
// that keep whole results take that overlay's and judge the edited paths
// of both again, and the verdict is an uncached overlay's. A new index, or an
// edit that adds or removes a path, starts from none. Not parallel: it
// sets the build's stamp and the package's seams.
func TestEditGatesStartsFromTheLastOverlay(t *testing.T) {
	saved := sourceStamp
	defer func() { sourceStamp = saved }()
	sourceStamp = "edit-gates-prior-test"
	l := newLandedRepo(t)
	cached := func(k string) (string, bool) {
		switch k {
		case "GATE_SDK_CACHE":
			return "on", true
		case "GATE_SDK_VERBOSE":
			return "1", true
		}
		return l.env(l.dir)(k)
	}
	leak := "Keep notes in /ho" + "me/marta/notes.\n"
	verdict := func(out string) string {
		// The verbose lines are the cache's; the rest is the verdict.
		var keep []string
		for _, line := range strings.Split(out, "\n") {
			if !strings.Contains(line, " hits, ") && !strings.HasPrefix(line, "gates: ") {
				keep = append(keep, line)
			}
		}
		return strings.Join(keep, "\n")
	}
	step := func(what, rel string, prior bool) {
		t.Helper()
		got, overlay := l.editGatesEnv(rel, false, cached)
		// The same overlay judged with the cache off: no prior, no kept
		// result.
		want, _ := l.editGates(rel, false)
		if !overlay {
			t.Fatalf("%s: the overlay was not judged", what)
		}
		if verdict(got) != verdict(want) {
			t.Errorf("%s: the overlay from the last one answers\n%s\nuncached\n%s", what, got, want)
		}
		// From the last overlay: this overlay's kept counts miss, the
		// last one's answer (asked twice) and its whole result serve.
		started := strings.Contains(got, "TREE-TERMS-COUNTS 2 hits, 1 misses") && strings.Contains(got, "TREE-TERMS-SETS 1 hits, 0 misses")
		if started != prior {
			t.Errorf("%s: started from the last overlay %v, want %v:\n%s", what, started, prior, got)
		}
	}
	l.write("docs/guide.md", "How to use it, edited.\n")
	step("the first edit", "docs/guide.md", false)
	l.write("docs/guide.md", leak)
	step("a second edit of the file", "docs/guide.md", true)
	l.write("README.md", "# readme, edited\n")
	step("an edit of another file", "README.md", true)
	l.git(l.dir, "add", "README.md")
	l.write("docs/guide.md", "How to use it, clean again.\n")
	step("an edit over a new index", "docs/guide.md", false)
	l.write("docs/new.md", leak)
	step("a new file", "docs/new.md", false)
}
