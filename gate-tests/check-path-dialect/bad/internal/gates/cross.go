// Package gates crosses outside the crosser.
package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

func cwd() (string, error) { return os.Getwd() }

func abs(p string) (string, error) { return filepath.Abs(p) }

func rooted(p string) bool { return filepath.IsAbs(p) || strings.HasPrefix(p, "/") }

func src() string { _, f, _, _ := runtime.Caller(0); return f }

func top() *exec.Cmd { return exec.Command("git", "rev-parse", "--show-toplevel") }

// path-dialect-exempt:
func real(p string) (string, error) { return filepath.EvalSymlinks(p) }
