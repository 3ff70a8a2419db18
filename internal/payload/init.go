package payload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
	"github.com/gate-sdk/gates/kits"
)

// InitUsage is `gates init`'s usage text.
const InitUsage = `usage: gates init [--dry-run] [--hooks [--take-over]] [--with-fixtures] [--harness claude]
       gates init --uninstall [--dry-run]

Vendors the kit this binary carries into the repository (at GATE_SDK_ROOT,
default gate-sdk/), places the binary at GATE_SDK_NATIVE_BIN, and writes the
consumer configuration a first battery is green and honest on. A second run
changes nothing; a file init did not write, or one edited since, is never
overwritten. --dry-run prints the plan and writes nothing; --hooks also
places the git hooks (--install-hooks); --uninstall removes what init wrote
and nobody has changed since, and restores the hook configuration it found.
--take-over lets --hooks replace another hook manager's core.hooksPath (as
--install-hooks --take-over does). --with-fixtures also vendors the kit's
fixture pairs; without it they run from the copy this binary embeds.
Init prints one line per kit gate: registered, or not adopted and why.`

// LockName is the lock's file name in the gates directory.
const LockName = "gates.lock"

// File classes: how init treats a path it plans.
const (
	classKit    = "kit"    // vendored from the embedded kit; upgraded in place
	classBinary = "binary" // the gates binary; upgraded in place
	classSeed   = "seed"   // consumer configuration; written once, then the adopter's
)

// Seeder adds planned files to an init plan. The kit's own configuration
// is the first seeder; a later one (an agent harness's wiring, say) adds
// its files the same way and inherits the write, lock and reversal rules.
type Seeder func(p *Plan, w *InitWorld) error

// InitWorld is what init reads and how it reaches the rest of the binary.
type InitWorld struct {
	Top    string // the repository's toplevel, absolute
	Stdout io.Writer
	Stderr io.Writer
	// Knob answers a gate-sdk knob's resolved scalar value.
	Knob func(name string) (string, error)
	// Env reads the process environment.
	Env func(string) (string, bool)
	// Self answers the bytes of the running binary and its source stamp.
	Self  func() ([]byte, error)
	Stamp string
	// Tracked lists the tracked paths relative to Top.
	Tracked func() ([]string, error)
	// Branch answers the checked-out branch's short name ("" detached).
	Branch func() (string, error)
	// Probe runs one gate standalone over Top and answers its status and
	// output, after the plan's files are on disk.
	Probe func(gate string) (int, []byte, error)
	// Baseline runs `gates baseline` over Top once the registry is
	// written and answers the file it wrote: over the index as it stands,
	// or, asCommitted, over an index holding what `git add -A` would stage
	// (the adoption commit), the real index untouched.
	Baseline func(asCommitted bool) ([]byte, error)
	// EmitGraph answers `gates --emit graph` over Top once the registry is
	// written, over an index holding what `git add -A` would stage (the
	// adoption commit): the page check-graph holds fresh once committed.
	EmitGraph func() ([]byte, error)
	// InstallHooks places the hooks with the placed binary.
	InstallHooks func(bin string, takeOver bool) (int, error)
	// RefreshHooks re-places hooks already placed, from the placed binary
	// (nil: never refreshed).
	RefreshHooks func(bin string) (int, error)
	// Hooks reads and restores the hook configuration.
	Hooks HookState
	// Seeders run after the kit's own configuration seeder.
	Seeders []Seeder
	// Messages answers at most the last n non-merge commits with their
	// authors, newest first (none in a repository with no commit).
	Messages func(n int) ([]HistoryCommit, error)
	// Judge answers whether a commit-message gate passes a message; env
	// holds NAME=value knob settings the judgement reads first.
	Judge func(gate, message string, env []string) (bool, error)
	// Ignored answers, per repo-relative path (a directory ends in /),
	// the ignore rule that hides it as "<source>:<line>:<pattern>"; absent
	// when none does. A non-nil root answers as if the root .gitignore
	// held those bytes and no other ignore file existed but git's global.
	Ignored func(paths []string, root []byte) (map[string]string, error)
	// WithFixtures vendors the kit's fixture pairs too.
	WithFixtures bool
	// RootEntries are top-level entries the seeded root allowlist names
	// beyond what the tree tracks (`--harness claude`'s .claude).
	RootEntries []string

	// prior is the lock an earlier run left, its journal settled (nil
	// when none); set by the install before it plans.
	prior *Lock
}

// HookState reads and writes the clone-local hook configuration init
// changes: core.hooksPath, the placed hooks directory, and init's own
// record of what it found.
type HookState interface {
	HooksPath() (value string, set bool, err error)
	SetHooksPath(value string, set bool) error
	HooksDir() (string, error)
	// Foreign answers the hooks another manager placed that opting in
	// would stop ("" when none), as --install-hooks describes them.
	Foreign() (string, error)
	Record() (*HookRecord, error)
	SaveRecord(*HookRecord) error
	DropRecord() error
}

// hookConfig reads h's hooks directory, then core.hooksPath's value and
// whether it is set.
func hookConfig(h HookState) (dir, val string, set bool, err error) {
	if dir, err = h.HooksDir(); err != nil {
		return "", "", false, err
	}
	if val, set, err = h.HooksPath(); err != nil {
		return "", "", false, err
	}
	return dir, val, set, nil
}

// HookRecord is the clone-local note of the hook configuration init found.
type HookRecord struct {
	HadHooksPath bool   `json:"had_hooks_path"`
	HooksPath    string `json:"hooks_path"`
	DirExisted   bool   `json:"dir_existed"`
}

// planned is one file the plan wants on disk.
type planned struct {
	path  string
	data  []byte
	exec  bool
	class string
	// late marks a seed whose body is decided after the probes.
	late bool
	// page marks the late seed that is check-graph's page (K).
	page bool
	// template marks a seed made from a kit template alone (nothing of
	// the tree's state in it): one the adopter never edited follows the
	// release's template (R).
	template bool
}

// appendLines is a block of lines init adds to an existing text file.
type appendLines struct {
	path  string
	lines []string
}

// Plan is init's intent over one repository.
type Plan struct {
	KitRoot  string // repo-relative
	GatesDir string
	Bin      string
	files    []planned
	appends  []appendLines
	// on-surface gates to probe, and the registry's fixed head.
	zero, onSurface []gateDecl
	shape           repoShape
	// history is the people's recent messages (nil: not read).
	history *history
	// licence is the top-level open-source licence file that made init
	// read the repository as public ("" when none did).
	licence string
	// ciWhy says why the CI workflow is not seeded ("" when it is).
	ciWhy string
}

// WorkflowPath is where init seeds the CI workflow.
const WorkflowPath = ".github/workflows/gates.yml"

// CINeeds says what the seeded workflow needs that init could not give it.
const CINeeds = "CI needs the binary: run init again from the release installer (sh <kit>/bin/install.sh <payload URL>), or with GATES_PAYLOAD_URL=<the release payload .tar.gz URL> and GATES_PAYLOAD_SHA256=<its sha256> set, and init seeds " + WorkflowPath + " installing it; or track the binary, or write a workflow of your own"

// Add plans a file. A seeder calls it for each file it contributes.
func (p *Plan) Add(rel string, data []byte, exec bool, seed bool) {
	class := classKit
	if seed {
		class = classSeed
	}
	p.files = append(p.files, planned{path: rel, data: data, exec: exec, class: class})
}

// Append plans lines to add to a text file (created when absent).
func (p *Plan) Append(rel string, lines ...string) {
	p.appends = append(p.appends, appendLines{path: rel, lines: lines})
}

type gateDecl struct {
	name    string
	install string
}

// refuse is init's exit-2 class.
type refuse struct{ msg string }

func (r refuse) Error() string { return r.msg }

func refusef(format string, a ...any) error { return refuse{msg: fmt.Sprintf(format, a...)} }

// repoPath checks a knob value names a path inside the repository.
func repoPath(knob, v string) (string, error) {
	c := path.Clean(strings.ReplaceAll(v, "\\", "/"))
	if v == "" || walk.PathRoot(c) || c == "." || c == ".." || strings.HasPrefix(c, "../") || c == ".git" || strings.HasPrefix(c, ".git/") || (len(c) > 1 && c[1] == ':') {
		return "", refusef("init: %s=%q does not name a path inside the repository; init writes only there", knob, v)
	}
	return c, nil
}

func (w *InitWorld) knobPath(name string) (string, error) {
	v, err := w.Knob(name)
	if err != nil {
		return "", err
	}
	return repoPath(name, v)
}

// BuildPlan computes what init wants on disk.
func BuildPlan(w *InitWorld) (*Plan, error) {
	p := &Plan{}
	root := "gate-sdk"
	if v, ok := w.Env("GATE_SDK_ROOT"); ok && v != "" {
		root = v
	}
	var err error
	if p.KitRoot, err = repoPath("GATE_SDK_ROOT", root); err != nil {
		return nil, err
	}
	if p.GatesDir, err = w.knobPath("GATE_SDK_GATES_DIR"); err != nil {
		return nil, err
	}
	if p.Bin, err = w.knobPath("GATE_SDK_NATIVE_BIN"); err != nil {
		return nil, err
	}
	withhold, err := w.Knob("GATE_SDK_PAYLOAD_WITHHOLD")
	if err != nil {
		return nil, err
	}
	files, err := kits.Tree(kits.Core)
	if err != nil {
		return nil, err
	}
	withFixtures := w.WithFixtures
	for _, f := range files {
		// SPEC.md is vendored whatever the payload withholds: every spec:
		// pointer a gate prints names it.
		if Withheld(f.Path, strings.Fields(withhold)) && f.Path != "SPEC.md" {
			continue
		}
		if !withFixtures && strings.HasPrefix(f.Path, kits.FixtureTree+"/") {
			continue
		}
		p.files = append(p.files, planned{path: path.Join(p.KitRoot, f.Path), data: f.Data, exec: f.Exec, class: classKit})
		if strings.HasPrefix(f.Path, "checks/") && strings.HasSuffix(f.Path, ".gate") {
			m, err := registry.ParseHeader(f.Path, f.Data)
			if err != nil {
				return nil, err
			}
			d := gateDecl{name: strings.TrimSuffix(path.Base(f.Path), ".gate")}
			if m.Install != nil {
				d.install = m.Install.Text
			}
			switch d.install {
			case registry.InstallZero:
				p.zero = append(p.zero, d)
			case registry.InstallSurface:
				p.onSurface = append(p.onSurface, d)
			}
		}
	}
	self, err := w.Self()
	if err != nil {
		return nil, err
	}
	p.files = append(p.files, planned{path: p.Bin, data: self, exec: true, class: classBinary})
	if err := seedConsumer(p, w, files); err != nil {
		return nil, err
	}
	for _, s := range w.Seeders {
		if err := s(p, w); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Withheld reports whether a kit-relative path is a withheld member or
// lies under one.
func Withheld(rel string, members []string) bool {
	for _, m := range members {
		m = strings.Trim(m, "/")
		if m != "" && (rel == m || strings.HasPrefix(rel, m+"/")) {
			return true
		}
	}
	return false
}

// template answers a kit template's bytes from the embedded kit, name
// kit-relative (one of kits.SeedTemplates).
func template(files []kits.File, name string) ([]byte, error) {
	for _, f := range files {
		if f.Path == name {
			return f.Data, nil
		}
	}
	return nil, fmt.Errorf("this binary's kit carries no %s", name)
}

// seedConsumer plans the consumer configuration: the pattern list, the
// root allowlist, the knob file naming the kit set, the CI workflow, the
// ignore lines and the registry (decided after the probes).
func seedConsumer(p *Plan, w *InitWorld, files []kits.File) error {
	patterns, err := template(files, kits.SeedPatterns)
	if err != nil {
		return err
	}
	patternFile, err := w.knobPath("GATE_SDK_MSG_PATTERN_FILES")
	if err != nil {
		return err
	}
	tracked, err := w.Tracked()
	if err != nil {
		return err
	}
	p.Add(patternFile, append(append([]byte(nil), patterns...), projectSpares(w.Top, tracked)...), false, true)
	p.files[len(p.files)-1].template = true

	wf, err := template(files, kits.SeedWorkflow)
	if err != nil {
		return err
	}
	branch, err := w.Branch()
	if err != nil {
		return err
	}
	payloadURL, _ := w.Env("GATES_PAYLOAD_URL")
	payloadSum, _ := w.Env("GATES_PAYLOAD_SHA256")
	// assertion Q: the workflow is seeded only where init knows the
	// release payload a runner installs the binary from; a workflow whose
	// first step cannot succeed is not seeded.
	switch {
	case payloadURL != "" && safeWord(payloadURL):
		p.Add(WorkflowPath, FillWorkflow(wf, p.KitRoot, branch, payloadURL, payloadSum), false, true)
		p.files[len(p.files)-1].template = true
	case payloadURL != "":
		p.ciWhy = "GATES_PAYLOAD_URL holds characters init does not write into a workflow"
	default:
		p.ciWhy = "this binary came from no release payload init knows the address of (a source build, or a payload given as a path)"
	}

	p.shape = shapeOf(tracked, p.GatesDir, p.KitRoot)
	if err := p.shape.keepDeclaredGates(func(rel string) ([]byte, error) {
		return walk.ReadConfig(joinTop(w.Top, rel))
	}); err != nil {
		return err
	}
	roster, err := w.Knob("GATE_SDK_COMMIT_TYPES")
	if err != nil {
		return err
	}
	if p.history, err = readHistory(w, strings.Fields(roster)); err != nil {
		return err
	}
	knobs := "# gate-sdk's knobs for this repository, seeded by `gates init`; the file is yours.\n" +
		"# Grammar: NAME = value, one per line; `gates --emit knob-roster` lists every knob.\n\n" +
		"# The kit set this tree vendors. A vendored tree names it rather than\n" +
		"# deriving it from what directories exist.\n" +
		"GATE_SDK_KIT_DIRS = " + p.KitRoot + "\n"
	if h := p.history; h != nil && len(h.extra) > 0 {
		// assertion M: a type the people's subjects use joins the roster.
		knobs += "\n# check-commit-subject's types: the kit's, and those this history's subjects\n" +
			"# use (init read them off the last " + fmt.Sprint(len(h.messages)) + " subjects by people).\n" +
			"GATE_SDK_COMMIT_TYPES = " + strings.Join(h.types(), " ") + "\n"
	}
	// assertion U: an open-source licence at the top declares the
	// repository public.
	p.licence = openLicence(w.Top, tracked)
	knobs += visibilityKnob(p.licence)
	if len(p.shape.shellDirs) > 0 {
		// assertion N: check-shellcheck reads the shell the repository
		// tracks of its own.
		knobs += "\n# The directories of this repository's own shell, which check-shellcheck\n" +
			"# lints (each one's *.sh directly in it).\n" +
			"GATE_SDK_LINT_EXTRA_DIRS = " + strings.Join(p.shape.shellDirs, " ") + "\n"
	}
	p.Add(path.Join(p.GatesDir, kits.Core+"-config.knobs"), []byte(knobs), false, true)
	allow, err := w.knobPath("GATE_SDK_ROOT_ALLOWLIST")
	if err != nil {
		return err
	}
	entries := map[string]bool{}
	for _, t := range tracked {
		first, _, _ := strings.Cut(t, "/")
		entries[first] = true
	}
	top := func(rel string) string { first, _, _ := strings.Cut(rel, "/"); return first }
	for _, f := range p.files {
		if f.class != classBinary {
			entries[top(f.path)] = true
		}
	}
	for _, rel := range append([]string{p.GatesDir, ".gitignore"}, w.RootEntries...) {
		entries[top(rel)] = true
	}
	if entries["go.mod"] {
		// assertion X: a Go module whose root is a package allows the
		// package's files as one glob, so a new file of that package is
		// no new root surface.
		for n := range entries {
			if n != "*.go" && strings.HasSuffix(n, ".go") {
				delete(entries, n)
				entries["*.go"] = true
			}
		}
	}
	var names []string
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	p.Add(allow, []byte("# The top-level entries this repository tracks, as `gates init` found them\n"+
		"# plus the ones it added. A new entry at the root is a decision: add it\n"+
		"# here in the same commit (check-root-tiering).\n"+strings.Join(names, "\n")+"\n"), false, true)

	tmp, err := w.knobPath("GATE_SDK_TMP_DIR")
	if err != nil {
		return err
	}
	local, err := w.knobPath("GATE_SDK_MSG_PATTERN_FILES_LOCAL")
	if err != nil {
		return err
	}
	p.Append(".gitignore", "# gates: scratch, the placed binary and private pattern lists", "/"+tmp+"/", "/"+p.Bin, "/"+local)
	p.files = append(p.files, planned{path: registry.ListPath(p.GatesDir), class: classSeed, late: true})
	// check-graph's page, where init may register it and no file the
	// adopter wrote is there: planned, so the journal names it, and
	// written only once the registry names check-graph.
	if p.shape.considered("check-graph", p.GatesDir) == "" {
		page, err := w.knobPath("GATE_SDK_GRAPH_ARTIFACT")
		if err != nil {
			return err
		}
		_, inLock := w.prior.file(page)
		if _, err := os.Lstat(joinTop(w.Top, page)); inLock || errors.Is(err, fs.ErrNotExist) {
			p.files = append(p.files, planned{path: page, class: classSeed, late: true, page: true})
		} else if err != nil {
			return fmt.Errorf("init: cannot read %s: %v", page, err)
		}
	}
	return nil
}

// FillWorkflow fills the CI template's fill-ins: the kit directory, the
// default branch and, when init knows them, the payload the runner
// installs the binary from and its digest.
func FillWorkflow(tpl []byte, kitRoot, branch, payloadURL, payloadSum string) []byte {
	out := string(tpl)
	out = strings.Replace(out, "GATE_SDK_KIT: gate-sdk #", "GATE_SDK_KIT: "+kitRoot+" #", 1)
	if branch != "" && safeWord(branch) {
		out = strings.ReplaceAll(out, "branches: [main] #", "branches: ["+branch+"] #")
	}
	if payloadURL != "" && safeWord(payloadURL) {
		out = strings.Replace(out, `GATES_PAYLOAD: "" #`, `GATES_PAYLOAD: "`+payloadURL+`" #`, 1)
	}
	if len(payloadSum) == 64 && strings.Trim(payloadSum, "0123456789abcdef") == "" {
		out = strings.Replace(out, `GATES_PAYLOAD_SHA256: "" #`, `GATES_PAYLOAD_SHA256: "`+payloadSum+`" #`, 1)
	}
	return []byte(out)
}

func safeWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-:~%+=?&", r)) {
			return false
		}
	}
	return s != ""
}

// step is one decided file action.
type step struct {
	planned
	verb string // create, update, keep-edited, present, conflict
	why  string
}

// decide compares the plan with the disk and the lock.
func decide(top string, p *Plan, lock *Lock) ([]step, error) {
	var out []step
	for _, f := range p.files {
		s := step{planned: f}
		cur, err := os.ReadFile(joinTop(top, f.path))
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("init: cannot read %s: %v", f.path, err)
		}
		rec, inLock := lock.file(f.path)
		switch {
		case exists && lock.wasPending(f.path):
			// A killed run wrote it (or left init's earlier copy): finish.
			s.verb = "update"
			if bytes.Equal(cur, f.data) {
				s.verb = "keep"
			}
		case f.class == classSeed && inLock && !exists && f.late && !f.page:
			// assertion P: the registry is the battery; without it nothing
			// runs, so a deleted one is written again.
			s.verb, s.why = "create", "recreated: it was removed since init"
		case f.class == classSeed && inLock && exists && f.template && Digest(cur) == rec.SHA256 && !bytes.Equal(cur, f.data):
			// assertion R: a template seed the adopter never edited is
			// brought to this release's template, and named.
			s.verb, s.why = "update", "unedited since init, and this release's template differs"
		case f.class == classSeed && inLock:
			s.verb = "keep"
			if !exists {
				s.why = "removed since init, and a seed you removed stays removed; `gates init --uninstall` and init again seed it afresh"
			} else if Digest(cur) != rec.SHA256 {
				s.verb, s.why = "keep-edited", "edited since init"
			}
		case !exists:
			s.verb = "create"
		case f.late:
			s.verb, s.why = "conflict", "exists and init did not write it"
		case bytes.Equal(cur, f.data):
			s.verb = "present"
			if inLock {
				s.verb = "keep"
			}
		case inLock && Digest(cur) == rec.SHA256:
			s.verb = "update"
		case inLock && rec.SHA256 == Digest(f.data):
			s.verb, s.why = "keep-edited", "edited since init"
		default:
			s.verb, s.why = "conflict", "exists with other content and init did not write it"
			if inLock {
				s.why = "edited since init, and this binary's copy differs too"
			}
		}
		out = append(out, s)
	}
	return out, nil
}

func joinTop(top, rel string) string { return top + "/" + rel }

// missingAppends answers, per appended file, the lines not yet present.
func missingAppends(top string, p *Plan) (map[string][]string, error) {
	out := map[string][]string{}
	for _, a := range p.appends {
		cur, err := os.ReadFile(joinTop(top, a.path))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("init: cannot read %s: %v", a.path, err)
		}
		have := map[string]bool{}
		for _, l := range strings.Split(string(cur), "\n") {
			have[strings.TrimSuffix(l, "\r")] = true
		}
		var need []string
		for i, l := range a.lines {
			if i == 0 && strings.HasPrefix(l, "#") {
				continue
			}
			if !have[l] {
				need = append(need, l)
			}
		}
		if len(need) > 0 {
			if strings.HasPrefix(a.lines[0], "#") && !have[a.lines[0]] {
				need = append([]string{a.lines[0]}, need...)
			}
			out[a.path] = need
		}
	}
	return out, nil
}

// projectSpares answers the pattern-list lines that spare this project's
// own name as a home directory (/home/<name>/, /Users/<name>/): the account
// its container, package or CI scripts run as, not a person's home. The
// names are the top directory's and the Go module's last element (less a
// /vN suffix); "" when neither gives a plain name.
func projectSpares(top string, tracked []string) []byte {
	names := map[string]bool{}
	add := func(n string) {
		if n != "" && strings.Trim(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == "" && n != "." && n != ".." {
			names[n] = true
		}
	}
	add(path.Base(top))
	if data, err := os.ReadFile(joinTop(top, "go.mod")); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if mod, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
				mod = strings.Trim(strings.TrimSpace(mod), `"`)
				base := path.Base(mod)
				if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
					base = path.Base(path.Dir(mod))
				}
				add(base)
				break
			}
		}
	}
	// assertion V: the accounts the tree's container definitions run as.
	for _, n := range containerAccounts(top, tracked) {
		add(n)
	}
	if len(names) == 0 {
		return nil
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, strings.ReplaceAll(n, ".", "\\."))
	}
	sort.Strings(sorted)
	return []byte("\n# This project's own name, and the accounts its container definitions run as,\n" +
		"# as a home directory are the account its container, package or CI scripts run\n" +
		"# as, not a person's home (added by gates init).\n" +
		"!^[^A-Za-z0-9._-]?/(home|Users)/(" + strings.Join(sorted, "|") + ")/$\n")
}

// containerAccounts answers the accounts the tree's own container
// definitions name: a Dockerfile's or Containerfile's USER, useradd or
// adduser account and WORKDIR or HOME under /home/, and a Kubernetes
// mountPath: under /home/ in a YAML file (a Helm chart's, say). Such a
// home is inside an image, not on a person's machine. Test inputs
// (testdata/, fixtures/) are passed over; a file that cannot be read
// names nothing.
func containerAccounts(top string, tracked []string) []string {
	var out []string
	for _, t := range tracked {
		if walk.InTestInputDir(t) {
			continue
		}
		base := path.Base(t)
		docker := strings.HasPrefix(base, "Dockerfile") || strings.HasPrefix(base, "Containerfile") || strings.HasSuffix(base, ".Dockerfile")
		yamlFile := strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml")
		if !docker && !yamlFile {
			continue
		}
		data, err := walk.ReadConfig(joinTop(top, t))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			re := mountHome
			if docker {
				re = dockerAccount
			}
			for _, m := range re.Get().FindAllStringSubmatch(l, -1) {
				for _, n := range m[1:] {
					if n != "" && n != "root" {
						out = append(out, n)
					}
				}
			}
		}
	}
	return out
}

var (
	// dockerAccount matches a Dockerfile line naming the account the
	// image runs as: USER name, useradd/adduser ... name at the line's
	// end, WORKDIR /home/name, HOME /home/name.
	dockerAccount = lazyre.New(`^\s*USER\s+([a-z_][a-z0-9_-]*)\s*$|(?:useradd|adduser)\s[^&;|]*\s([a-z_][a-z0-9_-]*)\s*(?:$|&&|;)|^\s*WORKDIR\s+/home/([a-z_][a-z0-9_-]*)|HOME[= ]/home/([a-z_][a-z0-9_-]*)`)
	// mountHome matches a Kubernetes container mount under /home/.
	mountHome = lazyre.New(`mountPath:\s*["']?/home/([a-z_][a-z0-9_-]*)(?:/|["']|\s|$)`)
)
