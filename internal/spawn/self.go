package spawn

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// deletedMark is what Linux appends to /proc/self/exe once the file the
// process started from has been unlinked or replaced.
const deletedMark = " (deleted)"

// procSelfExe is Linux's link to the running image, which stays openable
// after the start name has been replaced.
const procSelfExe = "/proc/self/exe"

// SelfPath answers the path this process started from, for a value that
// outlives the process or is read for its directories. Where Linux marks
// the start name deleted and the marked name is no file, the mark is
// dropped, so a later reader starts whatever build now sits at that name; a
// file whose own name ends in the mark is answered as itself.
func SelfPath() (string, error) {
	// assertion I: the only reader of this binary's own path.
	if runtime.GOOS == "linux" {
		if raw, err := os.Readlink(procSelfExe); err == nil {
			return selfPathFrom(raw, isFile), nil
		}
	}
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("could not read this binary's own path: %w", err)
	}
	return p, nil
}

func selfPathFrom(raw string, exists func(string) bool) string {
	if strings.HasSuffix(raw, deletedMark) && !exists(raw) {
		return strings.TrimSuffix(raw, deletedMark)
	}
	return raw
}

// SelfImage answers a path that starts this very build, for a child spawned
// or a copy taken while this process runs: the start name, as the kernel
// reports it, while that is a file, else the process's own image link. Once
// a rebuild has replaced the file under a running battery the kernel's name
// carries the deleted mark and names nothing, so the link is answered and
// the child is the build that is running.
func SelfImage() (string, error) {
	if runtime.GOOS == "linux" {
		if raw, err := os.Readlink(procSelfExe); err == nil {
			return selfImageFrom(raw, true, isFile), nil
		}
	}
	p, err := SelfPath()
	if err != nil {
		return "", err
	}
	return selfImageFrom(p, false, isFile), nil
}

func selfImageFrom(start string, haveImageLink bool, exists func(string) bool) string {
	if exists(start) || !haveImageLink {
		return start
	}
	return procSelfExe
}
