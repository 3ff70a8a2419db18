package payload

// Unit tests of `gates doctor` as a whole: what it prints and its exit
// over a synthetic install (a temporary tree, a fake hook state).

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeHooks is a HookState over fields; failing names the one method that
// answers an error.
type fakeHooks struct {
	dir, val string
	set      bool
	foreign  string
	rec      *HookRecord
	failing  string
	// What the install and the reversal did to it.
	saved   *HookRecord
	dropped bool
	setTo   []string
}

func (h *fakeHooks) fail(m string) error {
	if h.failing == m {
		return errors.New(m + " failed")
	}
	return nil
}

func (h *fakeHooks) HooksPath() (string, bool, error) {
	return h.val, h.set, h.fail("HooksPath")
}

func (h *fakeHooks) SetHooksPath(v string, set bool) error {
	if err := h.fail("SetHooksPath"); err != nil {
		return err
	}
	if set {
		h.setTo = append(h.setTo, "set "+v)
	} else {
		h.setTo = append(h.setTo, "unset")
	}
	h.val, h.set = v, set
	return nil
}

func (h *fakeHooks) HooksDir() (string, error) { return h.dir, h.fail("HooksDir") }
func (h *fakeHooks) Foreign() (string, error)  { return h.foreign, h.fail("Foreign") }
func (h *fakeHooks) Record() (*HookRecord, error) {
	return h.rec, h.fail("Record")
}

func (h *fakeHooks) SaveRecord(r *HookRecord) error {
	if err := h.fail("SaveRecord"); err != nil {
		return err
	}
	h.saved, h.rec = r, r
	return nil
}

func (h *fakeHooks) DropRecord() error {
	if err := h.fail("DropRecord"); err != nil {
		return err
	}
	h.dropped, h.rec = true, nil
	return nil
}

// doctorTree answers a tree holding the binary bin/gates, a lock stamped
// stamp (none when ""), and the hooks placed in .githooks (the names in
// hooks; "stale:<name>" places other bytes).
func doctorTree(t *testing.T, stamp string, hooks ...string) (string, *fakeHooks) {
	t.Helper()
	top := t.TempDir()
	writeFile(t, top, "bin/gates", "the binary")
	if stamp != "" {
		l := &Lock{Version: LockVersion, Kit: "gate-sdk", KitRoot: "gate-sdk", KitVersion: stamp}
		writeFile(t, top, "scripts/gates.lock", string(l.Encode()))
	}
	dir := filepath.ToSlash(filepath.Join(top, ".githooks"))
	if len(hooks) > 0 {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range hooks {
		body := "the binary"
		if name, ok := strings.CutPrefix(h, "stale:"); ok {
			h, body = name, "an older binary"
		}
		writeFile(t, top, ".githooks/"+h, body)
	}
	return top, &fakeHooks{dir: dir, val: dir, set: len(hooks) > 0}
}

func doctorWorld(top string, h *fakeHooks, members []DoctorMember, left []DoctorLeftOut, knobs map[string]string) (*DoctorWorld, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &DoctorWorld{
		Top: top, Stdout: &out, Stderr: &errb,
		Members: func() ([]DoctorMember, []DoctorLeftOut, error) { return members, left, nil },
		Knob: func(n string) (string, error) {
			if n == "BROKEN" {
				return "", errors.New("knob BROKEN unreadable")
			}
			return knobs[n], nil
		},
		OnPath:   func(p string) bool { return p == "sh" },
		Hooks:    h,
		Bin:      "bin/gates",
		Stamp:    "v1",
		LockPath: "scripts/gates.lock",
	}, &out, &errb
}

func TestRunDoctorArguments(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"x", "--help"}} {
		w, out, errb := doctorWorld(t.TempDir(), &fakeHooks{}, nil, nil, nil)
		if code := RunDoctor(args, w); code != 0 || out.String() != DoctorUsage+"\n" || errb.Len() != 0 {
			t.Errorf("%q: exit %d out %q err %q", args, code, out, errb)
		}
	}
	w, out, errb := doctorWorld(t.TempDir(), &fakeHooks{}, nil, nil, nil)
	if code := RunDoctor([]string{"x", "y"}, w); code != 2 || out.Len() != 0 || errb.String() != "doctor: unexpected argument \"x\"\n"+DoctorUsage+"\n" {
		t.Errorf("exit %d out %q err %q", code, out, errb)
	}
}

func TestRunDoctorClean(t *testing.T) {
	top, h := doctorTree(t, "v1", "pre-commit", "commit-msg")
	w, out, _ := doctorWorld(top, h, []DoctorMember{{Name: "check-a", ArmedBy: []string{"SET"}, Programs: []string{"sh"}}}, nil, map[string]string{"SET": "x"})
	if code := RunDoctor(nil, w); code != 0 {
		t.Errorf("exit %d", code)
	}
	want := "doctor: note: hooks placed in " + h.dir + " and matching bin/gates\n" +
		"DOCTOR: clean (every registered gate is armed, its programs present, the hooks and the kit match the binary)\n"
	if out.String() != want {
		t.Errorf("out:\n%s\nwant:\n%s", out, want)
	}
}

func TestRunDoctorAdviceAndNotes(t *testing.T) {
	top, h := doctorTree(t, "")
	members := []DoctorMember{
		{Name: "check-a", ArmedBy: []string{"EMPTY"}},
		{Name: "check-b", ArmedBy: []string{"LISTS"}, Content: true},
		{Name: "check-c", ArmedBy: []string{"SET"}},
		{Name: "check-d"},
	}
	left := []DoctorLeftOut{
		{Name: "check-x", Reason: "zero-config: it judges gates"},
		{Name: "check-y", Reason: ""},
		{Name: "check-z", Reason: "on-surface: it judges gates"},
	}
	writeFile(t, top, "empty.list", "# nothing\n")
	w, out, _ := doctorWorld(top, h, members, left, map[string]string{"LISTS": "empty.list", "SET": "on"})
	w.Baseline = func() ([]string, []string, error) { return []string{"baseline accepts 2 of check-a"}, nil, nil }
	if code := RunDoctor(nil, w); code != 0 {
		t.Errorf("exit %d", code)
	}
	want := "doctor: note: not registered (it judges gates): check-x, check-z\n" +
		"doctor: note: not registered (no reason given on its line): check-y\n" +
		"doctor: note: the gates hooks are not placed in this clone (core.hooksPath is unset); `gates init --hooks` places them\n" +
		"doctor: note: no init lock at scripts/gates.lock; the kit was not vendored by `gates init`, so its version is not recorded\n" +
		"doctor: note: baseline accepts 2 of check-a\n" +
		"doctor: advice: check-a asserts nothing while EMPTY is empty; set EMPTY in the gates directory's knob file to arm it\n" +
		"doctor: advice: check-b asserts nothing while empty.list carry no live line; add patterns to the file LISTS names\n" +
		"DOCTOR: clean (nothing wrong; 2 gates assert nothing until its knob is set, as advised above)\n"
	if out.String() != want {
		t.Errorf("out:\n%s\nwant:\n%s", out, want)
	}
	// One disarmed gate is counted in the singular.
	w, out, _ = doctorWorld(top, h, members[:1], nil, nil)
	if code := RunDoctor(nil, w); code != 0 || !strings.HasSuffix(out.String(), "DOCTOR: clean (nothing wrong; 1 gate asserts nothing until its knob is set, as advised above)\n") {
		t.Errorf("exit %d out:\n%s", code, out)
	}
}

func TestRunDoctorFindings(t *testing.T) {
	top, h := doctorTree(t, "v0", "stale:pre-commit")
	members := []DoctorMember{
		{Name: "check-a", Programs: []string{"shellcheck", "sh"}},
		{Name: "check-b", Programs: []string{"shellcheck", "jq"}},
	}
	w, out, errb := doctorWorld(top, h, members, nil, nil)
	w.Wiring = func() ([]string, error) {
		return []string{"wiring: the hook names bin/absent", "wiring: the hook names bin/absent"}, nil
	}
	w.Baseline = func() ([]string, []string, error) { return nil, []string{"baseline: line 3 matches nothing"}, nil }
	w.Unjudged = func() ([]string, error) { return []string{"commit abc landed unjudged"}, nil }
	if code := RunDoctor(nil, w); code != 1 {
		t.Errorf("exit %d", code)
	}
	d := h.dir
	want := "doctor: missing program: shellcheck, which check-a, check-b starts; install it with your package manager (the gate exits 2 without it)\n" +
		"doctor: missing program: jq, which check-b starts; install it with your package manager (the gate exits 2 without it)\n" +
		"doctor: hooks: " + d + "/pre-commit is not the binary bin/gates (a rebuild since it was placed); run `gates --install-hooks --refresh`\n" +
		"doctor: hooks: core.hooksPath names " + d + " but " + d + "/commit-msg is missing; run `gates --install-hooks`\n" +
		"doctor: wiring: the hook names bin/absent\n" +
		"doctor: kit: gate-sdk/ was vendored by the build stamped v0, and this binary is v1; run `gates init` with the binary you mean to keep so the two match\n" +
		"doctor: baseline: line 3 matches nothing\n" +
		"doctor: commit abc landed unjudged\n"
	for _, hk := range []string{"post-commit", "post-rewrite", "post-merge", "post-applypatch"} {
		want += "doctor: hooks: " + d + "/" + hk + " is not placed (hooks placed by an older binary), so a commit landed by cherry-pick, rebase, am or a merge goes unnamed; run `gates --install-hooks`\n"
	}
	want += "DOCTOR: 12 finding(s)\n"
	if out.String() != want || errb.Len() != 0 {
		t.Errorf("out:\n%s\nwant:\n%s\nerr %q", out, want, errb)
	}
}

func TestRunDoctorHookStates(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, top string, h *fakeHooks)
		want  string // the line doctor prints about the hooks
		code  int
	}{
		{"another manager's path", func(t *testing.T, top string, h *fakeHooks) {
			if err := os.MkdirAll(filepath.Join(top, ".husky"), 0o755); err != nil {
				t.Fatal(err)
			}
			h.val, h.set = ".husky", true
		}, "doctor: note: the gates hooks are not placed in this clone (core.hooksPath is .husky); `gates init --hooks` places them\n", 0},
		{"set but empty", func(t *testing.T, top string, h *fakeHooks) {
			h.val, h.set = "", true
		}, "doctor: note: the gates hooks are not placed in this clone (core.hooksPath is ); `gates init --hooks` places them\n", 0},
		{"a path to nothing", func(t *testing.T, top string, h *fakeHooks) {
			h.val, h.set = "gone", true
		}, "doctor: hooks: core.hooksPath is gone, which resolves to TOP/gone, where nothing is: git runs no hook for a commit here; run `gates --install-hooks` (a moved clone's path is repaired)\n", 1},
		{"the binary unreadable", func(t *testing.T, top string, h *fakeHooks) {
			if err := os.Remove(filepath.Join(top, "bin", "gates")); err != nil {
				t.Fatal(err)
			}
		}, "doctor: hooks: placed, but the binary bin/gates they copy is unreadable (", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top, h := doctorTree(t, "v1", "pre-commit", "commit-msg")
			tc.setup(t, top, h)
			w, out, _ := doctorWorld(top, h, nil, nil, nil)
			code := RunDoctor(nil, w)
			want := strings.ReplaceAll(tc.want, "TOP", filepath.ToSlash(top))
			if code != tc.code || !strings.HasPrefix(out.String(), want) {
				t.Errorf("exit %d out:\n%s\nwant %d and a start:\n%s", code, out, tc.code, want)
			}
		})
	}
}

func TestDoctorUnjudgedHooks(t *testing.T) {
	all := []string{"pre-commit", "commit-msg", "post-commit", "post-rewrite", "post-merge", "post-applypatch"}
	t.Run("every reporter placed", func(t *testing.T) {
		top, h := doctorTree(t, "v1", all...)
		w, out, _ := doctorWorld(top, h, nil, nil, nil)
		w.Unjudged = func() ([]string, error) { return nil, nil }
		if code := RunDoctor(nil, w); code != 0 || strings.Contains(out.String(), "not placed") {
			t.Errorf("exit %d out:\n%s", code, out)
		}
	})
	t.Run("a Windows binary's hooks", func(t *testing.T) {
		top, h := doctorTree(t, "v1")
		if err := os.MkdirAll(h.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		h.set = true
		for _, n := range all[2:] {
			writeFile(t, top, ".githooks/"+n, "x")
		}
		w, _, _ := doctorWorld(top, h, nil, nil, nil)
		w.Bin = "bin/gates.exe"
		w.Unjudged = func() ([]string, error) { return nil, nil }
		got, err := unjudgedFindings(w)
		if err != nil || len(got) != 4 || !strings.Contains(got[0], "/post-commit.exe is not placed") {
			t.Errorf("findings %q %v", got, err)
		}
	})
	t.Run("hooks not placed: no reporter owed", func(t *testing.T) {
		top, h := doctorTree(t, "v1")
		w, _, _ := doctorWorld(top, h, nil, nil, nil)
		w.Unjudged = func() ([]string, error) { return []string{"c1"}, nil }
		if got, err := unjudgedFindings(w); err != nil || len(got) != 1 {
			t.Errorf("findings %q %v", got, err)
		}
		// Set to the directory, which is absent.
		h.set = true
		if got, err := unjudgedFindings(w); err != nil || len(got) != 1 {
			t.Errorf("absent dir: findings %q %v", got, err)
		}
	})
	t.Run("no hook state", func(t *testing.T) {
		w := &DoctorWorld{Unjudged: func() ([]string, error) { return []string{"c1"}, errors.New("git log failed") }}
		if got, err := unjudgedFindings(w); err == nil || len(got) != 1 {
			t.Errorf("findings %q %v", got, err)
		}
		w.Unjudged = nil
		if got, err := unjudgedFindings(w); err != nil || got != nil {
			t.Errorf("unchecked: %q %v", got, err)
		}
	})
}

func TestRunDoctorRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks)
		want  string
	}{
		{"members", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) {
			w.Members = func() ([]DoctorMember, []DoctorLeftOut, error) { return nil, nil, errors.New("registry unreadable") }
		}, "doctor: registry unreadable\n"},
		{"a knob", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) {
			w.Members = func() ([]DoctorMember, []DoctorLeftOut, error) {
				return []DoctorMember{{Name: "check-a", ArmedBy: []string{"BROKEN"}}}, nil, nil
			}
		}, "doctor: knob BROKEN unreadable\n"},
		{"the hooks dir", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) { h.failing = "HooksDir" }, "doctor: HooksDir failed\n"},
		{"the hooks path", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) { h.failing = "HooksPath" }, "doctor: HooksPath failed\n"},
		{"the wiring", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) {
			w.Wiring = func() ([]string, error) { return nil, errors.New("settings unreadable\n") }
		}, "doctor: settings unreadable\n"},
		{"the lock", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) {
			writeFile(t, top, "scripts/gates.lock", "{not json")
		}, "doctor: init: the lock scripts/gates.lock does not parse: "},
		{"the workflow", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) {
			if err := os.MkdirAll(filepath.Join(top, WorkflowPath), 0o755); err != nil {
				t.Fatal(err)
			}
			w.Tracked = func(string) (bool, error) { return true, nil }
		}, "doctor: cannot read .github/workflows/gates.yml: "},
		{"the baseline", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) {
			w.Baseline = func() ([]string, []string, error) { return nil, nil, errors.New("baseline malformed") }
		}, "doctor: baseline malformed\n"},
		{"the history", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) {
			w.Unjudged = func() ([]string, error) { return nil, errors.New("git log failed") }
		}, "doctor: git log failed\n"},
		{"the hooks dir, for the reporters", func(t *testing.T, top string, w *DoctorWorld, h *fakeHooks) {
			w.Unjudged = func() ([]string, error) {
				h.failing = "HooksDir"
				return nil, nil
			}
		}, "doctor: HooksDir failed\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top, h := doctorTree(t, "v1", "pre-commit", "commit-msg")
			w, out, errb := doctorWorld(top, h, nil, nil, nil)
			tc.setup(t, top, w, h)
			if code := RunDoctor(nil, w); code != 2 || out.Len() != 0 || !strings.HasPrefix(errb.String(), tc.want) {
				t.Errorf("exit %d out %q err %q, want 2 and %q", code, out, errb, tc.want)
			}
		})
	}
}

func TestRunDoctorCIAdvice(t *testing.T) {
	top, h := doctorTree(t, "v1", "pre-commit", "commit-msg")
	w, out, _ := doctorWorld(top, h, nil, nil, nil)
	w.Tracked = func(string) (bool, error) { return false, nil }
	if code := RunDoctor(nil, w); code != 0 || !strings.Contains(out.String(), "doctor: advice: ci: no gates workflow at "+WorkflowPath+", so nothing runs the battery on a push or a pull request. "+CINeeds+"\n") {
		t.Errorf("exit %d out:\n%s", code, out)
	}
	// The advice alone counts no disarmed gate.
	if !strings.HasSuffix(out.String(), "DOCTOR: clean (every registered gate is armed, its programs present, the hooks and the kit match the binary)\n") {
		t.Errorf("out:\n%s", out)
	}
}
