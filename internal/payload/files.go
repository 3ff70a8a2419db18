// Package payload is the adoption path's mechanism: the release artifacts
// and their digest sidecars, the packer that assembles an installer
// payload, and the vendoring `gates init` performs from the kit copy the
// binary carries, with its lock and its reversal.
//
// The file primitives here are shared with the consumer smoke, which
// vendors by copy into a scratch consumer: one copy, one placement, one
// digest, whichever path moves the bytes.
package payload

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/digest"
	"github.com/gate-sdk/gates/internal/walk"
)

// PlaceArtifact copies from to to, making to's parents and keeping the
// mode, so an executable lands executable.
func PlaceArtifact(from, to string) error {
	fi, err := os.Stat(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(parentOf(to), 0o755); err != nil {
		return err
	}
	return CopyFile(from, to, fi.Mode().Perm())
}

func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "."
}

// CopyFile copies from to to with the mode perm set absolutely.
func CopyFile(from, to string, perm fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, cerr := io.Copy(out, in)
	if err := out.Close(); cerr == nil {
		cerr = err
	}
	if cerr == nil {
		cerr = os.Chmod(to, perm)
	}
	return cerr
}

// CopyTree copies the directory src to dst: files with their modes,
// symbolic links as links.
func CopyTree(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	return walk.Walk(src, walk.Options{}, func(rel string, d fs.DirEntry) error {
		from, to := walk.Child(src, rel), walk.Child(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(from)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		default:
			fi, err := d.Info()
			if err != nil {
				return err
			}
			return CopyFile(from, to, fi.Mode().Perm())
		}
	})
}

// Digest answers the lowercase hex sha256 of data (digest.Bytes).
func Digest(data []byte) string { return digest.Bytes(data) }

// FileDigest answers the lowercase hex sha256 of the file at p
// (digest.File).
func FileDigest(p string) (string, error) { return digest.File(p) }

// SidecarSuffix is the digest sidecar's suffix: <artifact>.sha256.
const SidecarSuffix = ".sha256"

// SidecarLine is the sidecar's one line, in `sha256sum -c` form with the
// artifact's bare name.
func SidecarLine(digest, name string) string { return digest + "  " + name + "\n" }

// ReadSidecar parses a sidecar's text: one "<64 hex>  <name>" line (a
// binary-mode '*' before the name is accepted, as sha256sum writes it).
func ReadSidecar(path string, data []byte) (digest, name string, err error) {
	text := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	if strings.Contains(text, "\n") {
		return "", "", fmt.Errorf("%s: a sidecar holds one line", path)
	}
	d, n, ok := strings.Cut(text, " ")
	n = strings.TrimPrefix(strings.TrimPrefix(n, " "), "*")
	if !ok || len(d) != 64 || strings.Trim(d, "0123456789abcdef") != "" || n == "" || strings.ContainsAny(n, "/\\") {
		return "", "", fmt.Errorf("%s:1: not a \"<sha256 hex>  <bare file name>\" line: %q", path, text)
	}
	return d, n, nil
}
