//go:build !unix

package spawn

import "errors"

// Detach is not built off unix: nothing there starts a service.
func Detach(cmd Cmd) error {
	return &StartError{Program: cmd.Program, Err: errors.New("no detached start on this platform")}
}
