// Package spawn is the only code in the module that starts a process.
//
// Contract:
//   - Run returns an error only when the program could not be started, in
//     the words "could not run <prog>: <cause>"; anything that ran yields a
//     Completed, whose stdout is reachable only through an accessor that has
//     already checked the exit status. "Capture stdout, ignore the status"
//     therefore has no spelling in this module.
//   - RunMerged is the shell's 2>&1: both streams share one descriptor, the
//     report is readable whatever the status, and the status is read apart.
//   - RunStreamed is a filter: a body on stdin, stdout and stderr kept apart,
//     and a start failure folded into the code as the shell would (127 for an
//     absent program, 126 for one that will not execute).
//   - The child's working directory is set on the spawn (Cmd.Dir); this
//     process never changes its own. A nil Cmd.Env inherits the environment;
//     Cmd.ExtraEnv is appended either way. A nil Stdin is the null device.
//   - A signalled child's code reads 128+n, as bash's $? spells it.
//   - Program resolution through PATHEXT happens on Windows only; elsewhere
//     the name is handed to the OS unchanged.
//   - SelfImage and SelfPath are the module's only readers of its own path.
package spawn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
)

// Cmd describes one child process.
type Cmd struct {
	Program Program
	Args    []string
	// Dir is the child's working directory; empty inherits this process's.
	Dir string
	// Env is the child's whole environment; nil inherits this process's.
	Env []string
	// ExtraEnv is appended to the environment (later entries win).
	ExtraEnv []string
	// UnsetEnv names variables dropped from the environment before
	// ExtraEnv is appended, so a caller can hand the child exactly the
	// values its own lookup holds, absence included.
	UnsetEnv []string
	// Stdin feeds the child; nil is the null device.
	Stdin io.Reader
	// Recorder, when set, notes the program's name before the spawn.
	Recorder *Recorder
	// Ctx, when set, bounds the child: where the platform allows, the
	// child leads a process group of its own, and the context's end kills
	// that whole group (the child and every process it started that stayed
	// in it), so a gate's own children cannot outlive its budget.
	Ctx context.Context
}

// Recorder notes the name of every program a spawning face is about to
// start. Tests hand one to the code under test and read it back; it is safe
// for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	names []string
}

func (r *Recorder) note(name string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
}

// Names answers the noted names in spawn order.
func (r *Recorder) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.names...)
}

// StartError is the one error a spawning face returns: the program could not
// be started.
type StartError struct {
	Program Program
	Err     error
}

func (e *StartError) Error() string {
	return fmt.Sprintf("could not run %s: %s", e.Program.label(), causeOf(e.Err))
}

func (e *StartError) Unwrap() error { return e.Err }

// causeOf strips the wrapping exec adds, so the sentence reads once.
func causeOf(err error) string {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == "fork/exec" {
		return pe.Err.Error()
	}
	return err.Error()
}

// status is an exit status as the shell would read it.
type status struct {
	code     int // exit code, or 128+n for signal n
	signaled bool
}

func (s status) ok() bool { return s.code == 0 && !s.signaled }

// Completed is a child that ran to its end.
type Completed struct {
	prog   Program
	stdout []byte
	stderr []byte
	st     status
}

// Succeeded reports whether the child exited 0.
func (c *Completed) Succeeded() bool { return c.st.ok() }

// Stdout answers the child's stdout and true only when it exited 0. On any
// other status it answers nil and false: an empty capture from a crashed
// child cannot be read as an answer.
func (c *Completed) Stdout() ([]byte, bool) {
	// assertion B: stdout is handed out only after the status is read.
	if !c.st.ok() {
		return nil, false
	}
	return c.stdout, true
}

// Code is the exit code; a child killed by signal n reads 128+n.
func (c *Completed) Code() int { return c.st.code }

// Stderr is the child's diagnostics, whatever the status. It tells apart
// two failures sharing one exit code (git config exits 1 both for an unset
// key, silently, and for an invalid one, saying so); it is never an answer.
func (c *Completed) Stderr() []byte { return c.stderr }

// Signaled reports whether the child was killed by a signal.
func (c *Completed) Signaled() bool { return c.st.signaled }

// FailureReport composes the exit code and both captured streams into one
// printable string, and answers false when the child succeeded: it adds a
// cause to a refusal and never a path to a clean verdict. Both stream
// labels are always present.
func (c *Completed) FailureReport() (string, bool) {
	if c.st.ok() {
		return "", false
	}
	return composeReport(c.prog, c.st, c.stdout, c.stderr), true
}

func composeReport(p Program, st status, stdout, stderr []byte) string {
	var b strings.Builder
	if st.signaled {
		fmt.Fprintf(&b, "%s exited %d (killed by signal %d)", p.label(), st.code, st.code-128)
	} else {
		fmt.Fprintf(&b, "%s exited %d", p.label(), st.code)
	}
	stream(&b, "stdout", stdout)
	stream(&b, "stderr", stderr)
	return b.String()
}

func stream(b *strings.Builder, label string, data []byte) {
	text := strings.TrimRight(strings.ToValidUTF8(string(data), "\uFFFD"), "\n")
	if text == "" {
		fmt.Fprintf(b, "\n%s: (empty)", label)
		return
	}
	fmt.Fprintf(b, "\n%s:", label)
	for _, line := range strings.Split(text, "\n") {
		b.WriteString("\n  ")
		b.WriteString(line)
	}
}

// Run starts the child, waits for it and captures both streams apart.
func Run(cmd Cmd) (*Completed, error) {
	var out, errb bytes.Buffer
	st, err := start(cmd, cmd.Stdin, &out, &errb)
	if err != nil {
		return nil, err
	}
	return &Completed{prog: cmd.Program, stdout: out.Bytes(), stderr: errb.Bytes(), st: st}, nil
}

// Merged is a child whose stdout and stderr were written to one descriptor,
// interleaved exactly as the child wrote them.
type Merged struct {
	prog   Program
	output []byte
	st     status
}

// Output is the merged report, readable whatever the status: for a linter
// the failing run is the one whose report matters. Grade by Succeeded or
// Code, never by the report's emptiness.
func (m *Merged) Output() []byte { return m.output }

// Succeeded reports whether the child exited 0.
func (m *Merged) Succeeded() bool { return m.st.ok() }

// Code answers the exit code and true, or false for a signalled child,
// whose status grades nothing.
func (m *Merged) Code() (int, bool) {
	if m.st.signaled {
		return 0, false
	}
	return m.st.code, true
}

// ReportedCode is the code as a "failed (exit N)" line prints it: 128+n
// for signal n.
func (m *Merged) ReportedCode() int { return m.st.code }

// RunMerged starts the child with stdout and stderr on one descriptor (the
// shell's 2>&1). It errs only when the program could not be started.
func RunMerged(cmd Cmd) (*Merged, error) {
	var out bytes.Buffer
	// assertion D: one writer for both streams: os/exec hands the child a single pipe as
	// fd 1 and fd 2, so the interleave is the child's own.
	st, err := start(cmd, cmd.Stdin, &out, &out)
	if err != nil {
		return nil, err
	}
	return &Merged{prog: cmd.Program, output: out.Bytes(), st: st}, nil
}

// RunPassing starts the child with stdout and stderr both handed to w as
// the child writes them, so a caller relaying a child (the hook launcher)
// shows its report live rather than after it exits. It answers the code as
// a "failed (exit N)" line prints it, and errs only when the program could
// not be started.
func RunPassing(cmd Cmd, w io.Writer) (int, error) {
	st, err := start(cmd, cmd.Stdin, w, w)
	if err != nil {
		return 0, err
	}
	return st.code, nil
}

// Streamed is a filter's result: stdout and stderr kept apart.
type Streamed struct {
	stdout []byte
	stderr []byte
	st     status
	err    error
}

// StartErr answers the start failure a 127 or 126 was folded from, nil
// when the program ran: a caller that must tell "could not start" from
// "ran and said 127" reads it.
func (s *Streamed) StartErr() error { return s.err }

// Stdout is ungated: the caller grades by Code or by a framing count an
// empty capture cannot satisfy.
func (s *Streamed) Stdout() []byte { return s.stdout }

// Stderr is the filter's diagnostics, never merged into its stdout. For a
// program that could not start it carries the start failure's sentence.
func (s *Streamed) Stderr() []byte { return s.stderr }

// Code is the exit code as bash reports it: 128+n for signal n, 127 for a
// program that is absent, 126 for one present that will not execute.
func (s *Streamed) Code() int { return s.st.code }

// RunStreamed writes body to the child's stdin and reads its stdout back.
// It never errs: a start failure becomes code 127 or 126.
func RunStreamed(cmd Cmd, body []byte) *Streamed {
	var out, errb bytes.Buffer
	st, err := start(cmd, bytes.NewReader(body), &out, &errb)
	if err != nil {
		return &Streamed{stderr: []byte(err.Error() + "\n"), st: status{code: startFailureCode(err)}, err: err}
	}
	return &Streamed{stdout: out.Bytes(), stderr: errb.Bytes(), st: st}
}

// startFailureCode maps a start failure onto the shell's codes.
func startFailureCode(err error) int {
	// assertion E: a filter that could not start reads as bash would.
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return 127
	default:
		// Present but not executable: EACCES, ENOEXEC, a directory.
		return 126
	}
}

// start is the single site that builds and runs an exec.Cmd.
func start(cmd Cmd, stdin io.Reader, stdout, stderr io.Writer) (status, error) {
	p := cmd.Program
	if !p.Valid() {
		return status{}, &StartError{Program: Program{name: "(no program)"}, Err: errors.New("not a roster member")}
	}
	cmd.Recorder.note(p.recordName())
	// assertion F: directory, environment and stdin are set on the child.
	env := cmd.Env
	if env == nil && (len(cmd.ExtraEnv) > 0 || len(cmd.UnsetEnv) > 0) {
		env = os.Environ()
	}
	if len(cmd.UnsetEnv) > 0 {
		env = withoutVars(env, cmd.UnsetEnv)
	}
	if len(cmd.ExtraEnv) > 0 {
		env = append(append([]string(nil), env...), cmd.ExtraEnv...)
	}
	name := p.argv0()
	if runtime.GOOS == "windows" {
		// assertion G: Windows alone resolves through PATHEXT.
		name = resolveWindows(name, lookupIn(env))
	}
	c := exec.Command(name, cmd.Args...)
	if cmd.Ctx != nil {
		c = exec.CommandContext(cmd.Ctx, name, cmd.Args...)
		// assertion F: a bounded child is killed with its process group.
		inOwnGroup(c)
	}
	// A PATH entry that is relative (".", or empty) is where the shell would
	// find the program too; keeping it found keeps OnPath's answer and the
	// spawn's in step.
	if c.Err != nil && errors.Is(c.Err, exec.ErrDot) {
		c.Err = nil
	}
	if runtime.GOOS != "windows" && env != nil && !strings.Contains(name, "/") {
		// os/exec searches this process's PATH; a child given its own
		// environment is searched for on that one, as the shell does.
		if found, ok := lookPathIn(name, lookupIn(env)); ok {
			c.Path, c.Err = found, nil
		} else {
			c.Err = &exec.Error{Name: name, Err: exec.ErrNotFound}
		}
	}
	c.Dir = cmd.Dir
	c.Env = env
	c.Stdin = stdin
	c.Stdout = stdout
	c.Stderr = stderr
	if cmd.Ctx != nil {
		if err := c.Start(); err != nil {
			return status{}, &StartError{Program: p, Err: err}
		}
		forget := remember(c)
		err := c.Wait()
		forget()
		if err == nil {
			return status{}, nil
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return statusOf(ee.ProcessState), nil
		}
		if c.ProcessState != nil {
			return statusOf(c.ProcessState), nil
		}
		return status{}, &StartError{Program: p, Err: err}
	}
	err := c.Run()
	if err == nil {
		return status{}, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return statusOf(ee.ProcessState), nil
	}
	// assertion A: only a child that never started is an error.
	return status{}, &StartError{Program: p, Err: err}
}

func statusOf(ps *os.ProcessState) status {
	// assertion C: signal n reads 128+n, as bash's $? spells it.
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return status{code: 128 + int(ws.Signal()), signaled: true}
	}
	return status{code: ps.ExitCode()}
}

// LookupEnv reads one variable; os.LookupEnv is the production value.
type LookupEnv func(string) (string, bool)

// lookupIn answers a lookup over an explicit environment list (last entry
// wins, as exec dedups), or over this process's when env is nil.
func lookupIn(env []string) LookupEnv {
	if env == nil {
		return os.LookupEnv
	}
	return func(key string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && envKeyEqual(k, key) {
				return v, true
			}
		}
		return "", false
	}
}

func envKeyEqual(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// withoutVars answers env less every entry naming one of names.
func withoutVars(env, names []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			if k == n {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}
