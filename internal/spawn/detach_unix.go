//go:build unix

package spawn

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// Detach starts cmd as a process of its own session (setsid), its stdio
// the null device, and does not wait for it: a service that outlives the
// call (the Stop's tree watcher). cmd.Stdin and cmd.Ctx are not taken: such
// a child reads nothing and ends by its own rule.
func Detach(cmd Cmd) error {
	p := cmd.Program
	if !p.Valid() {
		return &StartError{Program: Program{name: "(no program)"}, Err: errors.New("not a roster member")}
	}
	cmd.Recorder.note(p.recordName())
	env := cmd.Env
	if len(cmd.ExtraEnv) > 0 {
		if env == nil {
			env = os.Environ()
		}
		env = append(append([]string(nil), env...), cmd.ExtraEnv...)
	}
	c := exec.Command(p.argv0(), cmd.Args...)
	c.Dir, c.Env = cmd.Dir, env
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return &StartError{Program: p, Err: err}
	}
	// Not waited for: the child is the init process's once this one ends.
	return c.Process.Release()
}
