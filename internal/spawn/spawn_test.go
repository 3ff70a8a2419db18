package spawn

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func shell(script string) Cmd {
	return Cmd{Program: Sh(), Args: []string{"-c", script}}
}

func mustRun(t *testing.T, cmd Cmd) *Completed {
	t.Helper()
	c, err := Run(cmd)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return c
}

func skipOnWindows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX sh")
	}
}

// assertion A: a program that could not be started is an error in the
// "could not run" words, never a Completed.
func TestRunSpawnNeverHappened(t *testing.T) {
	absent, err := ConsumerCommand("gates-test-no-such-program-xyz", "TEST_KIT_PROBE_CMD")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cmd  Cmd
		want []string
	}{
		{"absent on PATH", Cmd{Program: absent}, []string{"could not run gates-test-no-such-program-xyz (named by TEST_KIT_PROBE_CMD): ", "not found"}},
		{"zero program", Cmd{}, []string{"could not run (no program): not a roster member"}},
		{"missing dir", Cmd{Program: Sh(), Args: []string{"-c", "true"}, Dir: filepath.Join(t.TempDir(), "nope")}, []string{"could not run sh: ", "no such file"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Run(tc.cmd)
			if err == nil {
				t.Fatalf("Run answered %+v, want a start error", c)
			}
			if c != nil {
				t.Fatalf("Run answered a Completed beside its error")
			}
			var se *StartError
			if !errors.As(err, &se) {
				t.Fatalf("error %T is no *StartError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// assertion B: stdout is reachable only through the status; the failure
// report carries the code and both labelled streams, only on failure.
func TestRunStatusGatesStdout(t *testing.T) {
	skipOnWindows(t)
	cases := []struct {
		name       string
		script     string
		wantOK     bool
		wantCode   int
		wantStdout string
		report     []string
	}{
		{"success", "printf 'hi\\n'", true, 0, "hi\n", nil},
		{"success silent", "true", true, 0, "", nil},
		{"non-zero with both streams", "echo out; echo err >&2; exit 3", false, 3, "",
			[]string{"sh exited 3", "stdout:\n  out", "stderr:\n  err"}},
		{"failed writing only stdout", "echo partial; exit 1", false, 1, "",
			[]string{"sh exited 1", "stdout:\n  partial", "stderr: (empty)"}},
		{"failed writing neither", "exit 2", false, 2, "",
			[]string{"sh exited 2", "stdout: (empty)", "stderr: (empty)"}},
		{"multi-line streams", "printf 'a\\nb\\n'; printf 'x\\ny' >&2; exit 4", false, 4, "",
			[]string{"stdout:\n  a\n  b", "stderr:\n  x\n  y"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mustRun(t, shell(tc.script))
			out, ok := c.Stdout()
			if ok != tc.wantOK || c.Succeeded() != tc.wantOK {
				t.Fatalf("Stdout ok = %v, Succeeded = %v; want %v", ok, c.Succeeded(), tc.wantOK)
			}
			if string(out) != tc.wantStdout {
				t.Errorf("stdout = %q, want %q", out, tc.wantStdout)
			}
			if !ok && out != nil {
				t.Errorf("a failed child handed out stdout %q", out)
			}
			if c.Code() != tc.wantCode {
				t.Errorf("Code = %d, want %d", c.Code(), tc.wantCode)
			}
			rep, has := c.FailureReport()
			if has == tc.wantOK {
				t.Fatalf("FailureReport present = %v on ok = %v", has, tc.wantOK)
			}
			for _, w := range tc.report {
				if !strings.Contains(rep, w) {
					t.Errorf("report %q lacks %q", rep, w)
				}
			}
		})
	}
}

// assertion C: a signalled child reads 128+n on every face.
func TestSignalledChild(t *testing.T) {
	skipOnWindows(t)
	c := mustRun(t, shell("kill -TERM $$"))
	if c.Code() != 128+15 || !c.Signaled() {
		t.Fatalf("Code = %d, Signaled = %v; want 143, true", c.Code(), c.Signaled())
	}
	if _, ok := c.Stdout(); ok {
		t.Fatal("a signalled child handed out stdout")
	}
	rep, ok := c.FailureReport()
	if !ok || !strings.Contains(rep, "exited 143 (killed by signal 15)") {
		t.Fatalf("report = %q", rep)
	}
	m, err := RunMerged(shell("echo before; kill -KILL $$"))
	if err != nil {
		t.Fatal(err)
	}
	if code, graded := m.Code(); graded {
		t.Errorf("merged Code = %d, graded; a signalled child grades nothing", code)
	}
	if m.ReportedCode() != 128+9 || m.Succeeded() {
		t.Errorf("ReportedCode = %d, Succeeded = %v", m.ReportedCode(), m.Succeeded())
	}
	if string(m.Output()) != "before\n" {
		t.Errorf("merged output = %q", m.Output())
	}
	s := RunStreamed(shell("kill -TERM $$"), nil)
	if s.Code() != 143 {
		t.Errorf("streamed Code = %d, want 143", s.Code())
	}
}

// assertion D: the merged face interleaves the two streams exactly as the
// child wrote them, and reads its report whatever the status.
func TestMergedInterleave(t *testing.T) {
	skipOnWindows(t)
	script := `i=0; while [ $i -lt 200 ]; do echo "o$i"; echo "e$i" >&2; i=$((i+1)); done; exit 1`
	m, err := RunMerged(shell(script))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := 0; i < 200; i++ {
		want.WriteString("o" + itoa(i) + "\ne" + itoa(i) + "\n")
	}
	if string(m.Output()) != want.String() {
		t.Fatalf("interleave differs:\n%q", m.Output())
	}
	if code, graded := m.Code(); !graded || code != 1 || m.Succeeded() {
		t.Fatalf("Code = %d,%v Succeeded = %v", code, graded, m.Succeeded())
	}
	ok, err := RunMerged(shell("echo fine"))
	if err != nil || !ok.Succeeded() || string(ok.Output()) != "fine\n" {
		t.Fatalf("merged success: %v %v %q", err, ok.Succeeded(), ok.Output())
	}
	if _, err := RunMerged(Cmd{}); err == nil {
		t.Fatal("merged accepted a zero program")
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// assertion E: the streamed face carries a body past a pipe buffer without
// deadlock, keeps stderr apart, and folds start failures into 127 and 126.
func TestStreamed(t *testing.T) {
	skipOnWindows(t)
	body := bytes.Repeat([]byte("0123456789abcdef\n"), 1<<16) // 1 MiB
	s := RunStreamed(shell("cat; echo diag >&2"), body)
	if s.Code() != 0 || !bytes.Equal(s.Stdout(), body) || string(s.Stderr()) != "diag\n" {
		t.Fatalf("code %d, stdout %d bytes, stderr %q", s.Code(), len(s.Stdout()), s.Stderr())
	}
	absent, _ := ConsumerCommand("gates-test-no-such-filter-xyz", "TEST_KIT_FILTER_CMD")
	if s := RunStreamed(Cmd{Program: absent}, body); s.Code() != 127 || !strings.Contains(string(s.Stderr()), "could not run") {
		t.Errorf("absent filter: code %d stderr %q", s.Code(), s.Stderr())
	}
	dir := t.TempDir()
	noexec := filepath.Join(dir, "filter")
	if err := os.WriteFile(noexec, []byte("#!/bin/sh\ncat\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ne, _ := ConsumerCommand(noexec, "TEST_KIT_FILTER_CMD")
	if s := RunStreamed(Cmd{Program: ne}, body); s.Code() != 126 {
		t.Errorf("non-executable filter: code %d stderr %q", s.Code(), s.Stderr())
	}
	if s := RunStreamed(shell("exit 5"), nil); s.Code() != 5 {
		t.Errorf("exit 5 read as %d", s.Code())
	}
}

// assertion F: the child's directory, environment and stdin are set on the
// spawn; this process's own are untouched.
func TestCmdDirEnvStdin(t *testing.T) {
	skipOnWindows(t)
	dir := t.TempDir()
	c := mustRun(t, Cmd{Program: Sh(), Args: []string{"-c", "pwd -P"}, Dir: dir})
	out, _ := c.Stdout()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != real {
		t.Errorf("child cwd %q, want %q", got, real)
	}
	c = mustRun(t, Cmd{Program: Sh(), Args: []string{"-c", `printf '%s|%s' "$ONLY" "${HOME-unset}"`}, Env: []string{"ONLY=1", "PATH=/usr/bin:/bin"}})
	if out, _ := c.Stdout(); string(out) != "1|unset" {
		t.Errorf("explicit env: %q", out)
	}
	c = mustRun(t, Cmd{Program: Sh(), Args: []string{"-c", `printf '%s|%s' "$ONLY" "$EXTRA"`}, Env: []string{"ONLY=1", "EXTRA=a", "PATH=/usr/bin:/bin"}, ExtraEnv: []string{"EXTRA=b"}})
	if out, _ := c.Stdout(); string(out) != "1|b" {
		t.Errorf("extra env over explicit: %q", out)
	}
	c = mustRun(t, Cmd{Program: Sh(), Args: []string{"-c", `printf '%s' "$GATES_SPAWN_EXTRA"`}, ExtraEnv: []string{"GATES_SPAWN_EXTRA=x"}})
	if out, _ := c.Stdout(); string(out) != "x" {
		t.Errorf("extra env over inherited: %q", out)
	}
	c = mustRun(t, Cmd{Program: Sh(), Args: []string{"-c", `printf '%s|%s|%s' "${ONLY-unset}" "${GONE-unset}" "$BACK"`},
		Env: []string{"ONLY=1", "GONE=x", "BACK=old", "PATH=/usr/bin:/bin"}, UnsetEnv: []string{"GONE", "BACK"}, ExtraEnv: []string{"BACK=new"}})
	if out, _ := c.Stdout(); string(out) != "1|unset|new" {
		t.Errorf("unset env, then extra: %q", out)
	}
	c = mustRun(t, Cmd{Program: Sh(), Args: []string{"-c", `printf '%s' "${PATH:+path}"`}, UnsetEnv: []string{"GATES_NEVER_SET"}})
	if out, _ := c.Stdout(); string(out) != "path" {
		t.Errorf("UnsetEnv alone must still inherit the rest: %q", out)
	}
	c = mustRun(t, shell("cat; echo end"))
	if out, _ := c.Stdout(); string(out) != "end\n" {
		t.Errorf("nil stdin is not the null device: %q", out)
	}
	c = mustRun(t, Cmd{Program: Sh(), Args: []string{"-c", "cat"}, Stdin: strings.NewReader("fed")})
	if out, _ := c.Stdout(); string(out) != "fed" {
		t.Errorf("stdin: %q", out)
	}
}

// assertion J: every spawning face notes the program it starts.
func TestRecorder(t *testing.T) {
	skipOnWindows(t)
	rec := &Recorder{}
	abs, _ := ConsumerCommand("/bin/sh", "TEST_KIT_CMD")
	mustRun(t, Cmd{Program: Sh(), Args: []string{"-c", "true"}, Recorder: rec})
	mustRun(t, Cmd{Program: abs, Args: []string{"-c", "true"}, Recorder: rec})
	if _, err := RunMerged(Cmd{Program: At("/nonexistent/gates"), Recorder: rec}); err == nil {
		t.Fatal("started a missing binary")
	}
	RunStreamed(Cmd{Program: Sh(), Args: []string{"-c", "cat"}, Recorder: rec}, []byte("x"))
	got := strings.Join(rec.Names(), ",")
	if got != "sh,sh,gates,sh" {
		t.Fatalf("recorded %q", got)
	}
}

// assertion J: the roster is closed; consumer members carry their ground.
func TestRoster(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Roster() {
		if !p.Valid() || seen[p.Name()] {
			t.Errorf("roster member %q invalid or repeated", p.Name())
		}
		seen[p.Name()] = true
		if q, ok := ByName(p.Name()); !ok || q != p {
			t.Errorf("ByName(%q) = %v, %v", p.Name(), q, ok)
		}
		if p.Audience() == Consumer || p.Audience() == Payload {
			t.Errorf("static member %q has audience %v", p.Name(), p.Audience())
		}
	}
	for _, need := range []string{"git", "shellcheck", "bash", "sh"} {
		if !seen[need] {
			t.Errorf("roster lacks %s", need)
		}
	}
	if _, ok := ByName("curl"); ok {
		t.Error("ByName answered a program outside the roster")
	}
	if (Program{}).Valid() {
		t.Error("the zero Program is valid")
	}
	if _, err := ConsumerCommand("x", " "); err == nil {
		t.Error("a consumer command without a ground was accepted")
	}
	if _, err := ConsumerCommand("", "K"); err == nil {
		t.Error("an empty consumer command was accepted")
	}
	p, err := ConsumerCommand(`C:\tools\lint.EXE`, "K")
	if err != nil || p.recordName() != "lint" || p.Ground() != "K" || p.Audience() != Consumer {
		t.Errorf("consumer member: %v %q", err, p.recordName())
	}
	if At("/x/y/gates-new").recordName() != "gates" {
		t.Error("a payload path lost the payload identity")
	}
}

// assertion F: a child handed its own environment is searched for on that
// environment's PATH, as the shell searches.
func TestChildPathSearch(t *testing.T) {
	skipOnWindows(t)
	_, err := Run(Cmd{Program: Sh(), Args: []string{"-c", "true"}, Env: []string{"PATH=/nonexistent"}})
	if err == nil || !strings.Contains(err.Error(), "could not run sh: executable file not found") {
		t.Fatalf("err = %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sh"), []byte("#!/bin/sh\necho shadow\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := mustRun(t, Cmd{Program: Sh(), Args: []string{"-c", "echo real"}, Env: []string{"PATH=" + dir + ":/usr/bin:/bin"}})
	if out, _ := c.Stdout(); string(out) != "shadow\n" {
		t.Fatalf("searched the wrong PATH: %q", out)
	}
}
