package consumersmoke

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// ValveMarker opens a kit's declaration that a shipped gate stays out of
// the scratch registry on purpose.
const ValveMarker = "# smoke-unregistered:"

// Host is the invoking checkout, where the corroborating probe runs.
type Host struct {
	Top     string
	Bin     string   // absolute
	Roots   []string // absolute, index-aligned with the scratch's Kits
	Environ []string
}

// Accounting is the registration accounting's result.
type Accounting struct {
	Probed, Self, Hand, Unaccounted int
	Registered                      int
	Elapsed                         time.Duration
	// Findings redden the run; Notes are informational.
	Findings []string
	Notes    []string
}

// Line is the accounting's verdict line.
func (a Accounting) Line() string {
	return fmt.Sprintf("CONSUMER-SMOKE: accounting \u2014 %d unregistered gate(s) probed in %dms (%d self-declared, %d hand-declared, %d unaccounted)",
		a.Probed, a.Elapsed.Milliseconds(), a.Self, a.Hand, a.Unaccounted)
}

type valve struct {
	kit, reason string
	line        int
}

type shipped struct {
	name, kit, decl string // decl: absolute declaration path in the scratch
	kitIndex        int
}

// Account probes every gate a vendored kit ships that the scratch
// registry does not list, and reads each result against the output
// contract: exit 2 in the scratch and 0 or 1 in the invoking checkout is a
// surface the install does not write (self-declared); anything else must
// be declared with the valve or reddens the run.
func Account(s *Scratch, h Host) (Accounting, error) {
	// assertion H: probe first, reasons second.
	start := time.Now()
	var a Accounting
	registered, err := scratchRegistered(s)
	if err != nil {
		return a, err
	}
	a.Registered = len(registered)
	gates, err := shippedGates(s)
	if err != nil {
		return a, err
	}
	valves, findings := readValves(s)
	a.Findings = append(a.Findings, findings...)
	byKit := map[string]map[string]bool{}
	for _, g := range gates {
		if byKit[g.kit] == nil {
			byKit[g.kit] = map[string]bool{}
		}
		byKit[g.kit][g.name] = true
	}
	exempt := map[string]bool{}
	for _, g := range gates {
		if registered[g.name] {
			continue
		}
		a.Probed++
		code, err := probe(s.Dir, g.decl, g.name, s.Bin, append(append([]string(nil), s.Env...), "GATE_SDK_ROOT="+walk.Child(s.Dir, s.SdkAt)))
		if err != nil {
			return a, err
		}
		hostCode := -1
		if code == 2 {
			hostCode, err = hostProbe(h, g)
			if err != nil {
				return a, err
			}
		}
		v, declared := valves[g.name]
		switch {
		case code == 2 && (hostCode == 0 || hostCode == 1):
			a.Self++
			exempt[g.name] = true
			if zeroConfig(g.decl) {
				a.Notes = append(a.Notes, fmt.Sprintf("%s (%s) declares # install: zero-config, yet it reads a surface the scratch install does not write (scratch exit 2, invoking checkout exit %d)", g.name, g.kit, hostCode))
			}
		case declared && v.reason != "":
			a.Hand++
		default:
			a.Unaccounted++
			a.Findings = append(a.Findings, fmt.Sprintf("%s (%s) ships unregistered and nothing accounts for it (%s); register it in %s/smoke/install.sh, or declare it there: %s %s \u2014 <reason>",
				g.name, g.kit, probeReading(code, hostCode), g.kit, ValveMarker, g.name))
		}
	}
	names := make([]string, 0, len(valves))
	for n := range valves {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := valves[n]
		switch {
		case registered[n]:
			a.Findings = append(a.Findings, fmt.Sprintf("%s/smoke/install.sh:%d: stale %s %s: the gate is registered; drop the declaration", v.kit, v.line, ValveMarker, n))
		case !byKit[v.kit][n]:
			a.Findings = append(a.Findings, fmt.Sprintf("%s/smoke/install.sh:%d: stale %s %s: %s ships no such gate; drop the declaration", v.kit, v.line, ValveMarker, n, v.kit))
		case exempt[n]:
			a.Findings = append(a.Findings, fmt.Sprintf("%s/smoke/install.sh:%d: %s %s is owed no reason: the probe already exempts it (its surface is absent from the scratch); drop the declaration", v.kit, v.line, ValveMarker, n))
		}
	}
	a.Elapsed = time.Since(start)
	return a, nil
}

func probeReading(code, hostCode int) string {
	switch {
	case code == 0:
		return "it passes in the scratch, so registering it costs nothing"
	case code == 1:
		return "it finds violations in the scratch and nothing runs it"
	case hostCode >= 0:
		return fmt.Sprintf("exit %d in the scratch and exit %d in the invoking checkout: broken or environment-dependent, not surface-absent", code, hostCode)
	}
	return fmt.Sprintf("exit %d in the scratch", code)
}

// scratchRegistered reads the scratch's gates.list (the default gates dir:
// the scratch carries no consumer config).
func scratchRegistered(s *Scratch) (map[string]bool, error) {
	path := walk.Child(s.Dir, "scripts/gates.list")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, envErr("cannot read the scratch registry: %v", err)
	}
	l, err := registry.ParseList("scripts/gates.list", data)
	if err != nil {
		return nil, envErr("the scratch registry does not parse: %v", err)
	}
	out := map[string]bool{}
	for _, e := range l.Entries {
		out[e.Name] = true
	}
	return out, nil
}

// shippedGates lists each vendored kit's checks/ declarations, the first
// kit declaring a name owning it; .sh beats .gate within one kit.
func shippedGates(s *Scratch) ([]shipped, error) {
	var out []shipped
	seen := map[string]bool{}
	for i, k := range s.Kits {
		dir := walk.Child(walk.Child(s.Dir, k), "checks")
		decls, err := registry.Declarations(registry.OS{}, []string{dir})
		if err != nil {
			return nil, envErr("cannot list %s: %v", dir, err)
		}
		sort.SliceStable(decls, func(a, b int) bool {
			if decls[a].Name != decls[b].Name {
				return decls[a].Name < decls[b].Name
			}
			return decls[a].Kind == registry.Shell
		})
		for _, d := range decls {
			if seen[d.Name] {
				continue
			}
			seen[d.Name] = true
			out = append(out, shipped{name: d.Name, kit: k, decl: d.Path, kitIndex: i})
		}
	}
	return out, nil
}

// readValves reads every vendored kit's declarations; a line missing a
// field is a finding.
func readValves(s *Scratch) (map[string]valve, []string) {
	out := map[string]valve{}
	var findings []string
	for _, k := range s.Kits {
		data, err := os.ReadFile(walk.Child(walk.Child(s.Dir, k), "smoke/install.sh"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a kit with no install recipe declares nothing
		}
		if err != nil {
			// An unreadable recipe would silently drop its declarations.
			findings = append(findings, fmt.Sprintf("%s/smoke/install.sh: cannot read its %s declarations: %v", k, ValveMarker, err))
			continue
		}
		for i, l := range strings.Split(string(data), "\n") {
			_, rest, ok := strings.Cut(l, ValveMarker)
			if !ok || !strings.HasPrefix(strings.TrimSpace(l), "#") {
				continue
			}
			name, reason := registry.ParseUnregistered(rest)
			if name == "" || reason == "" {
				findings = append(findings, fmt.Sprintf("%s/smoke/install.sh:%d: %s needs both fields: <gate-name> \u2014 <reason>", k, i+1, ValveMarker))
				continue
			}
			out[name] = valve{kit: k, reason: reason, line: i + 1}
		}
	}
	return out, findings
}

// probe runs one declaration in dir with both streams discarded and
// answers its status. A .gate declaration runs on bin, whose absence ends
// the run as an environment failure.
func probe(dir, decl, name, bin string, env []string) (int, error) {
	var prog spawn.Program
	var args []string
	if strings.HasSuffix(decl, ".gate") {
		fi, err := os.Stat(bin)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			return 0, envErr("%s: probing %s needs the gates binary at %s, which is absent or not executable", dir, name, bin)
		}
		prog, args = spawn.At(bin), []string{name}
	} else {
		p, err := spawn.ConsumerCommand(decl, decl)
		if err != nil {
			return 2, nil
		}
		prog = p
	}
	c, err := spawn.Run(spawn.Cmd{Program: prog, Args: args, Dir: dir, Env: env})
	if err != nil {
		return 2, nil
	}
	return c.Code(), nil
}

// hostProbe re-runs a gate in the invoking checkout, from the kit root's
// own checks/ dir.
func hostProbe(h Host, g shipped) (int, error) {
	if g.kitIndex >= len(h.Roots) {
		return 2, nil
	}
	dir := walk.Child(h.Roots[g.kitIndex], "checks")
	decl := ""
	for _, ext := range []string{".sh", ".gate"} {
		p := walk.Child(dir, g.name+ext)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			decl = p
			break
		}
	}
	if decl == "" {
		return 2, nil
	}
	env := append(append([]string(nil), h.Environ...), "GATE_SDK_ROOT="+h.Roots[0])
	return probe(h.Top, decl, g.name, h.Bin, env)
}

// zeroConfig reports whether a declaration says # install: zero-config.
func zeroConfig(decl string) bool {
	data, err := os.ReadFile(decl)
	if err != nil {
		return false
	}
	m, err := registry.ParseHeader(decl, data)
	if err != nil || m == nil || m.Install == nil {
		return false
	}
	return strings.TrimSpace(m.Install.Text) == registry.InstallZero
}
