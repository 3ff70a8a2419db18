//go:build linux

package spawn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Detach returns at once, and the child leads a session of its own (so
// the caller's end does not take it), its stdio the null device.
func TestDetachStartsALeaderOfItsOwnSession(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	script := `read -r _ _ _ _ _ sid _ < /proc/self/stat; echo "$$ $sid $(readlink /proc/$$/fd/1)" > "$1.tmp" && mv "$1.tmp" "$1"`
	start := time.Now()
	if err := Detach(Cmd{Program: Sh(), Args: []string{"-c", script, "sh", out}, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Detach waited %v", d)
	}
	var data []byte
	for i := 0; i < 500; i++ {
		var err error
		if data, err = os.ReadFile(out); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	f := strings.Fields(string(data))
	if len(f) != 3 || f[0] != f[1] || f[2] != os.DevNull {
		t.Fatalf("the detached child answered %q: want its pid as its session id and stdout on %s", data, os.DevNull)
	}
}
