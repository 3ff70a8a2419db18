package knob

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

func TestWriteRoster(t *testing.T) {
	var b bytes.Buffer
	tables := testTables(t, "canon-kit")
	if err := WriteRoster(&b, tables); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	for _, want := range []string{
		"GATE_SDK_TESTS_DIR\tscalar\t${GATE_SDK_GATES_DIR}/gate-tests",
		"GATE_SDK_TMP_DIR\tscalar\t.tmp",
		"GATE_SDK_KIT_DIRS\tscalar\t",
		"GATE_SDK_JOB_REF_PATTERNS\tindexed\t",
		"GATE_SDK_PAYLOAD_RECIPES\tkeyed\t",
		"GATE_SDK_RELEASE_SECTION_ALIASES\tindexed\tgates: Tightened gates",
		"GATE_SDK_RELEASE_SECTION_ALIASES\tindexed\tknobs: Renamed knobs",
		"GATE_SDK_EXEC_GLOBS\tscalar\t*/checks/*.sh */kpis/*.sh */bin/*.sh ${GATE_SDK_GATES_DIR}/check-*.sh ${GATE_SDK_GATES_DIR}/kpi-*.sh",
		"GATE_SDK_NATIVE_BIN\tscalar\tbin/gates" + exe,
		"GATE_SDK_NATIVE_SRC\tscalar\tinternal",
		"GATE_SDK_NATIVE_CRATE\tscalar\t.",
		"CANON_KIT_LOG\tscalar\t.workflow/canon.log",
		"CANON_KIT_LESSON_SINKS\tkeyed\tagent=CLAUDE.md",
		"CANON_KIT_LESSON_SINKS\tkeyed\tqueue=TASK-QUEUE.md",
	} {
		found := false
		for _, l := range lines {
			found = found || l == want
		}
		if !found {
			t.Errorf("roster lacks line %q", want)
		}
	}
	// Keyed pairs print in key order, elements in table order.
	if i, j := strings.Index(out, "agent=CLAUDE.md"), strings.Index(out, "queue=TASK-QUEUE.md"); i < 0 || j < i {
		t.Error("keyed default not in key order")
	}
	if i, j := strings.Index(out, "\tbrief: In brief"), strings.Index(out, "\tbehavior: Behavior changes"); i < 0 || j < i {
		t.Error("indexed default not in table order")
	}
	// Every row appears; env-only and retired names never do.
	names := map[string]int{}
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			t.Fatalf("line %q is not three tab-separated fields", l)
		}
		names[f[0]]++
	}
	for _, tb := range tables {
		for _, r := range tb.Rows {
			if names[r.Name] == 0 {
				t.Errorf("roster lacks %s", r.Name)
			}
		}
		for _, e := range tb.EnvOnly {
			if names[e.Name] > 0 {
				t.Errorf("env-only %s in the roster", e.Name)
			}
		}
		for _, r := range tb.Retired {
			if names[r.Name] > 0 {
				t.Errorf("retired %s in the roster", r.Name)
			}
		}
	}
	// The roster reads no environment: the embedded default is the same.
	var b2 bytes.Buffer
	if err := WriteRoster(&b2, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, b2.String()) {
		t.Error("WriteRoster(nil) differs from gate-sdk's part of an explicit table list")
	}
}

func TestWriteValues(t *testing.T) {
	dir := tree(t, map[string]string{
		tracked: "GATE_SDK_PAYLOAD_RECIPES[b] = x=1\nGATE_SDK_PAYLOAD_RECIPES[a] = y\nGATE_SDK_JOB_REF_PATTERNS[] = one two\nGATE_SDK_JOB_REF_PATTERNS[] = three\n",
	})
	e := env{"GATE_SDK_GH_HOST": "", "GATE_SDK_GATES_DIR": "scripts"}
	s := load(t, dir, e)
	var b bytes.Buffer
	err := WriteValues(&b, s, []string{"GATE_SDK_TMP_DIR", "GATE_SDK_GH_HOST", "GATE_SDK_JOB_REF_PATTERNS", "GATE_SDK_PAYLOAD_RECIPES", "GATE_SDK_CRATE_TARGET_LINT_CMD", "GATE_SDK_GATES_DIR", "GATE_SDK_TESTS_DIR"})
	if err != nil {
		t.Fatal(err)
	}
	want := "GATE_SDK_TMP_DIR\tscalar\t.tmp\n" +
		"GATE_SDK_GH_HOST\tscalar\t\n" +
		"GATE_SDK_JOB_REF_PATTERNS\tindexed\tone two\n" +
		"GATE_SDK_JOB_REF_PATTERNS\tindexed\tthree\n" +
		"GATE_SDK_PAYLOAD_RECIPES\tkeyed\ta=y\n" +
		"GATE_SDK_PAYLOAD_RECIPES\tkeyed\tb=x=1\n" +
		"GATE_SDK_CRATE_TARGET_LINT_CMD\tindexed\t\n" +
		"GATE_SDK_GATES_DIR\tscalar\tscripts\n" +
		"GATE_SDK_TESTS_DIR\tscalar\tscripts/gate-tests\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	for name, c := range map[string]struct {
		names []string
		env   env
		msg   string
	}{
		"unknown name":     {[]string{"GATE_SDK_TMP_DIR", "NOPE"}, env{}, "NOPE is not a statically owned knob"},
		"undeclared name":  {[]string{"GATE_SDK_NOPE"}, env{}, "GATE_SDK_NOPE is not a knob gate-sdk declares"},
		"retired name":     {[]string{"GATE_SDK_GRAPH_THEME"}, env{}, "use GATE_SDK_GRAPH_THEME_DIR"},
		"newline in value": {[]string{"GATE_SDK_GH_HOST"}, env{"GATE_SDK_GH_HOST": "a\nb"}, "line break"},
		"no names":         {nil, env{}, "at least one"},
	} {
		var out bytes.Buffer
		err := WriteValues(&out, load(t, dir, c.env), c.names)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want %q", name, err, c.msg)
		}
		if out.Len() != 0 {
			t.Errorf("%s: a refusal wrote %q", name, out.String())
		}
	}
}
