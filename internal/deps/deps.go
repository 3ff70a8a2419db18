//go:build tools

// Package deps pins the module's direct dependencies until the packages
// that use them land; go mod tidy keeps a requirement a tools-tagged file
// imports.
package deps

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/go-git/go-git/v5"
	_ "github.com/owenrumney/go-sarif/v2/sarif"
	_ "github.com/spf13/cobra"
	_ "golang.org/x/sync/errgroup"
)
