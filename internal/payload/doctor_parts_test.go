package payload

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDistinctKeepsOrderAndDropsRepeats(t *testing.T) {
	var d distinct
	d.add("a %d", 1)
	d.add("b")
	d.add("a %d", 1)
	d.add("a %d", 2)
	if !reflect.DeepEqual(d.lines, []string{"a 1", "b", "a 2"}) {
		t.Fatalf("lines %q", d.lines)
	}
}

func TestLeftOutReason(t *testing.T) {
	for in, want := range map[string]string{
		"zero-config: it judges gates": "it judges gates",
		"on-surface: cannot run":       "cannot run",
		"mine: on-surface: x":          "mine: on-surface: x",
		"on-surface:x":                 "on-surface:x",
	} {
		if got := leftOutReason(in); got != want {
			t.Errorf("leftOutReason(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestArmHint(t *testing.T) {
	for _, tc := range []struct {
		m    DoctorMember
		want string
	}{
		{DoctorMember{ArmedBy: []string{"A_LIST", "B_LIST"}, Content: true}, "add patterns to the file A_LIST / B_LIST names"},
		{DoctorMember{ArmedBy: []string{"GATE_LOCAL_X"}}, "give GATE_LOCAL_X a value on its `# knob:` line in the gate's descriptor to arm it"},
		{DoctorMember{ArmedBy: []string{"GATE_SDK_X"}}, "set GATE_SDK_X in the gates directory's knob file to arm it"},
	} {
		if got := armHint(tc.m); got != tc.want {
			t.Errorf("armHint(%+v) = %q, want %q", tc.m, got, tc.want)
		}
	}
}

func TestIsDisarmed(t *testing.T) {
	top := t.TempDir()
	for name, body := range map[string]string{"empty.list": "# only comments\n\n   \r\n", "live.list": "# c\n  pattern\n", "crlf.list": "\t#c\r\n"} {
		if err := os.WriteFile(filepath.Join(top, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	knobs := map[string]string{"EMPTY": "  ", "SET": "x", "LISTS": "empty.list crlf.list", "LIVE": "empty.list live.list", "NONE": "absent.list", "BOTH_EMPTY": "empty.list"}
	w := &DoctorWorld{Top: top, Knob: func(n string) (string, error) {
		if n == "BROKEN" {
			return "", errors.New("knob unreadable")
		}
		return knobs[n], nil
	}}
	for _, tc := range []struct {
		m    DoctorMember
		want string
	}{
		{DoctorMember{ArmedBy: []string{"EMPTY"}}, "EMPTY is empty"},
		{DoctorMember{ArmedBy: []string{"SET"}}, ""},
		{DoctorMember{ArmedBy: []string{"LISTS"}, Content: true}, "empty.list and crlf.list carry no live line"},
		{DoctorMember{ArmedBy: []string{"LIVE"}, Content: true}, ""},
		{DoctorMember{ArmedBy: []string{"NONE"}, Content: true}, ""},
		{DoctorMember{ArmedBy: []string{"BOTH_EMPTY", "NONE"}, Content: true}, "empty.list carry no live line"},
	} {
		got, err := isDisarmed(w, tc.m)
		if err != nil || got != tc.want {
			t.Errorf("isDisarmed(%+v) = %q %v, want %q", tc.m, got, err, tc.want)
		}
	}
	for _, m := range []DoctorMember{{ArmedBy: []string{"BROKEN"}}, {ArmedBy: []string{"BROKEN"}, Content: true}} {
		if _, err := isDisarmed(w, m); err == nil {
			t.Errorf("%+v: an unreadable knob answered no error", m)
		}
	}
}

func TestExeSuffixOfName(t *testing.T) {
	for in, want := range map[string]string{"bin/gates": "", "bin/gates.exe": ".exe", "GATES.EXE": ".exe", "gates.exe.bak": ""} {
		if got := exeSuffixOfName(in); got != want {
			t.Errorf("exeSuffixOfName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCIFindings(t *testing.T) {
	write := func(t *testing.T, body string) string {
		top := t.TempDir()
		if body != "" {
			if err := os.MkdirAll(filepath.Join(top, ".github", "workflows"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(top, WorkflowPath), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return top
	}
	tracked := map[string]bool{"bin/gates": true}
	for _, tc := range []struct {
		name, body, bin string
		lock            bool
		advice, finding bool
	}{
		{"no workflow, no lock", "", "bin/gates", false, false, false},
		{"no workflow, adopted", "", "bin/gates", true, true, false},
		{"a filled payload", "env:\n  GATES_PAYLOAD: \"https://x/p.tar.gz\" # the url\n", "bin/x", true, false, false},
		{"an empty payload, a tracked binary", "env:\n  " + unfilledPayload + " fill\n", "./bin/gates", true, false, false},
		{"an empty payload, no binary", "env:\n  " + unfilledPayload + " fill\n", "./bin/other", true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &DoctorWorld{Top: write(t, tc.body), Bin: tc.bin, Tracked: func(rel string) (bool, error) { return tracked[rel], nil }}
			var lock *Lock
			if tc.lock {
				lock = &Lock{}
			}
			var r doctorReport
			if err := ciFindings(w, lock, &r); err != nil {
				t.Fatal(err)
			}
			if (len(r.advice.lines) > 0) != tc.advice || (len(r.findings.lines) > 0) != tc.finding {
				t.Errorf("advice %q findings %q", r.advice.lines, r.findings.lines)
			}
			if tc.finding && !strings.Contains(r.findings.lines[0], "git does not track bin/other") {
				t.Errorf("finding %q", r.findings.lines[0])
			}
		})
	}
	w := &DoctorWorld{Top: write(t, "env:\n  "+unfilledPayload+"\n"), Bin: "b", Tracked: func(string) (bool, error) { return false, errors.New("git died") }}
	if err := ciFindings(w, nil, &doctorReport{}); err == nil {
		t.Error("an unanswered tracking question answered no error")
	}
}
