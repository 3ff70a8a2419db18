package githook

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// SourceName is the record, beside the opt-in record, of the binary the
// placed hooks were copied from: its absolute path and its stat fields at
// placement. With the hook's own stat fields in the opt-in record it lets
// the launcher know, from three stats, that the binary the knob names is
// still the very bytes the hook carries, and run the hook itself instead
// of starting a second copy of the same program.
const SourceName = "gate-hooks.source"

const sourceHeader = "gates hook source v1"

// sourcePath answers the source record's path for the hooks directory dir.
func sourcePath(dir string) string { return walk.Child(filepath.Dir(dir), SourceName) }

// writeSource records src, the file every hook in dir was just copied from.
func writeSource(dir, src string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return fmt.Errorf("cannot record the hooks' source %s: %v", src, err)
	}
	body := fmt.Sprintf("%s\n%s\n%s\n", sourceHeader, keyOf(fi), strconv.Quote(src))
	if err := walk.ReplaceFile(sourcePath(dir), []byte(body)); err != nil {
		return fmt.Errorf("cannot record the hooks' source: %v", err)
	}
	return nil
}

// SameBuild reports whether the hook file self and the binary bin are the
// same bytes, from stat fields alone: self's are those the opt-in record
// holds for the hook --install-hooks placed under its name, and bin is the
// recorded source with the stat fields it had when the hook was copied
// from it. Any doubt (no record, another path, a moved, rewritten or
// re-moded file) answers false, and the launcher starts bin as before.
func SameBuild(self, bin string) bool {
	// assertion O: the hook is the binary when neither changed since the
	// copy, by the records --install-hooks wrote.
	dir := filepath.Dir(self)
	data, err := walk.ReadConfig(sourcePath(dir))
	if err != nil {
		return false
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 3 || lines[0] != sourceHeader {
		return false
	}
	src, err := strconv.Unquote(lines[2])
	if err != nil || src != bin {
		return false
	}
	bi, err := os.Stat(bin)
	if err != nil || keyOf(bi).String() != lines[1] {
		return false
	}
	files, ok, err := readRecord(dir)
	if err != nil || !ok {
		return false
	}
	si, err := os.Stat(self)
	if err != nil {
		return false
	}
	for _, f := range files {
		if f.name == filepath.Base(self) {
			return f.stat == keyOf(si) && f.sum != ""
		}
	}
	return false
}
