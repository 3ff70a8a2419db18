package gates

// check-template-registry-parity: a kit's shipped .list registry template
// names exactly the artifacts the kit ships for it.

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
)

// nativeRegistries is the binary's declaration of the registries whose
// members it dispatches itself: kit leaf -> registry name -> member names.
// A declared registry is in population with no sibling directory, its
// members shipped as surely as files. No kit of this port has moved a
// .list registry into the binary, so the table is empty; the rule takes
// it as a parameter so the widening is exercised by the unit tests.
var nativeRegistries = map[string]map[string][]string{}

// kitTemplateDirs answers the template tree of each of roots, kit roots
// prefixed by the scan root under (empty for the repository):
// <kit root>/templates, or where GATE_SDK_KIT_TEMPLATES_DIR puts gate-sdk's,
// read under the same scan root.
func kitTemplateDirs(c *gate.Context, roots []string, under string) ([]string, error) {
	over, err := c.Knobs.Words(registry.KitTemplatesKnob)
	if err != nil {
		return nil, err
	}
	if under != "" {
		for i := range over {
			over[i] = registry.Join(under, over[i])
		}
	}
	return registry.KitTemplatesDirs(roots, over)
}

// sweepRoot answers a sweep's optional [root] operand, "" when none.
func sweepRoot(c *gate.Context) string {
	if len(c.Args) == 1 {
		return c.Args[0]
	}
	return ""
}

// kitTemplates answers the entries of a kit's template tree tdir: none
// when it does not exist, a refusal when it cannot be read.
func kitTemplates(c *gate.Context, tdir string) ([]fs.DirEntry, error) {
	present, err := isDirAt(c, tdir)
	if err != nil || !present {
		return nil, err
	}
	ents, err := runFS{c}.ReadDir(tdir)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", tdir, unwrapPath(err))
	}
	return ents, nil
}

func checkTemplateRegistryParity(c *gate.Context) int {
	return templateRegistryParity(c, nativeRegistries)
}

func templateRegistryParity(c *gate.Context, native map[string]map[string][]string) int {
	roots, code, ok := rootSweep(c)
	if !ok {
		return code
	}
	tracked, err := c.Tree.Files()
	if err != nil {
		return c.Refuse("cannot list the tracked files (git ls-files): %v", err)
	}
	r := c.NewReport(map[string]string{
		"unregistered": "add a line naming the shipped artifact to the registry template; a kit's template registers everything the kit bundles",
		"stranded":     "drop the line from the registry template, or ship the artifact it names",
		"undeclared":   "ship the registry template the binary declares it dispatches, or drop the registry from the binary's native declaration",
	})
	tdirs, err := kitTemplateDirs(c, roots, sweepRoot(c))
	if err != nil {
		return c.RefuseErr(err)
	}
	registries, skipped := 0, 0
	for k, kit := range roots {
		leaf := path.Base(kit)
		reached := map[string]bool{}
		tdir := tdirs[k]
		ents, err := kitTemplates(c, tdir)
		if err != nil {
			return c.RefuseErr(err)
		}
		var lists []string
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".list") {
				lists = append(lists, e.Name())
			}
		}
		for _, file := range lists {
			name := strings.TrimSuffix(file, ".list")
			sibling := registry.Join(kit, name)
			hasDir, err := isDirAt(c, sibling)
			if err != nil {
				return c.RefuseErr(err)
			}
			declared, isNative := native[leaf][name]
			if !hasDir && !isNative {
				skipped++
				continue
			}
			registries++
			reached[name] = true
			tpl := registry.Join(tdir, file)
			data, err := readFile(c, tpl)
			if err != nil {
				return c.Refuse("cannot read %s: %v", tpl, unwrapPath(err))
			}
			list, err := registry.ParseList(tpl, data)
			if err != nil {
				return c.RefuseErr(err)
			}
			shipped := map[string]bool{}
			for _, n := range declared {
				shipped[n] = true
			}
			if hasDir {
				prefix := strings.TrimPrefix(sibling, "./") + "/"
				for _, f := range tracked {
					rest, ok := strings.CutPrefix(f, prefix)
					if ok && !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".sh") {
						shipped[strings.TrimSuffix(rest, ".sh")] = true
					}
				}
			}
			listed := map[string]bool{}
			for _, e := range list.Entries {
				listed[e.Name] = true
			}
			// assertion A: every shipped artifact has its registry line.
			for _, n := range sortedNames(shipped) {
				if !listed[n] {
					r.Add(gate.Finding{Class: "unregistered", Path: tpl, Msg: fmt.Sprintf("kit %s ships %s for registry %s, which the template does not register", leaf, n, name)})
				}
			}
			// assertion B: every registry line names a shipped artifact.
			for _, e := range list.Entries {
				if !shipped[e.Name] {
					r.Add(gate.Finding{Class: "stranded", Path: tpl, Line: e.Line, Msg: fmt.Sprintf("template registers %s, which kit %s does not ship for registry %s", e.Name, leaf, name)})
				}
			}
		}
		// assertion C: a native declaration for a kit in the sweep was reached.
		var names []string
		for n := range native[leaf] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if !reached[n] {
				r.Add(gate.Finding{Class: "undeclared", Path: registry.Join(tdir, n+".list"), Msg: fmt.Sprintf("the binary dispatches kit %s's registry %s natively, and the kit ships no template for it", leaf, n)})
			}
		}
	}
	done := r.Done
	if registries == 0 {
		done = r.Nothing
	}
	return done(fmt.Sprintf("%d registry templates in parity across %d kit roots, %d templates without a sibling or native declaration", registries, len(roots), skipped))
}
