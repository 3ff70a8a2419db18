package walk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// TmpIgnoreBody is what a freshly created tmp dir's .gitignore holds.
const TmpIgnoreBody = "*\n"

// EnsureTmpDir creates the GATE_SDK_TMP_DIR value dir (relative to cwd
// unless rooted) and, when it does not name cwd itself, gives it a
// .gitignore holding "*" so the scratch ignores itself. An existing
// .gitignore belongs to the consumer and is never rewritten; a value naming
// the working directory gets none, since that file would be the consumer's
// root ignore.
func EnsureTmpDir(dir, cwd string) error {
	if dir == "" {
		return errors.New("GATE_SDK_TMP_DIR is empty")
	}
	target := dir
	if !PathRoot(dir) {
		target = Child(cwd, dir)
	}
	if err := os.MkdirAll(target, 0o755); err != nil {
		return fmt.Errorf("could not create the tmp dir %s: %w", target, err)
	}
	if same, err := sameDir(target, cwd); err != nil {
		return err
	} else if same {
		return nil
	}
	// assertion P: created once, never rewritten, none at the cwd.
	ignore := Child(target, ".gitignore")
	f, err := os.OpenFile(ignore, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("could not create %s: %w", ignore, err)
	}
	_, werr := f.WriteString(TmpIgnoreBody)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		return fmt.Errorf("could not write %s: %w", ignore, errors.Join(werr, cerr))
	}
	return nil
}

func sameDir(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, fmt.Errorf("could not stat %s: %w", a, err)
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, fmt.Errorf("could not stat %s: %w", b, err)
	}
	return os.SameFile(fa, fb), nil
}
