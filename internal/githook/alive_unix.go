//go:build unix

package githook

import "syscall"

// pidAlive reports whether a process with this id runs on this host (one
// we may not signal still runs).
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
