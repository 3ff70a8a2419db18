//go:build !unix

package repo

import "os"

// readFile is os.ReadFile where the direct system-call reader is not built.
func readFile(name string) ([]byte, error) { return os.ReadFile(name) }

// readFileSized is readFile; the hint is of no use to os.ReadFile.
func readFileSized(name string, _ int) ([]byte, error) { return os.ReadFile(name) }
