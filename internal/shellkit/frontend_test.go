package shellkit

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	gitrepo "github.com/gate-sdk/gates/internal/repo"
)

const missingBinLine = "run-gates: the gates binary ./bin/gates is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it\n"

// envelope parses a fail-open --hook stdout: one JSON object whose only key
// is systemMessage, on one LF-terminated line.
func envelope(t *testing.T, stdout string) string {
	t.Helper()
	if !strings.HasSuffix(stdout, "}\n") || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("envelope is not one LF-terminated JSON line: %q", stdout)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("envelope is not JSON: %v: %q", err, stdout)
	}
	msg, ok := m["systemMessage"].(string)
	if len(m) != 1 || !ok || msg == "" {
		t.Fatalf("envelope must carry systemMessage alone: %q", stdout)
	}
	return msg
}

func TestFrontEndOutsideRepository(t *testing.T) {
	parent := physicalTemp(t)
	dir := filepath.Join(parent, "plain")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := baseEnv(t, parent)
	front := kitPath("bin/run-gates.sh")

	for _, args := range [][]string{nil, {"--run"}, {"scripts"}, {"--emit", "kit-roots"}, {"-h"}} {
		r := run(t, dir, env, "", append([]string{"bash", front}, args...)...)
		if r.code != 2 || r.stdout != "" || r.stderr != "run-gates: not inside a git repository\n" {
			t.Errorf("args %q: want exit 2, no stdout, the exact refusal; got exit %d stdout %q stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}

	// A fail-open arm declines at 0, with the envelope on stdout.
	r := run(t, dir, env, "{}", "bash", front, "--hook", "shell-guard")
	if r.code != 0 || r.stderr != "run-gates: not inside a git repository\n" {
		t.Fatalf("--hook outside a repository: exit %d stderr %q", r.code, r.stderr)
	}
	envelope(t, r.stdout)

	// A .git entry git cannot read marks the directory: git's refusal is
	// named instead of "not inside".
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	r = run(t, dir, env, "", "bash", front)
	if r.code != 2 || r.stderr != "run-gates: git refuses the repository here; run git status to see why\n" {
		t.Fatalf("marked directory: exit %d stderr %q", r.code, r.stderr)
	}
	r = run(t, dir, with(env, "GIT_DIR="+filepath.Join(parent, "absent.git")), "", "bash", front, "--hook", "x")
	if r.code != 0 || !strings.Contains(r.stderr, "git refuses the repository here") {
		t.Fatalf("GIT_DIR naming nothing under --hook: exit %d stderr %q", r.code, r.stderr)
	}
}

func TestFrontEndAbsentBinary(t *testing.T) {
	repo, env := scratchRepo(t)
	front := filepath.Join(repo, "gate-sdk", "bin", "run-gates.sh")
	writeFile(t, filepath.Join(repo, "not-exec"), "#!/bin/sh\n", 0o644)

	cases := []struct {
		name   string
		env    []string
		args   []string
		code   int
		stderr string
	}{
		{"bare run", nil, nil, 2, missingBinLine},
		{"--run", nil, []string{"--run"}, 2, missingBinLine},
		{"gates dir", nil, []string{"scripts"}, 2, missingBinLine},
		{"help has no stub usage", nil, []string{"--help"}, 2, missingBinLine},
		{"emit", nil, []string{"--emit", "kit-roots"}, 2, missingBinLine},
		{"gate tests", nil, []string{"--run-gate-tests", "gate-tests"}, 2, missingBinLine},
		{"hook", nil, []string{"--hook", "shell-guard"}, 0, missingBinLine},
		{"not executable", []string{"GATE_SDK_NATIVE_BIN=not-exec"}, []string{"--run"}, 2,
			"run-gates: the gates binary ./not-exec is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it\n"},
		{"not executable, hook", []string{"GATE_SDK_NATIVE_BIN=not-exec"}, []string{"--hook", "x"}, 0,
			"run-gates: the gates binary ./not-exec is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it\n"},
		{"absolute value unchanged", []string{"GATE_SDK_NATIVE_BIN=/nonexistent/gates"}, nil, 2,
			"run-gates: the gates binary /nonexistent/gates is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it\n"},
		{"anchored value unchanged", []string{"GATE_SDK_NATIVE_BIN=../elsewhere/gates"}, nil, 2,
			"run-gates: the gates binary ../elsewhere/gates is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it\n"},
		{"backslash-rooted value unchanged", []string{`GATE_SDK_NATIVE_BIN=\x\gates`}, nil, 2,
			`run-gates: the gates binary \x\gates is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it` + "\n"},
		{"a statusline arm is fail-open and draws nothing", nil, []string{"--statusline"}, 0, missingBinLine},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, repo, with(env, c.env...), "{}", append([]string{"bash", front}, c.args...)...)
			if r.code != c.code || r.stderr != c.stderr {
				t.Fatalf("exit %d (want %d)\nstderr %q\nwant   %q", r.code, c.code, r.stderr, c.stderr)
			}
			switch {
			case c.code == 0 && c.args[0] == "--statusline":
				if r.stdout != "" {
					t.Fatalf("a status line without a binary drew %q", r.stdout)
				}
			case c.code == 0:
				envelope(t, r.stdout)
			case r.stdout != "":
				t.Fatalf("a verdict arm printed on stdout: %q", r.stdout)
			}
		})
	}

	// Each precedence tier names its own value, ./-spelled.
	writeFile(t, filepath.Join(repo, "scripts", "gate-sdk-config.knobs"), "GATE_SDK_NATIVE_BIN = tracked/gates\n", 0o644)
	r := run(t, repo, env, "", "bash", front)
	if !strings.Contains(r.stderr, " ./tracked/gates ") {
		t.Fatalf("tracked tier: %q", r.stderr)
	}
	writeFile(t, filepath.Join(repo, "scripts", "gate-sdk-config.local.knobs"), "GATE_SDK_NATIVE_BIN = overlay/gates\n", 0o644)
	r = run(t, repo, env, "", "bash", front)
	if !strings.Contains(r.stderr, " ./overlay/gates ") {
		t.Fatalf("overlay tier: %q", r.stderr)
	}
	r = run(t, repo, with(env, "GATE_SDK_NATIVE_BIN=env/gates"), "", "bash", front)
	if !strings.Contains(r.stderr, " ./env/gates ") {
		t.Fatalf("environment tier: %q", r.stderr)
	}
}

func TestFrontEndNestedRepository(t *testing.T) {
	repo, env := scratchRepo(t)
	front := filepath.Join(repo, "gate-sdk", "bin", "run-gates.sh")
	deep := filepath.Join(repo, "sub", "deep")
	for _, d := range []string{deep, filepath.Join(repo, "sub", ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stub := filepath.Join(repo, "stub")
	writeFile(t, stub, argvStub, 0o755)
	mark := filepath.Join(repo, "sub", ".git")
	want := "run-gates: git skipped the nested repository at " + mark +
		" and answered the one enclosing it; run git --git-dir=" + mark + " status to see why\n"

	r := run(t, deep, with(env, "GATE_SDK_NATIVE_BIN="+stub), "", "bash", front)
	if r.code != 2 || r.stderr != want || r.stdout != "" {
		t.Fatalf("skipped nested repo: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, deep, with(env, "GATE_SDK_NATIVE_BIN="+stub), "{}", "bash", front, "--hook", "x")
	if r.code != 0 || r.stderr != want {
		t.Fatalf("skipped nested repo under --hook: exit %d stderr %q", r.code, r.stderr)
	}
	envelope(t, r.stdout)

	// Controls: GIT_DIR names the repository, so there is no mark.
	r = run(t, deep, with(env, "GATE_SDK_NATIVE_BIN="+stub, "GIT_DIR="+filepath.Join(repo, ".git"), "GIT_WORK_TREE="+repo), "", "bash", front, "--x")
	if r.code != 0 {
		t.Fatalf("GIT_DIR control: exit %d stderr %q", r.code, r.stderr)
	}
	// A valid nested repository is the one git answers: no mark either.
	if err := os.RemoveAll(mark); err != nil {
		t.Fatal(err)
	}
	mustRun(t, filepath.Join(repo, "sub"), env, "git", "init", "-q", ".")
	r = run(t, deep, with(env, "GATE_SDK_NATIVE_BIN="+stub), "", "bash", front, "--x")
	if r.code != 0 || !strings.Contains(r.stdout, "cwd="+filepath.Join(repo, "sub")+"\n") {
		t.Fatalf("valid nested repo: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	// A dangling .git symlink is a mark too.
	if err := os.RemoveAll(filepath.Join(repo, "sub", ".git")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(repo, "nowhere"), mark); err != nil {
		t.Fatal(err)
	}
	r = run(t, deep, with(env, "GATE_SDK_NATIVE_BIN="+stub), "", "bash", front)
	if r.code != 2 || r.stderr != want {
		t.Fatalf("dangling .git symlink: exit %d stderr %q", r.code, r.stderr)
	}
}

func TestFrontEndRouting(t *testing.T) {
	repo, env := scratchRepo(t)
	front := filepath.Join(repo, "gate-sdk", "bin", "run-gates.sh")
	stub := filepath.Join(repo, "stub")
	writeFile(t, stub, argvStub, 0o755)
	sub := filepath.Join(repo, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	env = with(env, "GATE_SDK_NATIVE_BIN="+stub, "GATE_SDK_ROOT=/somewhere/else")

	cases := []struct {
		name  string
		dir   string
		args  []string
		stdin string
		want  []string
	}{
		{"bare run is the battery", repo, nil, "", []string{"--run"}},
		{"first positional is the gates dir", repo, []string{"scripts"}, "", []string{"--run", "scripts"}},
		{"a gates dir typed in a subdir", sub, []string{"mine"}, "", []string{"--run", "sub/mine"}},
		{"a rooted gates dir is kept", sub, []string{"/abs/gates"}, "", []string{"--run", "/abs/gates"}},
		{"options pass unchanged", sub, []string{"--only", "a", "--", "x y"}, "", []string{"--only", "a", "--", "x y"}},
		{"emit passes unchanged", repo, []string{"--emit", "kit-roots"}, "", []string{"--emit", "kit-roots"}},
		{"double dash passes unchanged", repo, []string{"--", "-odd"}, "", []string{"--", "-odd"}},
		{"hook forwards stdin", sub, []string{"--hook", "shell-guard"}, `{"tool":"Bash"}`, []string{"--hook", "shell-guard"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.dir, env, c.stdin, append([]string{"bash", front}, c.args...)...)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("exit %d stderr %q", r.code, r.stderr)
			}
			var b strings.Builder
			b.WriteString("cwd=" + repo + "\nroot=gate-sdk\n")
			for _, a := range c.want {
				b.WriteString("arg=" + a + "\n")
			}
			if c.stdin != "" {
				b.WriteString("stdin=" + c.stdin + "\n")
			}
			if r.stdout != b.String() {
				t.Fatalf("stub saw\n%s\nwant\n%s", r.stdout, b.String())
			}
		})
	}

	// A kit outside the repository exports its absolute root.
	outside := filepath.Join(filepath.Dir(repo), "kit-outside")
	vendorKit(t, outside)
	r := run(t, repo, env, "", "bash", filepath.Join(outside, "bin", "run-gates.sh"), "--x")
	if r.code != 0 || !strings.Contains(r.stdout, "root="+outside+"\n") {
		t.Fatalf("kit outside the toplevel: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	// The stub's status is the front end's.
	writeFile(t, stub, "#!/bin/sh\n"+handshakeLine+"exit 7\n", 0o755)
	if r := run(t, repo, env, "", "bash", front); r.code != 7 {
		t.Fatalf("the binary's status is not passed through: %d", r.code)
	}
}

// TestFrontEndLinkedWorktree covers both worktree branches: a fail-open arm
// borrows the main checkout's binary, and a verdict arm links it only into
// an ignored door path with a matching source stamp.
func TestFrontEndLinkedWorktree(t *testing.T) {
	repo, env := scratchRepo(t)
	writeFile(t, filepath.Join(repo, "go.mod"), "module example.invalid/wt\n", 0o644)
	mustRun(t, repo, env, "git", "add", "-A")
	mustRun(t, repo, env, "git", "commit", "-q", "-m", "init")
	wt := filepath.Join(filepath.Dir(repo), "wt")
	mustRun(t, repo, env, "git", "worktree", "add", "-q", wt)
	// The main binary claims the worktree's own source stamp.
	head, err := gitrepo.SourceStamp(wt)
	if err != nil {
		t.Fatal(err)
	}
	front := filepath.Join(wt, "gate-sdk", "bin", "run-gates.sh")

	// No binary anywhere: the verdict arm names the worktree remedy.
	r := run(t, wt, env, "", "bash", front)
	if r.code != 2 || !strings.Contains(r.stderr, "linked worktree") || !strings.Contains(r.stderr, "run-gates: no link to the main checkout's binary: no main binary") {
		t.Fatalf("no main binary: exit %d stderr %q", r.code, r.stderr)
	}

	stub := "#!/bin/sh\n" + handshakeLine + "if [ \"$1\" = --source-stamp ]; then echo " + head + "; exit 0; fi\necho main-binary \"$@\"\n"
	writeFile(t, filepath.Join(repo, "bin", "gates"), stub, 0o755)

	r = run(t, wt, env, "{}", "bash", front, "--hook", "m")
	if r.code != 0 || r.stdout != "main-binary --hook m\n" {
		t.Fatalf("fail-open arm from a worktree: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}

	r = run(t, wt, env, "", "bash", front, "--run")
	if r.code != 2 || !strings.Contains(r.stderr, "is not ignored by git here") {
		t.Fatalf("unignored door: exit %d stderr %q", r.code, r.stderr)
	}
	if _, err := os.Lstat(filepath.Join(wt, "bin", "gates")); err == nil {
		t.Fatal("a link was made into a door path git does not ignore")
	}

	writeFile(t, filepath.Join(wt, ".gitignore"), "/bin/\n", 0o644)
	r = run(t, wt, env, "", "bash", front, "--run")
	if r.code != 0 || r.stdout != "main-binary --run\n" {
		t.Fatalf("linked door: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}

	// Stamp skew declines: a fresh worktree at a commit whose source differs.
	writeFile(t, filepath.Join(repo, "go.mod"), "module example.invalid/wt2\n", 0o644)
	mustRun(t, repo, env, "git", "commit", "-q", "-am", "next")
	wt2 := filepath.Join(filepath.Dir(repo), "wt2")
	mustRun(t, repo, env, "git", "worktree", "add", "-q", wt2)
	writeFile(t, filepath.Join(wt2, ".gitignore"), "/bin/\n", 0o644)
	r = run(t, wt2, env, "", "bash", filepath.Join(wt2, "gate-sdk", "bin", "run-gates.sh"), "--run")
	if r.code != 2 || !strings.Contains(r.stderr, "stamp skew") {
		t.Fatalf("stamp skew: exit %d stderr %q", r.code, r.stderr)
	}
}

// The two stubs' fail-open lines are held to the binary's set by the gate
// check-front-end-fail-open (registered in this repository's battery); what
// is left here is how the PowerShell twin tests membership.
func TestPowerShellStubTestsFailOpenCaseSensitively(t *testing.T) {
	// The PowerShell twin tests membership case-sensitively.
	data, err := os.ReadFile(kitPath("bin/run-gates.ps1"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "$FailOpenArms -ccontains ") {
		t.Error("run-gates.ps1 does not test the fail-open set with -ccontains")
	}
}

// TestFrontEndsCarryNoPort holds both stubs to a `# no-port:` cause line
// and the envelopes to one literal each, equal in the two halves.
func TestFrontEndsCarryNoPort(t *testing.T) {
	envLit := regexp.MustCompile(`'(\{"systemMessage": "[^'"]*"\})'`)
	var lits [][]string
	for _, f := range []string{"bin/run-gates.sh", "bin/run-gates.ps1"} {
		data, err := os.ReadFile(kitPath(f))
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^# no-port: \S`).Match(data) {
			t.Errorf("%s has no `# no-port:` cause line", f)
		}
		var got []string
		for _, m := range envLit.FindAllStringSubmatch(string(data), -1) {
			got = append(got, m[1])
		}
		if len(got) != 3 {
			t.Fatalf("%s: want the three envelope literals, found %d", f, len(got))
		}
		lits = append(lits, got)
	}
	if strings.Join(lits[0], "\n") != strings.Join(lits[1], "\n") {
		t.Errorf("the envelope literals differ between the halves:\n%q\n%q", lits[0], lits[1])
	}
}

// TestFrontEndProvesTheBinary pins the handshake: an executable that does
// not answer as the gates binary (empty, truncated, another program that
// exits 0) is refused at exit 2 naming its path before anything is handed
// over; under --hook it declines at 0 with the envelope.
func TestFrontEndProvesTheBinary(t *testing.T) {
	repo, env := scratchRepo(t)
	front := filepath.Join(repo, "gate-sdk", "bin", "run-gates.sh")
	real, err := os.ReadFile(gatesBin(t))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "empty"), "", 0o755)
	writeFile(t, filepath.Join(repo, "truncated"), string(real[:len(real)/3]), 0o755)
	writeFile(t, filepath.Join(repo, "silent"), "#!/bin/sh\nexit 0\n", 0o755)
	writeFile(t, filepath.Join(repo, "echoer"), "#!/bin/sh\necho gates-handshake fixed\n", 0o755)
	writeFile(t, filepath.Join(repo, "whole"), string(real), 0o755)
	for _, name := range []string{"empty", "truncated", "silent", "echoer"} {
		t.Run(name, func(t *testing.T) {
			e := with(env, "GATE_SDK_NATIVE_BIN="+name)
			r := run(t, repo, e, "", "bash", front, "--run")
			want := "run-gates: the gates binary ./" + name + " does not answer as the gates binary"
			if r.code != 2 || !strings.HasPrefix(r.stderr, want) || r.stdout != "" {
				t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
			}
			r = run(t, repo, e, "{}", "bash", front, "--hook", "x")
			if r.code != 0 || !strings.HasPrefix(r.stderr, want) {
				t.Fatalf("--hook: exit %d stderr %q", r.code, r.stderr)
			}
			envelope(t, r.stdout)
		})
	}
	r := run(t, repo, with(env, "GATE_SDK_NATIVE_BIN=whole"), "", "bash", front, "--list")
	if r.code != 0 || !strings.Contains(r.stdout, "check-tree-terms") {
		t.Fatalf("the whole binary must pass the handshake: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// TestFrontEndSaysGitIsMissing pins that with git absent from PATH the
// stub says git is missing, never that git refuses the repository, and
// that --hook still declines at 0 with its envelope.
func TestFrontEndSaysGitIsMissing(t *testing.T) {
	repo, env := scratchRepo(t)
	front := filepath.Join(repo, "gate-sdk", "bin", "run-gates.sh")
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	bare := t.TempDir()
	for _, tool := range []string{"dirname", "pwd"} {
		if p, err := exec.LookPath(tool); err == nil {
			if err := os.Symlink(p, filepath.Join(bare, tool)); err != nil {
				t.Fatal(err)
			}
		}
	}
	e := with(env, "PATH="+bare)
	want := "run-gates: git is not installed or not on PATH; install git (the one program gates needs) or put it on PATH\n"
	r := run(t, repo, e, "", bash, front, "--run")
	if r.code != 2 || r.stderr != want {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	r = run(t, repo, e, "{}", bash, front, "--hook", "x")
	if r.code != 0 || r.stderr != want || !strings.Contains(envelope(t, r.stdout), "git is not installed") {
		t.Fatalf("--hook: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}
