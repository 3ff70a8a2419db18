package walk

import (
	"fmt"
	"os"
)

// ReplaceFile writes data to a sibling of p named for this process and
// renames it over p, so a reader sees the old file or the new one, never
// a part; the sibling is removed when either step fails. The records the
// hooks, the agent members and init keep beside the repository go
// through it.
func ReplaceFile(p string, data []byte) error {
	tmp := fmt.Sprintf("%s.%d.tmp", p, os.Getpid())
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
