// Package walk is the fixture's crosser: it alone reads the cwd.
package walk

import (
	"os"
	"path/filepath"
)

// Cwd answers the working directory.
func Cwd() (string, error) { return os.Getwd() }

// Abs answers p made absolute.
func Abs(p string) (string, error) { return filepath.Abs(p) }
