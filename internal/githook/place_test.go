package githook

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

func names(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// setup makes a hooks dir holding both hooks (old content) and a source.
func setup(t *testing.T) (dir, src string, p *Placer, report *bytes.Buffer) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "gate-hooks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{PreCommit, CommitMsg} {
		if err := os.WriteFile(filepath.Join(dir, h), []byte("old "+h), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src = filepath.Join(root, "gates")
	if err := os.WriteFile(src, []byte("new binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	report = &bytes.Buffer{}
	p, err := NewPlacer(dir, report)
	if err != nil {
		t.Fatal(err)
	}
	p.verify = func(string) error { return nil } // the sources here are text
	return dir, src, p, report
}

func TestPlaceCopiesAndReplaces(t *testing.T) {
	dir, src, p, _ := setup(t)
	for i := 0; i < 2; i++ { // the second run re-places over the first run's copies
		for _, h := range []string{PreCommit, CommitMsg} {
			if err := p.Place(src, h); err != nil {
				t.Fatal(err)
			}
		}
		if got := names(t, dir); got != "commit-msg pre-commit" {
			t.Fatalf("run %d: dir holds %q; a sibling was left", i, got)
		}
	}
	a, _ := os.Stat(src)
	for _, h := range []string{PreCommit, CommitMsg} {
		hook := filepath.Join(dir, h)
		fi, err := os.Stat(hook)
		if err != nil {
			t.Fatal(err)
		}
		// assertion D: never a shared inode with the binary.
		if os.SameFile(a, fi) {
			t.Fatalf("%s shares the binary's inode", h)
		}
		if read(t, hook) != "new binary" || fi.Mode().Perm()&0o111 == 0 {
			t.Fatalf("%s: content %q mode %v", h, read(t, hook), fi.Mode())
		}
	}
	// Emptying the binary leaves the placed hooks whole.
	if err := os.Truncate(src, 0); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dir, PreCommit)) != "new binary" {
		t.Fatal("truncating the binary emptied the hook")
	}
}

// TestPlaceRefusesACopyThatDoesNotAnswer pins the handshake gate: a copy
// that does not answer as the gates binary never replaces the hook.
func TestPlaceRefusesACopyThatDoesNotAnswer(t *testing.T) {
	dir, src, p, _ := setup(t)
	p.verify = func(string) error { return errors.New(`it answered ""`) }
	err := p.Place(src, PreCommit)
	if err == nil || !strings.Contains(err.Error(), "does not answer as the gates binary") {
		t.Fatalf("err = %v", err)
	}
	if got := names(t, dir); got != "commit-msg pre-commit" || read(t, filepath.Join(dir, PreCommit)) != "old pre-commit" {
		t.Fatalf("a refused copy touched the hooks: %q", got)
	}
}

func TestPlaceFromAbsentSourceTouchesNothing(t *testing.T) {
	dir, src, p, _ := setup(t)
	if err := os.Remove(src); err != nil {
		t.Fatal(err)
	}
	err := p.Place(src, PreCommit)
	var pe *PlaceError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a PlaceError", err)
	}
	if got := names(t, dir); got != "commit-msg pre-commit" {
		t.Fatalf("dir holds %q after a failed placement", got)
	}
	if read(t, filepath.Join(dir, PreCommit)) != "old pre-commit" {
		t.Fatal("the hook changed under a failed placement")
	}
}

func TestPlaceRefusesExistingSibling(t *testing.T) {
	dir, src, p, _ := setup(t)
	sib := p.Sibling(PreCommit)
	if err := os.WriteFile(sib, []byte("another placement's"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := p.Place(src, PreCommit)
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("err = %v, want a refusal naming the existing sibling", err)
	}
	if read(t, sib) != "another placement's" || read(t, filepath.Join(dir, PreCommit)) != "old pre-commit" {
		t.Fatal("the sibling or the hook was touched")
	}
}

func TestPlaceFailedRenameRemovesSiblingAndReports(t *testing.T) {
	dir, src, p, report := setup(t)
	p.rename = func(string, string) error { return errors.New("text file busy") }
	err := p.Place(src, PreCommit)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, PreCommit)) {
		t.Fatalf("err = %v, want a refusal naming the hook", err)
	}
	if got := names(t, dir); got != "commit-msg pre-commit" || read(t, filepath.Join(dir, PreCommit)) != "old pre-commit" {
		t.Fatalf("after a failed rename: dir %q", got)
	}
	// A removal that fails is reported with the sibling's path.
	p.remove = func(string) error { return errors.New("permission denied") }
	if err := p.Place(src, PreCommit); err == nil {
		t.Fatal("want a refusal")
	}
	if !strings.Contains(report.String(), p.Sibling(PreCommit)) {
		t.Fatalf("report %q does not name the sibling", report.String())
	}
}

func TestPlacerRunNamesDiffer(t *testing.T) {
	a, err := NewPlacer("/h", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewPlacer("/h", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Sibling(PreCommit) == b.Sibling(PreCommit) {
		t.Fatal("two runs in one process drew the same sibling name")
	}
	if a.Sibling(PreCommit) == a.Sibling(CommitMsg) {
		t.Fatal("one run's two hooks share a sibling name")
	}
	if !strings.Contains(a.Sibling(PreCommit), "."+strconv.Itoa(os.Getpid())+".") {
		t.Fatalf("sibling %q does not carry the process id", a.Sibling(PreCommit))
	}
}

func TestHandshake(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := script("good", "#!/bin/sh\n[ \"$1\" = --handshake ] && printf 'gates-handshake %s\\n' \"$2\"\n")
	if err := Handshake(good); err != nil {
		t.Fatalf("a file answering the handshake: %v", err)
	}
	for name, body := range map[string]string{
		"empty":  "",
		"silent": "#!/bin/sh\nexit 0\n",
		"fixed":  "#!/bin/sh\necho gates-handshake 0000\n",
		"failer": "#!/bin/sh\nexit 3\n",
	} {
		if err := Handshake(script(name, body)); err == nil {
			t.Errorf("%s answered the handshake", name)
		}
	}
	if err := Handshake(filepath.Join(dir, "absent")); err == nil {
		t.Error("an absent file answered the handshake")
	}
}

// assertion M: a placement file left by a killed run is removed by the next
// one; a fresh one (a placement that may still be running) and the hooks
// themselves are left.
func TestSweepRemovesStalePlacementFiles(t *testing.T) {
	dir, src, p, _ := setup(t)
	stale := filepath.Join(dir, ".pre-commit."+strconv.Itoa(os.Getpid())+".abcdef.placing")
	fresh := filepath.Join(dir, ".commit-msg."+strconv.Itoa(os.Getpid())+".012345.placing")
	// A young file whose process is gone (a killed install) is swept too.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	orphan := filepath.Join(dir, ".pre-commit."+strconv.Itoa(dead.Process.Pid)+".fedcba.placing")
	if err := os.WriteFile(orphan, []byte("half"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{stale, fresh} {
		if err := os.WriteFile(f, []byte("half a binary"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	got := p.Sweep()
	sort.Strings(got)
	want := []string{filepath.Base(orphan), filepath.Base(stale)}
	sort.Strings(want)
	if runtime.GOOS != "windows" && strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("swept %v, want %v", got, want)
	}
	if got := names(t, dir); got != filepath.Base(fresh)+" commit-msg pre-commit" {
		t.Fatalf("left %q", got)
	}
	if err := p.Place(src, PreCommit); err != nil {
		t.Fatal(err)
	}
}
