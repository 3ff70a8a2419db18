package gates

// check-release-change-declared: two kit changes reach an adopter with no
// gate code moving, so the release declaration surface must name them —
// a kit bin/ tool removed since the last v* tag (class R: an adopter's
// script calling it breaks), and a template `gates init` claims whose data
// lines changed (class T: the seeded copy tightens gates on upgrade). The
// publisher's own gate: only the kit-source tree makes either change.

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/declaration"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/kits"
)

// surfaceName is the declaration surface's file name in the workflow dir.
const surfaceName = "release-declarations.md"

// declaredRoles are the surface sections whose bullets declare a path.
var declaredRoles = []string{"behavior", "authoring"}

// changeRec is one --name-status record: a status letter and a path.
type changeRec struct {
	status byte
	path   string
}

// changeSet is the reading the verdict is taken over: the base (empty when
// dormant) and the changed paths, with the two contents class T compares.
type changeSet struct {
	base    string
	records []changeRec
	// atBase and inIndex answer a path's bytes on either side.
	atBase  func(p string) ([]byte, error)
	inIndex func(p string) ([]byte, error)
}

// parseChangeDump reads the argument mode's dump: a first record
// "base <tag>" or "base -" (dormant), then one "<status>\t<path>" record per
// line as `git diff --no-renames --name-status` prints it. A rename or copy
// record cannot come from that reading and is refused.
func parseChangeDump(name string, data []byte) (base string, recs []changeRec, err error) {
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(data) == 0 || len(lines) == 0 {
		return "", nil, fmt.Errorf("%s: empty change dump; its first record is `base <tag>` or `base -`", name)
	}
	first := strings.TrimSuffix(lines[0], "\r")
	tag, ok := strings.CutPrefix(first, "base ")
	if !ok || tag == "" || strings.ContainsAny(tag, " \t") {
		return "", nil, fmt.Errorf("%s:1: first record %q is not `base <tag>` or `base -`", name, first)
	}
	if tag != "-" {
		base = tag
	}
	for i, raw := range lines[1:] {
		l := strings.TrimSuffix(raw, "\r")
		if l == "" {
			continue
		}
		st, p, ok := strings.Cut(l, "\t")
		if !ok || len(st) != 1 || !strings.Contains("ADMT", st) || p == "" || strings.Contains(p, "\t") {
			return "", nil, fmt.Errorf("%s:%d: %q is not a `<A|D|M|T><TAB><path>` record of a --no-renames reading", name, i+2, l)
		}
		recs = append(recs, changeRec{status: st[0], path: p})
	}
	if base == "" && len(recs) > 0 {
		return "", nil, fmt.Errorf("%s:1: a dormant dump (`base -`) carries no change records", name)
	}
	return base, recs, nil
}

// parseNameStatusZ reads `git diff --name-status -z` output: status and
// path alternate, each NUL-ended.
func parseNameStatusZ(out []byte) ([]changeRec, error) {
	f := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	if len(out) == 0 {
		return nil, nil
	}
	if len(f)%2 != 0 {
		return nil, fmt.Errorf("git diff --name-status -z answered an odd field count")
	}
	var recs []changeRec
	for i := 0; i < len(f); i += 2 {
		st := string(f[i])
		if len(st) < 1 || !strings.Contains("ADMTUX", st[:1]) || len(f[i+1]) == 0 {
			return nil, fmt.Errorf("git diff --name-status -z: unreadable record %q", st)
		}
		recs = append(recs, changeRec{status: st[0], path: string(f[i+1])})
	}
	return recs, nil
}

// dataLines answers a template's non-comment, non-blank lines as a
// multiset. A line whose first non-blank is '#' is a comment; trailing
// blanks (and a CR) carry nothing.
func dataLines(b []byte) map[string]int {
	m := map[string]int{}
	for _, raw := range strings.Split(string(b), "\n") {
		l := strings.TrimRight(raw, " \t\r")
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		m[l]++
	}
	return m
}

func sameMultiset(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, n := range a {
		if b[k] != n {
			return false
		}
	}
	return true
}

// surfaceBullets answers each top-level bullet of the declaring sections
// with its continuation lines (indented, not a nested bullet), as one text.
// A nested bullet and its lines are not the top-level bullet's.
func surfaceBullets(doc string, headings []string) []string {
	lines, _ := declaration.SectionLines(doc, headings)
	var out []string
	cur, open := "", false
	flush := func() {
		if open {
			out = append(out, cur)
		}
		cur, open = "", false
	}
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case strings.HasPrefix(l.Text, "- ") || strings.HasPrefix(l.Text, "* "):
			flush()
			cur, open = l.Text, true
		case t == "" || !strings.HasPrefix(l.Text, " ") && !strings.HasPrefix(l.Text, "\t"):
			flush()
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ "):
			// A nested bullet ends the top-level one's text.
			flush()
		case open:
			cur += " " + t
		}
	}
	flush()
	return out
}

// pathChar reports whether b can sit inside a path word.
func pathChar(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("._-/+@~", b) >= 0
}

// containsPathWord reports whether s holds w with no path character on either
// side (left only, for a word ending in '/': what follows it is the name;
// trailing dots count as punctuation).
func containsPathWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(w)
		left := at == 0 || !pathChar(s[at-1])
		// A sentence's closing dots end the word; a dot before more of a
		// name (foo.list.bak) does not.
		for end < len(s) && s[end] == '.' {
			end++
		}
		right := strings.HasSuffix(w, "/") || end == len(s) || !pathChar(s[end])
		if left && right {
			return true
		}
		i = at + 1
	}
}

// declares reports whether a bullet names p: verbatim, or by its
// directory (with a trailing '/') and its basename both.
func declares(bullet, p string) bool {
	if containsPathWord(bullet, p) {
		return true
	}
	dir, base := path.Dir(p), path.Base(p)
	if dir == "." {
		return false
	}
	return containsPathWord(bullet, dir+"/") && containsPathWord(bullet, base)
}

const changeUsage = "[<surface> [<change-dump> <base-dir>]]"

func checkReleaseChangeDeclared(c *gate.Context) int {
	if len(c.Args) == 2 || len(c.Args) > 3 {
		return c.Refuse("usage: %s %s", c.Name, changeUsage)
	}
	// The kit roots decide class R; an empty set decides nothing.
	if len(c.KitRoots) == 0 {
		return c.Refuse("no kit root resolves (GATE_SDK_KIT_DIRS), so no removed kit tool can be recognised")
	}
	var cs *changeSet
	var err error
	if len(c.Args) == 3 {
		cs, err = dumpChanges(c, c.Args[1], c.Args[2])
	} else {
		cs, err = liveChanges(c)
	}
	if err != nil {
		return c.RefuseErr(err)
	}
	r := c.NewReport(map[string]string{
		"removed-tool": "add a top-level bullet naming the removed path to the Behavior changes (or Gate-authoring changes) section of the release declaration surface, saying what a consumer script calling it does instead",
		"template":     "add a top-level bullet naming the template to the Behavior changes section of the release declaration surface, and a New and tightened gates bullet for each gate the changed template can red (the both-sections rule)",
	})
	// assertion A: no base (no commit, or no v* tag reachable) is dormant.
	if cs.base == "" {
		return r.Nothing("dormant: no v* tag is reachable from HEAD, so nothing was checked")
	}
	surface, bullets, err := readSurface(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	claimed, err := claimedTemplates(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	removed, changed := 0, 0
	for _, rec := range cs.records {
		class := ""
		switch {
		// assertion B: a deleted path under a kit root's bin/ is class R.
		case rec.status == 'D' && underKitBin(c, rec.path):
			class = "removed-tool"
			removed++
		// assertion C: a claimed template on both sides, its data lines changed, is class T.
		case (rec.status == 'M' || rec.status == 'T') && claimed[rec.path]:
			was, err := cs.atBase(rec.path)
			if err != nil {
				return c.RefuseErr(err)
			}
			now, err := cs.inIndex(rec.path)
			if err != nil {
				return c.RefuseErr(err)
			}
			if sameMultiset(dataLines(was), dataLines(now)) {
				continue
			}
			class = "template"
			changed++
		default:
			continue
		}
		// assertion D: declared by a top-level bullet of the declaring sections.
		ok := false
		for _, b := range bullets {
			ok = ok || declares(b, rec.path)
		}
		if ok {
			continue
		}
		// assertion E: one finding per undeclared path, naming its class.
		what := "a kit tool removed since " + cs.base + " (class R)"
		if class == "template" {
			what = "a template init claims whose data lines changed since " + cs.base + " (class T)"
		}
		r.Add(gate.Finding{Class: class, Path: rec.path, Msg: what + ", named by no top-level Behavior or Gate-authoring bullet of " + surface})
	}
	return r.Done(fmt.Sprintf("base %s: %d changed paths checked, %d kit tools removed and %d claimed templates changed, each declared in %s", cs.base, len(cs.records), removed, changed, surface))
}

// underKitBin reports whether p lies under <root>/bin/ of a kit root.
func underKitBin(c *gate.Context, p string) bool {
	for _, r := range c.KitRoots {
		r = strings.TrimSuffix(path.Clean(strings.ReplaceAll(r, "\\", "/")), "/")
		if strings.HasPrefix(p, r+"/bin/") {
			return true
		}
	}
	return false
}

// claimedTemplates answers the tree paths of the templates init claims:
// kits.SeedTemplates in the template tree of every kit root that is the
// core kit (kitTemplateDirs: where GATE_SDK_KIT_TEMPLATES_DIR puts it).
func claimedTemplates(c *gate.Context) (map[string]bool, error) {
	tdirs, err := kitTemplateDirs(c, c.KitRoots, "")
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for i, r := range c.KitRoots {
		r = strings.TrimSuffix(path.Clean(strings.ReplaceAll(r, "\\", "/")), "/")
		if path.Base(r) != kits.Core {
			continue
		}
		td := path.Clean(strings.ReplaceAll(tdirs[i], "\\", "/"))
		for _, t := range kits.SeedTemplates() {
			out[path.Join(td, path.Base(t))] = true
		}
	}
	return out, nil
}

// surfacePath answers the surface's spelling: the first operand, else
// <GATE_SDK_WORKFLOW_DIR>/release-declarations.md.
func surfacePath(c *gate.Context) (string, error) {
	if len(c.Args) > 0 {
		return c.Args[0], nil
	}
	dir, err := c.Knobs.Scalar("GATE_SDK_WORKFLOW_DIR")
	if err != nil {
		return "", err
	}
	return path.Join(strings.TrimSuffix(dir, "/"), surfaceName), nil
}

// readSurface reads the declaration surface — from the index with no
// operand, as a file when one is named — refuses one without its
// "# contract:" header, and answers its declaring bullets.
func readSurface(c *gate.Context) (string, []string, error) {
	p, err := surfacePath(c)
	if err != nil {
		return "", nil, err
	}
	var data []byte
	if len(c.Args) > 0 {
		if data, err = readOperand(c, p, "release declaration surface"); err != nil {
			return p, nil, err
		}
	} else {
		listed, err := runGit(c, "ls-files", "-z", "--cached", "--", p)
		if err != nil {
			return p, nil, err
		}
		if len(listed) == 0 {
			return p, nil, fmt.Errorf("the release declaration surface %s is not in the index; create it with its `# contract:` header and stage it", p)
		}
		if data, err = runGit(c, "cat-file", "blob", ":"+p); err != nil {
			return p, nil, err
		}
	}
	if !strings.HasPrefix(string(data), "# contract:") {
		return p, nil, fmt.Errorf("%s:1: the release declaration surface lacks its `# contract:` header", p)
	}
	roster, err := c.Knobs.List("GATE_SDK_RELEASE_SECTIONS")
	if err != nil {
		return p, nil, err
	}
	aliases, err := c.Knobs.List("GATE_SDK_RELEASE_SECTION_ALIASES")
	if err != nil {
		return p, nil, err
	}
	var headings []string
	for _, role := range declaredRoles {
		headings = append(headings, declaration.Headings(role, roster, aliases)...)
	}
	return p, surfaceBullets(string(data), headings), nil
}

// dumpChanges is the argument mode's reading: the dump, the base tree at
// baseDir, and the run directory standing in for the index.
func dumpChanges(c *gate.Context, dump, baseDir string) (*changeSet, error) {
	data, err := readOperand(c, dump, "change dump")
	if err != nil {
		return nil, err
	}
	base, recs, err := parseChangeDump(dump, data)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(runPath(c, baseDir)); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("base-dir %s is not a directory, so the base tree cannot be read", baseDir)
	}
	return &changeSet{
		base:    base,
		records: recs,
		atBase: func(p string) ([]byte, error) {
			return readOperand(c, path.Join(baseDir, p), "base-tree file")
		},
		inIndex: func(p string) ([]byte, error) { return readOperand(c, p, "changed file") },
	}, nil
}

// liveChanges reads the repository: the nearest v* tag reachable from HEAD
// and the index's --no-renames name-status against it.
func liveChanges(c *gate.Context) (*changeSet, error) {
	if err := probeRepo(c); err != nil {
		return nil, err
	}
	// Whether a base exists is decided from HEAD and the tag listing, never
	// from describe's (localised) failure message.
	done, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"rev-parse", "--verify", "-q", "HEAD^{commit}"}, Dir: c.Dir, ExtraEnv: c.SpawnEnv, Recorder: c.Spawns})
	if err != nil {
		return nil, err
	}
	switch done.Code() {
	case 0:
	case 1:
		return &changeSet{}, nil // no commit yet
	default:
		rep, _ := done.FailureReport()
		return nil, fmt.Errorf("git rev-parse --verify HEAD failed: %s", rep)
	}
	tags, err := runGit(c, "for-each-ref", "--merged", "HEAD", "--format=%(refname)", "refs/tags/v*")
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(tags)) == 0 {
		return &changeSet{}, nil
	}
	out, err := runGit(c, "describe", "--tags", "--abbrev=0", "--match", "v*")
	if err != nil {
		return nil, err
	}
	base := strings.TrimSpace(string(out))
	if base == "" {
		return nil, fmt.Errorf("git describe named no tag though v* tags are reachable from HEAD")
	}
	diff, err := runGit(c, "diff", "--cached", "--no-renames", "--name-status", "-z", base, "--")
	if err != nil {
		return nil, err
	}
	recs, err := parseNameStatusZ(diff)
	if err != nil {
		return nil, err
	}
	return &changeSet{
		base:    base,
		records: recs,
		atBase:  func(p string) ([]byte, error) { return runGit(c, "cat-file", "blob", base+":"+p) },
		inIndex: func(p string) ([]byte, error) { return runGit(c, "cat-file", "blob", ":"+p) },
	}, nil
}

// releaseGates answers the publisher's release gates.
func releaseGates() []gate.Def {
	return []gate.Def{
		{Name: "check-release-change-declared", Rule: checkReleaseChangeDeclared, Operands: changeUsage,
			Knobs: []string{"GATE_SDK_KIT_DIRS", registry.KitTemplatesKnob, "GATE_SDK_WORKFLOW_DIR", "GATE_SDK_RELEASE_SECTIONS", "GATE_SDK_RELEASE_SECTION_ALIASES"},
			Needs: []string{"git"}},
		{Name: "check-release-assets", Rule: checkReleaseAssets, Operands: assetsUsage, Word: assetsVersion,
			Knobs: []string{"GATE_SDK_KIT_DIRS", "GATE_SDK_NATIVE_PUBLISH_WORKFLOW", "GATE_SDK_NATIVE_TARGETS_FILE"}},
	}
}
