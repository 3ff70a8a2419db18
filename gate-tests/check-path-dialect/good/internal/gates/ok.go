// Package gates reaches every crossing through walk.
package gates

import (
	"path/filepath"
	"strings"

	"example.com/fixture/internal/walk"
)

func here() (string, error) { return walk.Cwd() }

// path-dialect-exempt: a URL path is no filesystem location
func urlRooted(u string) bool { return strings.HasPrefix(u, "/") }

func rel(p string) bool { return !filepath.IsLocal(p) && strings.HasPrefix(p, "./") }
