package gate

// A gate that judges gates judges the repository's own. In a consumer the
// kit root `gates init` vendored (the one its lock names) is the release's
// copy, proven by that release and its fixture pairs: such a rule sees
// the tracked listing without it, and its clean line says so.

import (
	"crypto/sha256"
	"encoding/hex"
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
// claims and blob ids, never the inner whole-listing digest, which names
// the unfiltered listing.
// shipped, when set, keeps in the listing a file under a vendored root
// that it does not vouch for.
func OwnTree(inner Tree, vendored []string, shipped func(string) bool) Tree {
	return OwnTreeKeyed(inner, vendored, shipped, "")
}

// OwnTreeKeyed is OwnTree naming its own whole listing in one digest when
// the inner tree names its own (OwnDigest): key spells everything shipped
// answers from besides the bytes of the files it is asked about (the
// lock's recorded digests), "" for no digest.
func OwnTreeKeyed(inner Tree, vendored []string, shipped func(string) bool, key string) Tree {
	if len(vendored) == 0 {
		return inner
	}
	return ownTree{inner: inner, vendored: vendored, shipped: shipped, key: key}
}

type ownTree struct {
	inner    Tree
	vendored []string
	shipped  func(string) bool
	key      string
}

// TreeDigest names the filtered listing: the inner listing's digest (its
// paths, modes and blob ids) with the vendored roots and the shipped
// rule's key, since the filter is a function of those and of the bytes
// the blob ids name.
func (t ownTree) TreeDigest() (string, bool) {
	d, ok := t.inner.(TreeDigests)
	if !ok || t.key == "" {
		return "", false
	}
	digest, ok := d.TreeDigest()
	if !ok {
		return "", false
	}
	return OwnDigest(digest, t.vendored, t.key), true
}

// OwnDigest is the digest OwnTreeKeyed's tree names over an inner tree
// whose digest is inner.
func OwnDigest(inner string, vendored []string, key string) string {
	h := sha256.New()
	frame := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	frame("own")
	frame(inner)
	for _, r := range vendored {
		frame(r)
	}
	frame(key)
	return hex.EncodeToString(h.Sum(nil))
}

// OwnPrior translates a prior tree of the inner listing to the filtered
// one: nil when p is, or when a changed path lies in a vendored root,
// since whether such a file is in the filtered listing follows its bytes.
func OwnPrior(p *Prior, vendored []string, key string) *Prior {
	if len(vendored) == 0 {
		return p
	}
	if p == nil || key == "" {
		return nil
	}
	for _, c := range p.Changed {
		if UnderAny(c, vendored) {
			return nil
		}
	}
	return &Prior{Digest: OwnDigest(p.Digest, vendored, key), Changed: p.Changed}
}

// ListingErr answers the error t's Files would answer, nil when it lists:
// a repository probe that builds no filtered listing. An OwnTree's filter
// never fails, so its answer is its inner tree's.
func ListingErr(t Tree) error {
	if o, ok := t.(ownTree); ok {
		return ListingErr(o.inner)
	}
	_, err := t.Files()
	return err
}

func (t ownTree) Files() ([]string, error) {
	files, err := t.inner.Files()
	if err != nil {
		return nil, err
	}
	// UnderAny's spelling of each root, made once rather than per path.
	var roots []string
	for _, r := range t.vendored {
		r = strings.TrimSuffix(strings.TrimPrefix(r, "./"), "/")
		if r != "" && r != "." {
			roots = append(roots, r)
		}
	}
	under := func(p string) bool {
		p = strings.TrimPrefix(p, "./")
		for _, r := range roots {
			if strings.HasPrefix(p, r) && (len(p) == len(r) || p[len(r)] == '/') {
				return true
			}
		}
		return false
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		if !under(f) || (t.shipped != nil && !t.shipped(f)) {
			out = append(out, f)
		}
	}
	return out, nil
}

func (t ownTree) Read(p string) ([]byte, error) { return t.inner.Read(p) }
func (t ownTree) Mode(p string) (uint32, bool)  { return t.inner.Mode(p) }

// Staged reports the inner tree is a staged one (the index a commit
// records, a commit's tree), where only what it tracks is the commit's.
func (t ownTree) Staged() bool { return IsStaged(t.inner) }

func (t ownTree) Claim(paths []string) Claim { return (&Context{Tree: t.inner}).ClaimReads(paths) }
func (t ownTree) FromBlob(p string) bool     { b, ok := t.inner.(BlobBacked); return ok && b.FromBlob(p) }
func (t ownTree) BlobID(p string) (string, bool) {
	if b, ok := t.inner.(Blobs); ok {
		return b.BlobID(p)
	}
	return "", false
}
