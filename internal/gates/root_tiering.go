package gates

// check-root-tiering: every tracked top-level entry of the scanned tree is
// on the root allowlist, as an exact name or a glob. The allowlist is
// optional consumer config; without it a built-in orientation set applies.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/glob"
	"github.com/gate-sdk/gates/internal/patterns"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

func checkRootTiering(c *gate.Context) int {
	if len(c.Args) > 2 {
		return c.Refuse("usage: check-root-tiering [gates-dir] [root]")
	}
	listPath, err := c.Knobs.Scalar("GATE_SDK_ROOT_ALLOWLIST")
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(c.Args) >= 1 {
		// The gates-dir positional relocates the allowlist with the gates
		// directory it names, which must lie inside the run directory: the
		// allowlist of a directory above the tree is not this tree's.
		dir, inside := walk.ListingSpelling(c.Dir, c.Args[0])
		if !inside {
			return c.Refuse("gates-dir %s lies outside the run directory %s (or reaches it through '..'): name the gates directory inside the tree", c.Args[0], c.Dir)
		}
		listPath = registry.Join(dir, "root-allowlist.list")
	}
	files, err := c.Tree.Files()
	if err != nil {
		return c.RefuseErr(err)
	}
	root := "."
	if len(c.Args) == 2 {
		// assertion C: a root that names nothing is refused, not "0
		// entries".
		if root, err = listingRoot(c, c.Args[1], files); err != nil {
			return c.RefuseErr(err)
		}
	}
	// assertion A: the allowlist is read when present (a present file
	// replaces the built-in set wholesale) and refused when unreadable.
	allow, source, err := rootAllowlist(c, listPath)
	if err != nil {
		return c.RefuseErr(err)
	}

	r := c.NewReport(map[string]string{
		"entry": fmt.Sprintf("move the entry under an allowlisted directory, or add its name (or a glob) to %s in the same commit", listPath),
	})
	var entries []string
	seen := map[string]bool{}
	// The listing is in byte order as a rule, so a path mostly shares its
	// top-level entry with the one before: that one needs no lookup.
	last := ""
	for _, p := range files {
		rel := p
		if root != "." {
			if !underRoot(root, p) {
				continue
			}
			rel = p[len(root)+1:]
		}
		top := rel
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			top = rel[:i]
		}
		if top == last && len(entries) > 0 {
			continue
		}
		last = top
		if !seen[top] {
			seen[top] = true
			entries = append(entries, top)
		}
	}
	// assertion B: every tracked top-level entry matches an allowlist entry.
	for _, e := range entries {
		if !allowed(e, allow) {
			r.Add(gate.Finding{Class: "entry", Path: e, Msg: "tracked top-level entry is not on the root allowlist (" + source + ")"})
		}
	}
	return r.Done(fmt.Sprintf("%d top-level entries allowed by %s", len(entries), source))
}

// rootAllowlist answers the allowlist's entries and a phrase naming where
// they came from: the file when present, else the built-in set.
func rootAllowlist(c *gate.Context, listPath string) ([]string, string, error) {
	if listPath != "" {
		data, present, err := readOptional(c, listPath)
		if err != nil {
			return nil, "", err
		}
		if present {
			var out []string
			for _, l := range patterns.LiveLines(data) {
				e := strings.TrimSpace(l.Text)
				e = strings.TrimPrefix(e, "./")
				if t := strings.TrimRight(e, "/"); t != "" {
					e = t
				}
				out = append(out, e)
			}
			return out, listPath, nil
		}
	}
	queue, err := c.Knobs.Scalar("GATE_SDK_QUEUE_FILE")
	if err != nil {
		return nil, "", err
	}
	agent, err := c.Knobs.Scalar("GATE_SDK_AGENT_FILE")
	if err != nil {
		return nil, "", err
	}
	// consumer-value-exempt: §check-root-tiering A rules the built-in orientation set a kit constant; a consumer replaces it with GATE_SDK_ROOT_ALLOWLIST
	set := []string{"README.md", "LICENSE", ".gitignore", "SPEC-*.md"}
	for _, f := range []string{queue, agent} {
		if f = strings.TrimPrefix(f, "./"); f != "" {
			if i := strings.IndexByte(f, '/'); i >= 0 {
				f = f[:i]
			}
			set = append(set, f)
		}
	}
	what := "the built-in set"
	if listPath != "" {
		what += ", no " + listPath
	}
	return set, what, nil
}

// allowed reports whether entry equals or glob-matches an allowlist entry.
func allowed(entry string, allow []string) bool {
	for _, a := range allow {
		if a == entry || glob.Match(a, entry) {
			return true
		}
	}
	return false
}
