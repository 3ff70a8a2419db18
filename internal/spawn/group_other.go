//go:build !unix

package spawn

import "os/exec"

// inOwnGroup leaves the child as it is where the platform has no process
// groups: cancelling its context kills the child alone.
func inOwnGroup(*exec.Cmd) {}

func remember(*exec.Cmd) func() { return func() {} }
