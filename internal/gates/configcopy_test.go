package gates

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
)

// The shared readers take the copy the caller chose (the git hook: the
// index's) over the disk's, fall back to the disk when none was chosen,
// and refuse, naming the file, when the chosen copy cannot be read.
func TestReadersTakeTheChosenCopy(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "list"), []byte("disk\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "other"), []byte("disk other\n"), 0o644)
	c := &gate.Context{Dir: dir, ConfigCopy: func(abs string) ([]byte, bool, error) {
		switch filepath.Base(abs) {
		case "list":
			return []byte("index\n"), true, nil
		case "broken":
			return nil, false, errors.New("bad object")
		}
		return nil, false, nil
	}}
	if data, err := readFile(c, "list"); err != nil || string(data) != "index\n" {
		t.Errorf("readFile: %q %v; want the index's copy", data, err)
	}
	if data, present, err := readOptional(c, "list"); err != nil || !present || string(data) != "index\n" {
		t.Errorf("readOptional: %q %v %v; want the index's copy", data, present, err)
	}
	if data, err := readOperand(c, "list", "pattern file"); err != nil || string(data) != "index\n" {
		t.Errorf("readOperand: %q %v; want the index's copy", data, err)
	}
	if data, err := readFile(c, "other"); err != nil || string(data) != "disk other\n" {
		t.Errorf("a file with no chosen copy: %q %v; want the disk's", data, err)
	}
	if _, present, err := readOptional(c, "absent"); err != nil || present {
		t.Errorf("an absent file with no chosen copy: present %v err %v", present, err)
	}
	for name, read := range map[string]func() error{
		"readFile":     func() error { _, err := readFile(c, "broken"); return err },
		"readOptional": func() error { _, _, err := readOptional(c, "broken"); return err },
		"readOperand":  func() error { _, err := readOperand(c, "broken", "list"); return err },
	} {
		if err := read(); err == nil || !strings.Contains(err.Error(), "broken") {
			t.Errorf("%s over an unreadable chosen copy: %v; want a refusal naming the file", name, err)
		}
	}
}
