package gates

// The meta-gates: rules that hold gates themselves (the consumer's scripts,
// the kit's descriptors, their fixtures, SPECs and front ends) to the
// family's contracts. They read gates as data and never run one.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/shlex"
	"github.com/gate-sdk/gates/internal/walk"
)

func metaGates() []gate.Def {
	kits := "GATE_SDK_KIT_DIRS"
	prune := []string{"GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS"}
	return []gate.Def{
		{Name: "check-gate-fail-closed", OwnOnly: true, Rule: checkGateFailClosed, Knobs: []string{kits}},
		{Name: "check-path-dialect", Listing: true, Rule: checkPathDialect, Knobs: append([]string{"GATE_SDK_TESTS_DIR", "GATE_SDK_NATIVE_CRATE", "GATE_SDK_NATIVE_SRC", "GATE_SDK_PATH_CROSSER"}, prune...)},
		{Name: "check-pipe-membership", OwnOnly: true, Listing: true, Rule: checkPipeMembership, Knobs: append([]string{"GATE_SDK_TESTS_DIR"}, prune...)},
		{Name: "check-gate-fixture-coverage", OwnOnly: true, Listing: true, Rule: checkGateFixtureCoverage, Knobs: []string{kits, "GATE_SDK_TESTS_DIR", registry.KitTestsKnob}},
		{Name: "check-assertion-strength", OwnOnly: true, Rule: checkAssertionStrength, Knobs: []string{kits, registry.KitTestsKnob, "GATE_SDK_ASSERTION_STRENGTH_WINDOW"}},
		{Name: "check-front-end-fail-open", OwnOnly: true, Listing: true, Rule: checkFrontEndFailOpen},
		{Name: "check-gate-exemption-tasks", OwnOnly: true, Listing: true, Rule: checkGateExemptionTasks, Knobs: append([]string{kits, "GATE_SDK_QUEUE_FILE", "GATE_SDK_NATIVE_CRATE"}, prune...)},
		{Name: "check-gate-output", OwnOnly: true, Listing: true, Rule: checkGateOutput, Knobs: []string{kits, "GATE_SDK_NATIVE_CRATE", "GATE_SDK_NATIVE_SRC"}},
		{Name: "check-install-disposition", OwnOnly: true, Listing: true, Rule: checkInstallDisposition, Knobs: []string{kits, "GATE_SDK_NATIVE_CRATE", "GATE_SDK_NATIVE_SRC"}},
		{Name: "check-test-hermetic", OwnOnly: true, Rule: checkTestHermetic, Knobs: []string{kits, registry.KitTestsKnob}},
		{Name: "check-shellcheck", OwnOnly: true, PerFile: true, Listing: true, Rule: checkShellcheck, Knobs: []string{kits, registry.KitTemplatesKnob, "GATE_SDK_LINT_EXTRA_DIRS"}, Needs: []string{"shellcheck"}},
		{Name: "check-gate-assertions", OwnOnly: true, Listing: true, Rule: checkGateAssertions, Knobs: []string{kits, "GATE_SDK_NATIVE_CRATE", "GATE_SDK_NATIVE_SRC"}},
	}
}

// dirFS is the registry's file access rooted at the gate's run directory,
// so a member resolves the same whether the gate runs in the battery or in
// a fixture case.
type dirFS struct{ c *gate.Context }

func (d dirFS) ReadFile(name string) ([]byte, error)       { return walk.ReadConfig(runPath(d.c, name)) }
func (d dirFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(runPath(d.c, name)) }
func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(runPath(d.c, name)) }

// searchDirs answers the declaration dirs in resolution order.
func searchDirs(c *gate.Context) []string { return registry.SearchDirs(c.GatesDir, c.KitRoots) }

// loadRegistry reads the consumer's gates.list with every member resolved.
func loadRegistry(c *gate.Context) (*registry.Registry, error) {
	return registryAt(c, c.GatesDir)
}

// registryAt answers the registry under gatesDir. When gatesDir is the
// context's own and the context carries the run's coupling loader, that
// loader's registry is the one: the CLI builds it over the same run
// directory, gates dir and kit roots, reads it once per run, and every
// member shares it. Otherwise (another gates dir named by an operand, a
// context without the loader) the registry is read here.
func registryAt(c *gate.Context, gatesDir string) (*registry.Registry, error) {
	if c.Coupling != nil && gatesDir == c.GatesDir {
		reg, _, err := c.Coupling()
		if err != nil {
			return nil, err
		}
		return ownMembers(c, reg), nil
	}
	reg, err := registry.Load(dirFS{c}, gatesDir, allKitRoots(c))
	if err != nil {
		return nil, err
	}
	return ownMembers(c, reg), nil
}

// ownMembers answers the registry less the members a vendored kit root
// declares: a rule judging gates judges the repository's own (gate/own.go).
// The registry the caller shares is never changed.
func ownMembers(c *gate.Context, reg *registry.Registry) *registry.Registry {
	if len(c.VendoredRoots) == 0 || reg == nil {
		return reg
	}
	own := *reg
	own.Members = nil
	for _, m := range reg.Members {
		if m.Path != "" && c.Vendored(m.Path) {
			continue
		}
		own.Members = append(own.Members, m)
	}
	return &own
}

// memberHeader answers a resolved member's header fields. A declaration
// with no # graph: line is check-graph's finding, so a reader that needs
// only its other fields (# no-fixture:) reads them without the manifest
// line instead of refusing; every other header problem stays a refusal.
func memberHeader(c *gate.Context, m registry.Member) (*registry.Manifest, error) {
	if m.ManifestErr == nil || !registry.IsKind(m.ManifestErr, registry.KindNoManifest) || len(registry.Problems(m.ManifestErr)) != 1 {
		return m.Manifest, m.ManifestErr
	}
	data, err := readFile(c, m.Path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", m.Path, unwrapPath(err))
	}
	return registry.ParseHeader(m.Path, data)
}

// lexShell lexes one shell file, turning the lexer's refusal into an error
// naming the file and position.
func lexShell(path string, data []byte) ([]shlex.Token, error) {
	toks, err := shlex.Lex(string(data))
	if err != nil {
		if e, ok := err.(*shlex.Error); ok {
			return nil, fmt.Errorf("%s:%d:%d: cannot read this shell: %s", path, e.Pos.Line, e.Pos.Col, e.Msg)
		}
		return nil, fmt.Errorf("%s: cannot read this shell: %v", path, err)
	}
	return toks, nil
}

// cmdName answers a command's name word, or "" when it has none or the
// name is quoted or expands (then it names no program this scan knows).
func cmdName(cmd shlex.Command) (string, []shlex.Token) {
	words := cmd.Words()
	i := cmd.Name()
	if i < 0 {
		return "", nil
	}
	w := words[i]
	if w.Kind != shlex.Word || w.Expands {
		return "", nil
	}
	return w.Value, words[i+1:]
}

// shellFile is one member of a shell corpus.
type shellFile struct {
	path  string
	suite bool // a *.test.sh unit-test suite
	data  []byte
}

// shellCorpus answers the tracked shell tree: every tracked *.sh outside
// the prune set that is not a *.test.sh, plus every unit-test suite, a
// *.test.sh directly inside a gate-tests dir (or the resolved tests dir)
// whose path above that dir is unpruned. A file inside a fixture case sits
// below a gate-tests dir, never directly in it, so it is out.
func shellCorpus(c *gate.Context) ([]shellFile, error) {
	files, err := c.Tree.Files()
	if err != nil {
		return nil, err
	}
	prune, err := pruneSet(c)
	if err != nil {
		return nil, err
	}
	testsDir, err := c.Knobs.Scalar("GATE_SDK_TESTS_DIR")
	if err != nil {
		return nil, err
	}
	testsDir = strings.TrimSuffix(treePath(c, testsDir), "/")
	var out []shellFile
	for _, p := range files {
		if !strings.HasSuffix(p, ".sh") {
			continue
		}
		if mode, _ := c.Tree.Mode(p); mode == 0o160000 {
			continue
		}
		suite := false
		if strings.HasSuffix(p, ".test.sh") {
			dir, _ := splitDir(p)
			parent, base := splitDir(dir)
			if base != registry.FixtureDirName && dir != testsDir {
				continue
			}
			if parent != "" && prune.PathPruned(parent+"/x") {
				continue
			}
			suite = true
		} else if prune.PathPruned(p) {
			continue
		}
		data, err := readTracked(c, p)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", p, unwrapPath(err))
		}
		out = append(out, shellFile{path: p, suite: suite, data: data})
	}
	return out, nil
}

// splitDir splits a '/'-path into its directory ("" at top) and basename.
func splitDir(p string) (string, string) {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return "", p
}

// checkScripts answers the check-*.sh declarations of every search dir:
// per dir, names in byte order; and how many check-*.gate descriptors the
// same dirs hold.
func checkScripts(c *gate.Context) (scripts []string, descriptors int, err error) {
	// A vendored kit's checks/ is read too, keeping only what the release
	// did not ship as it is: a file dropped there, or one edited since.
	dirs := searchDirs(c)
	vendoredFrom := len(dirs)
	for _, r := range c.VendoredRoots {
		dirs = append(dirs, registry.Join(r, "checks"))
	}
	for di, dir := range dirs {
		entries, err := os.ReadDir(runPath(c, dir))
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, 0, fmt.Errorf("cannot list %s: %v", dir, unwrapPath(err))
		}
		var names []string
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() || !strings.HasPrefix(n, "check-") {
				continue
			}
			switch {
			case strings.HasSuffix(n, ".sh"):
				names = append(names, n)
			case strings.HasSuffix(n, ".gate"):
				if di < vendoredFrom || !c.Vendored(registry.Join(dir, n)) {
					descriptors++
				}
			}
		}
		sort.Strings(names) // byte order, never the locale's collation
		for _, n := range names {
			p := registry.Join(dir, n)
			if di >= vendoredFrom && c.Vendored(p) {
				continue
			}
			scripts = append(scripts, p)
		}
	}
	return scripts, descriptors, nil
}

// precedingComments answers the contiguous run of comment lines directly
// above line n (1-based) of lines, nearest first.
func precedingComments(lines []string, n int) []string {
	var out []string
	for i := n - 2; i >= 0; i-- {
		t := strings.TrimLeft(lines[i], " \t")
		if !strings.HasPrefix(t, "#") || strings.HasPrefix(t, "#!") {
			break
		}
		out = append(out, t)
	}
	return out
}

// valveIn looks for "# <token>: <reason>" among comment lines. found is
// true when the token is present; reason is its trimmed payload.
func valveIn(comments []string, token string) (found bool, reason string) {
	re := regexp.MustCompile(`^#+\s*` + regexp.QuoteMeta(token) + `:(.*)$`)
	for _, l := range comments {
		if m := re.FindStringSubmatch(l); m != nil {
			return true, strings.TrimSpace(m[1])
		}
	}
	return false, ""
}

// moduleFile answers the Go file holding a compiled gate's rule under the
// port's naming rule: <native-src>/gates/<name less "check-", '-' as '_'>.go.
func moduleFile(src, name string) string {
	stem := strings.ReplaceAll(strings.TrimPrefix(name, "check-"), "-", "_")
	return registry.Join(strings.TrimRight(src, "/"), "gates/"+stem+".go")
}

// nativeModule answers where the Go module's sources are and whether the
// module is present at all: its go.mod is the probe, never a directory, so
// a placed binary does not make a consumer look like the module.
func nativeModule(c *gate.Context) (src string, present bool, err error) {
	crate, err := c.Knobs.Scalar("GATE_SDK_NATIVE_CRATE")
	if err != nil {
		return "", false, err
	}
	src, err = c.Knobs.Scalar("GATE_SDK_NATIVE_SRC")
	if err != nil {
		return "", false, err
	}
	if crate == "" {
		crate = "."
	}
	st, err := os.Stat(runPath(c, registry.Join(crate, goModFile)))
	switch {
	case err == nil:
		return src, !st.IsDir(), nil
	case os.IsNotExist(err):
		return src, false, nil
	}
	return "", false, fmt.Errorf("cannot stat %s: %v", registry.Join(crate, goModFile), unwrapPath(err))
}

// isNotDir reports a path running through a regular file.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// addInLineOrder reports one file's findings sorted by line: a nested
// list is visited after the list holding it, but the report reads top down.
func addInLineOrder(r *gate.Report, found []gate.Finding) {
	sort.SliceStable(found, func(i, j int) bool { return found[i].Line < found[j].Line })
	for _, f := range found {
		r.Add(f)
	}
}

// forEachCommand calls fn on every command of toks and of every list
// nested in it.
func forEachCommand(toks []shlex.Token, fn func(cmd shlex.Command)) {
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		for _, p := range shlex.Split(list) {
			for _, cmd := range p.Commands {
				fn(cmd)
			}
		}
	})
}

// nothingOwn ends a rule judging gates whose only subject here is a
// vendored kit root: clean, the parenthetical saying what of the
// repository's own it found (none) and the report naming the skipped
// root, where the same rule with that root resolved would have read it.
// ok is false when no root was skipped (the rule goes on, or refuses).
func nothingOwn(c *gate.Context, what string) (int, bool) {
	if len(c.VendoredRoots) == 0 {
		return 0, false
	}
	return c.NewReport(nil).Nothing(what), true
}

// allKitRoots answers every resolved kit root, the vendored ones a rule
// judging gates skips included: what a couples= field expands over.
func allKitRoots(c *gate.Context) []string {
	return append(slices.Clone(c.KitRoots), c.VendoredRoots...)
}
