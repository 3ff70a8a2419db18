//go:build unix

package spawn

import (
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
)

// inOwnGroup makes c lead a new process group and makes cancelling its
// context kill that group, not the child alone: a shell gate's pipeline
// and background jobs go with it.
func inOwnGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error {
		return syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
}

// A child in a group of its own no longer hears the terminal's interrupt,
// so while any such group lives this process relays SIGINT, SIGTERM and
// SIGHUP to every live group and then dies of the signal itself, as it
// would have without the relay.
var groups struct {
	sync.Mutex
	live    map[int]bool
	started bool
}

// remember notes c's group as live until the returned func is called.
func remember(c *exec.Cmd) func() {
	pid := c.Process.Pid
	groups.Lock()
	if groups.live == nil {
		groups.live = map[int]bool{}
	}
	groups.live[pid] = true
	if !groups.started {
		groups.started = true
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
		go relay(ch)
	}
	groups.Unlock()
	return func() {
		groups.Lock()
		delete(groups.live, pid)
		groups.Unlock()
	}
}

func relay(ch chan os.Signal) {
	sig := <-ch
	groups.Lock()
	for pid := range groups.live {
		_ = syscall.Kill(-pid, sig.(syscall.Signal))
	}
	groups.Unlock()
	signal.Reset(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	_ = syscall.Kill(os.Getpid(), sig.(syscall.Signal))
}
