package gates

// check-front-end-fail-open: each front-end stub's fail-open declaration
// names exactly the binary's fail-open set. A missing name wedges an
// adopter without the binary at a harness hook; an extra one turns a
// verdict a battery or a timer reads into a silent 0.

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/failopen"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/shlex"
)

const shStub, psStub = "bin/run-gates.sh", "bin/run-gates.ps1"

var (
	shDeclValue = lazyre.New(`^FAIL_OPEN_ARMS='([^']*)'$`)
	psDeclLine  = lazyre.New(`^\s*\$FailOpenArms\s*=(.*)$`)
	psDeclValue = lazyre.New(`^\s*@\(\s*((?:'[^']*'\s*(?:,\s*'[^']*'\s*)*)?)\)\s*(?:#.*)?$`)
	psElement   = lazyre.New(`'([^']*)'`)
)

func checkFrontEndFailOpen(c *gate.Context) int {
	if len(c.Args) > 1 {
		return c.Refuse("usage: check-front-end-fail-open [gate-sdk-root]")
	}
	root := c.Getenv("GATE_SDK_ROOT")
	if len(c.Args) == 1 {
		root = c.Args[0]
	}
	if root == "" {
		root = gateSDKRoot(c.KitRoots)
	}
	root = treePath(c, root)
	// The vendored front end is the release's only while both stubs are
	// the ones it shipped.
	if len(c.Args) == 0 && c.VendoredRoot(root) && c.Vendored(path.Join(root, shStub)) && c.Vendored(path.Join(root, psStub)) {
		if code, ok := nothingOwn(c, "no front end of this repository's own"); ok {
			return code
		}
	}
	want := failopen.Arms()
	r := c.NewReport(map[string]string{
		"A": fmt.Sprintf("make the shell stub's one line read FAIL_OPEN_ARMS='%s' (the binary's fail-open set, internal/failopen)", strings.Join(want, " ")),
		"B": fmt.Sprintf("make the PowerShell stub's one line read $FailOpenArms = @(%s) (the binary's fail-open set, internal/failopen)", psList(want)),
	})
	var seen, absent []string
	for _, stub := range []struct {
		rel, class string
		read       func(path string, data []byte) ([]string, error)
	}{
		{shStub, "A", readShDecl},
		{psStub, "B", readPsDecl},
	} {
		path := registry.Join(root, stub.rel)
		data, present, err := readOptional(c, path)
		if err != nil {
			return c.RefuseErr(err)
		}
		if !present {
			absent = append(absent, path)
			continue
		}
		got, err := stub.read(path, data)
		if err != nil {
			return c.RefuseErr(err)
		}
		seen = append(seen, path)
		// assertion A: the shell stub names exactly the set.
		// assertion B: the PowerShell stub names exactly the set.
		for _, arm := range want {
			if !slices.Contains(got, arm) {
				r.Add(gate.Finding{Class: stub.class, Path: path, Msg: fmt.Sprintf("the fail-open declaration omits %s, which the binary declares fail-open: a tree without the binary wedges at that arm", arm)})
			}
		}
		for _, arm := range got {
			if !slices.Contains(want, arm) {
				r.Add(gate.Finding{Class: stub.class, Path: path, Msg: fmt.Sprintf("the fail-open declaration names %s, which the binary does not declare fail-open: its verdict would read as a silent 0 without the binary", arm)})
			}
		}
	}
	if len(seen) == 0 {
		return c.Refuse("no front-end stub under %s (neither %s nor %s): nothing to hold", root, shStub, psStub)
	}
	note := ""
	if len(absent) > 0 {
		note = "; absent, not held: " + strings.Join(absent, ", ")
	}
	return r.Done(fmt.Sprintf("fail-open set %s named exactly by %s%s", strings.Join(want, " "), strings.Join(seen, " and "), note))
}

// gateSDKRoot answers where the gate-sdk kit sits when neither the
// operand nor GATE_SDK_ROOT says: the resolved kit root (GATE_SDK_KIT_DIRS,
// else the derived set) whose last segment is gate-sdk, else gate-sdk.
func gateSDKRoot(kitRoots []string) string {
	// assertion C: the kit roots GATE_SDK_KIT_DIRS resolves are honoured.
	for _, r := range kitRoots {
		if path.Base(strings.TrimRight(r, "/")) == "gate-sdk" {
			return r
		}
	}
	return "gate-sdk"
}

// readShDecl reads the one FAIL_OPEN_ARMS= assignment of a shell stub. A
// line that only reads the name (the membership loop) is no declaration.
func readShDecl(path string, data []byte) ([]string, error) {
	toks, err := lexShell(path, data)
	if err != nil {
		return nil, err
	}
	var decls []shlex.Token
	forEachCommand(toks, func(cmd shlex.Command) {
		for _, w := range cmd.Words() {
			if w.Kind == shlex.Word && strings.HasPrefix(w.Raw, "FAIL_OPEN_ARMS=") {
				decls = append(decls, w)
			}
		}
	})
	if len(decls) != 1 {
		return nil, fmt.Errorf("%s: want one FAIL_OPEN_ARMS= declaration line, found %d", path, len(decls))
	}
	m := shDeclValue.Get().FindStringSubmatch(decls[0].Raw)
	if m == nil {
		return nil, fmt.Errorf("%s:%d: cannot read %s: the value must be one single-quoted word list", path, decls[0].Pos.Line, decls[0].Raw)
	}
	return sorted(strings.Fields(m[1])), nil
}

// readPsDecl reads the one `$FailOpenArms = @(...)` line of a PowerShell
// stub; a line testing membership ($FailOpenArms -ccontains …) is none.
func readPsDecl(path string, data []byte) ([]string, error) {
	var out []string
	found := 0
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		m := psDeclLine.Get().FindStringSubmatch(line)
		if m == nil || strings.HasPrefix(m[1], "=") {
			continue // no assignment, or an -eq spelled ==
		}
		found++
		v := psDeclValue.Get().FindStringSubmatch(m[1])
		if v == nil {
			return nil, fmt.Errorf("%s:%d: cannot read %s: the value must be an @( ) array of single-quoted strings", path, i+1, strings.TrimSpace(line))
		}
		out = nil
		for _, e := range psElement.Get().FindAllStringSubmatch(v[1], -1) {
			out = append(out, e[1])
		}
	}
	if found != 1 {
		return nil, fmt.Errorf("%s: want one $FailOpenArms = declaration line, found %d", path, found)
	}
	return sorted(out), nil
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

func psList(xs []string) string {
	var q []string
	for _, x := range xs {
		q = append(q, "'"+x+"'")
	}
	return strings.Join(q, ", ")
}
