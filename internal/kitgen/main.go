// Command kitgen writes each kit's module archive, kits/<kit>.modules.txtar,
// and the knob tables decoded ahead of time, internal/knob/tables_gen.go.
// The archive:
// the files of the kit's nested Go modules (fixture cases holding a
// go.mod), which go:embed cannot carry, in the text form kits.DecodeArchive
// reads. `make kit-manifest` runs it from the module root after rewriting
// the manifests it reads; a unit test in kits holds every archive equal to
// the files it names.
package main

import (
	"fmt"
	"os"

	"github.com/gate-sdk/gates/internal/knob"
	"github.com/gate-sdk/gates/kits"
)

func main() {
	if len(os.Args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/kitgen (from the module root, after the manifests)")
		os.Exit(2)
	}
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "kitgen: %v\n", err)
		os.Exit(2)
	}
}

func run() error {
	for _, kit := range kits.Vendorable() {
		name := "kits/" + kit + ".manifest"
		raw, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		entries, err := kits.ParseManifest(name, raw)
		if err != nil {
			return err
		}
		files, err := kits.ModuleFiles(kit, entries, os.ReadFile)
		if err != nil {
			return err
		}
		if err := os.WriteFile("kits/"+kits.ArchiveName(kit), kits.EncodeArchive(kits.ArchiveHeader, files), 0o644); err != nil {
			return err
		}
	}
	// The knob tables, decoded ahead of time (internal/knob/tables_gen.go).
	all, err := kits.All()
	if err != nil {
		return err
	}
	src, err := knob.GeneratedSource(all)
	if err != nil {
		return err
	}
	return os.WriteFile("internal/knob/tables_gen.go", src, 0o644)
}
