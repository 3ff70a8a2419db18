package gate

// A gate that judges gates judges the repository's own. In a consumer the
// kit root `gates init` vendored (the one its lock names) is the release's
// copy, proven by that release and its fixture pairs: such a rule sees
// the tracked listing without it, and its clean line says so.

import (
	"fmt"
	"strings"
)

// Vendored reports whether a Dir-relative file is the release's and so
// not judged: it lies in a vendored kit root and, where the context can
// tell (Shipped), the lock records it with the digest it has now. A file
// dropped into the vendored kit, or one edited since init wrote it, is
// the repository's own.
func (c *Context) Vendored(p string) bool {
	// assertion L: the exemption covers what the release shipped, byte for byte.
	return UnderAny(p, c.VendoredRoots) && (c.Shipped == nil || c.Shipped(p))
}

// VendoredRoot reports whether a Dir-relative path lies in a vendored kit
// root at all, shipped or not: for a rule asking about a directory.
func (c *Context) VendoredRoot(p string) bool {
	return UnderAny(p, c.VendoredRoots)
}

// UnderAny reports whether p is one of roots or lies below one; both are
// '/'-spelled and relative to the same directory.
func UnderAny(p string, roots []string) bool {
	p = strings.TrimPrefix(p, "./")
	for _, r := range roots {
		r = strings.TrimSuffix(strings.TrimPrefix(r, "./"), "/")
		if r == "" || r == "." {
			continue
		}
		if p == r || strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return false
}

// vendoredNote is the clause a report of a rule that skipped vendored
// kit roots carries: "vendored kit at gate-sdk/ not judged: proven by its
// release".
func (c *Context) vendoredNote() string {
	if len(c.VendoredRoots) == 0 {
		return ""
	}
	var names []string
	for _, r := range c.VendoredRoots {
		names = append(names, strings.TrimSuffix(r, "/")+"/")
	}
	noun := "kit"
	if len(names) > 1 {
		noun = "kits"
	}
	return fmt.Sprintf("vendored %s at %s not judged: proven by its release", noun, strings.Join(names, ", "))
}

// OwnTree is a listing without the vendored kit roots: Files leaves out
// every path under one; Read and Mode still answer them (a member's
// declaration is read where it resolves). It offers the inner tree's
// claims and blob ids, never its whole-listing digest, which names the
// unfiltered listing.
// shipped, when set, keeps in the listing a file under a vendored root
// that it does not vouch for.
func OwnTree(inner Tree, vendored []string, shipped func(string) bool) Tree {
	if len(vendored) == 0 {
		return inner
	}
	return ownTree{inner: inner, vendored: vendored, shipped: shipped}
}

type ownTree struct {
	inner    Tree
	vendored []string
	shipped  func(string) bool
}

func (t ownTree) Files() ([]string, error) {
	files, err := t.inner.Files()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		if !UnderAny(f, t.vendored) || (t.shipped != nil && !t.shipped(f)) {
			out = append(out, f)
		}
	}
	return out, nil
}

func (t ownTree) Read(p string) ([]byte, error) { return t.inner.Read(p) }
func (t ownTree) Mode(p string) (uint32, bool)  { return t.inner.Mode(p) }
func (t ownTree) Claim(paths []string) Claim    { return (&Context{Tree: t.inner}).ClaimReads(paths) }
func (t ownTree) FromBlob(p string) bool        { b, ok := t.inner.(BlobBacked); return ok && b.FromBlob(p) }
func (t ownTree) BlobID(p string) (string, bool) {
	if b, ok := t.inner.(Blobs); ok {
		return b.BlobID(p)
	}
	return "", false
}
