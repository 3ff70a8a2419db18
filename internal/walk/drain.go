package walk

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// CaptureDrainUsage is the usage line of `gates --emit capture-drain`.
const CaptureDrainUsage = "usage: gates --emit capture-drain [--done] [--] <log>"

// CaptureDrain is the `gates --emit capture-drain` body. Without done it
// rotates the log's unread lines into <log>.drain and leaves the live log
// present and empty, answering the drain's path when the drain holds a byte and ""
// otherwise (an empty drain is removed). With done it removes <log>.drain;
// an absent one is no error. It touches only log and its two companions.
//
// The order makes a crash repeat lines, never drop them: a leftover
// <log>.drain.part is appended to the drain first; the log is renamed to the
// drain, or, when an unfinished triage left a drain, to the part file,
// which is appended and removed; the live log is then append-opened
// (created, never truncated), so a line a writer landed after the rename
// survives. A log that does not exist yet has nothing to drain.
func CaptureDrain(log string, done bool) (string, error) {
	if log == "" {
		return "", errors.New(CaptureDrainUsage)
	}
	drain := log + ".drain"
	part := log + ".drain.part"
	if done {
		// assertion Q: --done removes the drain; absent is not an error.
		if err := os.Remove(drain); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("could not remove %s: %w", drain, err)
		}
		return "", nil
	}
	// assertion Q: a leftover part file is appended to the drain first.
	if exists(part) {
		if err := appendAndRemove(part, drain); err != nil {
			return "", err
		}
	}
	if exists(log) {
		if !exists(drain) {
			if err := rename(log, drain); err != nil {
				return "", err
			}
		} else {
			if err := rename(log, part); err != nil {
				return "", err
			}
			if err := appendAndRemove(part, drain); err != nil {
				return "", err
			}
		}
	}
	// assertion Q: the live log is append-opened, never truncated.
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return "", fmt.Errorf("could not open %s: %w", log, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("could not close %s: %w", log, err)
	}
	fi, err := os.Stat(drain)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("could not stat %s: %w", drain, err)
	case fi.Size() > 0:
		return drain, nil
	}
	if err := os.Remove(drain); err != nil {
		return "", fmt.Errorf("could not remove %s: %w", drain, err)
	}
	return "", nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func rename(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return fmt.Errorf("could not rename %s to %s: %w", from, to, err)
	}
	return nil
}

// appendAndRemove appends src's bytes to dst (creating it) and removes src.
func appendAndRemove(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("could not open %s: %w", src, err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("could not open %s: %w", dst, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("could not append %s to %s: %w", src, dst, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("could not append %s to %s: %w", src, dst, err)
	}
	in.Close()
	if err := os.Remove(src); err != nil {
		return fmt.Errorf("could not remove %s: %w", src, err)
	}
	return nil
}
