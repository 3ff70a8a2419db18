//go:build !unix

package repo

import (
	"os"

	"github.com/gate-sdk/gates/internal/walk"
)

// readFile is os.ReadFile where the direct system-call reader is not built.
func readFile(name string) ([]byte, error) { return readFileSized(name, -1) }

// readFileSized is readFile; the hint is of no use to os.ReadFile. Only a
// regular file is opened (a link is followed to one), as on unix.
func readFileSized(name string, _ int) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, walk.NotRegular(name, fi.Mode())
	}
	return os.ReadFile(name)
}
