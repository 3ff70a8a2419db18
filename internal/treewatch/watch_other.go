//go:build !linux

package treewatch

import "errors"

// Supported reports whether this platform has the watcher: off Linux
// there is none, and every Stop proves the tree clean by reading it.
const Supported = false

// SocketName is the watcher's socket file in the state directory.
const SocketName = "tree-watch.sock"

// Address answers no address off Linux.
func Address(stateDir, gitDir string) string { return "" }

// Ask answers an error off Linux: there is no watcher to ask.
func Ask(addr, cmd string) (Status, error) {
	return Status{}, errors.New("treewatch: no watcher on this platform")
}

// IsForeign reports whether err is Ask's refusal of a foreign listener.
func IsForeign(error) bool { return false }

// Server is never made off Linux.
type Server struct{}

// Listen refuses off Linux.
func Listen(Config) (*Server, error) {
	return nil, errors.New("treewatch: no watcher on this platform")
}

// Serve does nothing off Linux.
func (*Server) Serve() {}

// Tell does nothing off Linux.
func Tell(addr, cmd string) {}
