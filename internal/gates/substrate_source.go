package gates

import (
	"fmt"
	"go/scanner"
	"go/token"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
)

// manifestFields are the descriptor-only (manifest-class) fields.
var manifestFields = []string{"graph", "install", "armed-by", "projection", "no-fixture"}

// manifestInSource reports each manifest-class comment under
// GATE_SDK_NATIVE_SRC among the tracked files; Go files are read as Go
// (comments only, so a string holding a header is not an annotation),
// every other file by its comment leader (#, // or /*).
func manifestInSource(c *gate.Context, found func(p string, line int, text string)) (int, error) {
	src, err := c.Knobs.Scalar("GATE_SDK_NATIVE_SRC")
	if err != nil {
		return 0, err
	}
	prefix := treePath(c, src)
	files, err := trackedUnder(c, prefix)
	if err != nil {
		return 0, err
	}
	for _, p := range files {
		data, err := c.Tree.Read(p)
		if err != nil {
			return 0, err
		}
		if strings.HasSuffix(p, ".go") {
			goCommentLines(p, data, func(line int, text string) {
				if manifestLine(text) {
					found(p, line, text)
				}
			})
			continue
		}
		for i, l := range strings.Split(string(data), "\n") {
			if manifestLine(l) {
				found(p, i+1, l)
			}
		}
	}
	return len(files), nil
}

// manifestLine reports whether a line opens with a comment leader and a
// manifest-class field.
func manifestLine(l string) bool {
	t := strings.TrimLeft(l, " \t")
	for _, lead := range []string{"//", "/*", "#", "*"} {
		if rest, ok := strings.CutPrefix(t, lead); ok {
			rest = strings.TrimLeft(rest, " \t")
			for _, f := range manifestFields {
				if strings.HasPrefix(rest, f+":") {
					return true
				}
			}
			return false
		}
	}
	return false
}

// goCommentLines calls fn with every line of every comment in a Go file.
func goCommentLines(name string, data []byte, fn func(line int, text string)) {
	fset := token.NewFileSet()
	f := fset.AddFile(name, -1, len(data))
	var s scanner.Scanner
	s.Init(f, data, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return
		}
		if tok != token.COMMENT {
			continue
		}
		start := fset.Position(pos).Line
		for i, l := range strings.Split(lit, "\n") {
			fn(start+i, l)
		}
	}
}

// trackedUnder answers the tracked files under a tree-relative prefix.
func trackedUnder(c *gate.Context, prefix string) ([]string, error) {
	all, err := c.Tree.Files()
	if err != nil {
		return nil, err
	}
	if prefix == "." {
		return all, nil
	}
	under := prefix + "/"
	if sort.StringsAreSorted(all) {
		// A listing in byte order (the index's) holds the prefix's files
		// as one run: search for its first and stop after its last.
		lo := sort.SearchStrings(all, under)
		hi := lo
		for hi < len(all) && strings.HasPrefix(all[hi], under) {
			hi++
		}
		return all[lo:hi:hi], nil
	}
	var out []string
	for _, p := range all {
		if strings.HasPrefix(p, under) {
			out = append(out, p)
		}
	}
	return out, nil
}

// vendoredImplementation reports a tracked <name>.<ext> under a kit root
// for a declared descriptor (any extension but .gate and .sh), and a
// module root inside a kit root. It answers how many kit files it read.
func vendoredImplementation(c *gate.Context, s *seam, found func(p, msg string)) (int, error) {
	names := map[string]bool{}
	for _, d := range s.descriptors {
		names[d.Name] = true
	}
	n := 0
	for _, r := range c.KitRoots {
		files, err := trackedUnder(c, treePath(c, r))
		if err != nil {
			return 0, err
		}
		n += len(files)
		for _, p := range files {
			b := path.Base(p)
			dot := strings.LastIndexByte(b, '.')
			if dot <= 0 {
				continue // an extensionless name is an artifact question, not this one
			}
			stem, ext := b[:dot], b[dot+1:]
			if names[stem] && ext != "gate" && ext != "sh" {
				found(p, fmt.Sprintf("%s sits in a kit root beside the descriptor set, so the payload would vendor an implementation of %s", p, stem))
			}
		}
	}
	crate, _, err := crateDir(c)
	if err != nil {
		return 0, err
	}
	cp := treePath(c, crate)
	for _, r := range c.KitRoots {
		rp := treePath(c, r)
		if cp == rp || strings.HasPrefix(cp, rp+"/") {
			found(crate, fmt.Sprintf("the module root %s (GATE_SDK_NATIVE_CRATE) lies inside the kit root %s, so the payload would carry the source", crate, r))
		}
	}
	return n, nil
}
