// Package consumersmoke builds scratch consumers and runs the two arms that walk
// one: --run-consumer-smoke, the publisher's proof that every kit installs
// green when vendored by copy and reddens on its planted violation, and
// --run-demo, the narrated walkthrough of the same arc.
//
// Contract:
//   - A scratch consumer is a fresh git repository under a temporary base,
//     with each kit root copied in by its basename, the gates binary copied
//     (never built) from the invoking checkout to the kit default path and
//     gitignored there, and each kit's smoke/install.sh run with bash.
//   - Everything that runs in the scratch is a child process under a
//     scrubbed environment: no GATE_SDK_* value and no repository locator
//     of the invoking process reaches it, git's global and system config
//     are not read, and a fixed commit identity is set. The battery is the
//     scratch's own front end, never this process's registry.
//   - Exit statuses: 0 every assertion held, 1 an assertion failed, 2 the
//     scratch could not be stood up (usage, a missing binary, a broken
//     installer, a failed git call).
package consumersmoke

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/payload"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// Lookup reads one environment variable (production: os.LookupEnv).
type Lookup func(string) (string, bool)

// World is what the arms read and write.
type World struct {
	// Dir is the working directory: the invoking checkout's top.
	Dir string
	Env Lookup
	// Environ answers the whole environment, the base of every child's
	// (production: os.Environ).
	Environ func() []string
	Stdout  io.Writer
	Stderr  io.Writer
	// KitRoots answers the invoking checkout's kit roots, spelled
	// relative to Dir (absolute when outside it), gate-sdk first.
	KitRoots func() ([]string, error)
	// NativeBin answers GATE_SDK_NATIVE_BIN as the invoking checkout
	// resolves it.
	NativeBin func() (string, error)
	// KitTests answers GATE_SDK_KIT_TESTS_DIR as the invoking checkout
	// resolves it: gate-sdk's fixture tree where it is authored outside
	// the kit root, "" when it is the kit's own gate-tests/. Nil reads "".
	KitTests func() (string, error)
	// KitTemplates answers GATE_SDK_KIT_TEMPLATES_DIR likewise: gate-sdk's
	// template tree where it is authored outside the kit root. Nil reads "".
	KitTemplates func() (string, error)
}

func (w World) getenv(name string) string {
	if w.Env == nil {
		return ""
	}
	v, _ := w.Env(name)
	return v
}

// EnvError is a failure to stand the scratch up: exit 2 in both arms.
type EnvError struct{ Msg string }

func (e *EnvError) Error() string { return e.Msg }

func envErr(format string, a ...any) error { return &EnvError{Msg: fmt.Sprintf(format, a...)} }

// DefaultBin is where the binary lands in a scratch consumer: the
// GATE_SDK_NATIVE_BIN default, relative to the scratch's top.
const DefaultBin = "bin/gates"

// The commit identity every scratch repository uses.
var scratchIdentity = []string{
	"GIT_AUTHOR_NAME=Consumer Smoke", "GIT_AUTHOR_EMAIL=smoke@example.invalid",
	"GIT_COMMITTER_NAME=Consumer Smoke", "GIT_COMMITTER_EMAIL=smoke@example.invalid",
}

// repoLocators are the git variables that would point a child at the
// invoking repository instead of the scratch.
var repoLocators = map[string]bool{
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true, "GIT_COMMON_DIR": true,
	"GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true, "GIT_PREFIX": true,
	"GIT_NAMESPACE": true, "GIT_CEILING_DIRECTORIES": true, "GIT_DISCOVERY_ACROSS_FILESYSTEM": true,
	"GIT_CONFIG": true, "GIT_CONFIG_PARAMETERS": true, "GIT_CONFIG_COUNT": true,
}

// ScratchEnv answers the environment of every child run in a scratch:
// base less every GATE_SDK_* name and every repository locator, with
// global and system git config switched off and the fixed identity set.
func ScratchEnv(base []string) []string {
	// assertion D: nothing of the invoking checkout's configuration leaks in.
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GATE_SDK_") || repoLocators[k] || strings.HasPrefix(k, "GIT_CONFIG_KEY_") ||
			strings.HasPrefix(k, "GIT_CONFIG_VALUE_") || strings.HasPrefix(k, "GIT_AUTHOR_") || strings.HasPrefix(k, "GIT_COMMITTER_") ||
			k == "SMOKE_KIT_ROOT" {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	return append(out, scratchIdentity...)
}

// Scratch is one scratch consumer.
type Scratch struct {
	Dir   string   // absolute top
	Kits  []string // vendored kit roots, by basename, install order
	Env   []string // every child's environment
	Bin   string   // absolute path of the placed binary
	SdkAt string   // the vendored gate-sdk root's basename
}

// git runs git in the scratch and answers its stdout, or an EnvError.
func (s *Scratch) git(args ...string) (string, error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: s.Dir, Env: s.Env})
	if err != nil {
		return "", envErr("git %s in %s: %v", strings.Join(args, " "), s.Dir, err)
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return "", envErr("git %s in %s failed: %s", strings.Join(args, " "), s.Dir, rep)
	}
	return string(out), nil
}

// Restore drops every change: a hard reset (which also unstages a staged
// shape) and a clean of untracked files (ignored ones, the binary among
// them, are spared).
func (s *Scratch) Restore() error {
	if _, err := s.git("reset", "-q", "--hard"); err != nil {
		return err
	}
	_, err := s.git("clean", "-q", "-fd")
	return err
}

// CommitAll stages everything and commits with no hook.
func (s *Scratch) CommitAll(msg string) error {
	if _, err := s.git("add", "-A"); err != nil {
		return err
	}
	_, err := s.git("commit", "-q", "--no-verify", "--allow-empty", "-m", msg)
	return err
}

// Builder stands scratch consumers up.
type Builder struct {
	// Host is the invoking checkout's top; its binary is copied.
	Host string
	// HostBin is the binary to place, absolute.
	HostBin string
	// Roots are the kit roots to vendor, absolute, gate-sdk first.
	Roots []string
	// Fixtures is a fixture tree authored outside the first root
	// (absolute; "" for none), vendored as that root's gate-tests/, as
	// init and the packer carry it.
	Fixtures string
	// Templates is the template tree authored outside the first root
	// (absolute; "" for none), vendored as that root's templates/.
	Templates string
	// Base is the directory the scratch is made under.
	Base string
	// Environ is the base environment.
	Environ []string
	// Out receives the installers' output.
	Out io.Writer
}

// SdkBase is the basename of the gate-sdk kit root.
const SdkBase = "gate-sdk"

// GateDescriptors counts the .gate files directly under each root's checks/.
func GateDescriptors(roots []string) (int, error) {
	n := 0
	for _, r := range roots {
		dir := walk.Child(r, "checks")
		ents, err := walk.ListDir(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return 0, err
		}
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".gate") {
				n++
			}
		}
	}
	return n, nil
}

// Build makes the scratch consumer: git init, the seed commit, every root
// copied in, the binary placed, each installer run in order, and the
// installed baseline committed. The error is an *EnvError; the scratch
// answered with it is non-nil once the directory exists, so the caller
// can remove or keep it.
func (b Builder) Build(label string) (*Scratch, error) {
	// assertion A: a fresh repository, the roots copied in by basename.
	s, err := b.fresh(label)
	if err != nil {
		return s, err
	}
	if err := os.WriteFile(walk.Child(s.Dir, ".gitignore"), []byte(".tmp/\n/"+DefaultBin+"\n"), 0o644); err != nil {
		return s, envErr("cannot write the scratch .gitignore: %v", err)
	}
	if err := s.CommitAll("seed"); err != nil {
		return s, err
	}
	for _, r := range b.Roots {
		name := baseName(r)
		if err := payload.CopyTree(r, walk.Child(s.Dir, name)); err != nil {
			return s, envErr("cannot vendor %s into the scratch: %v", r, err)
		}
		s.Kits = append(s.Kits, name)
	}
	if len(s.Kits) > 0 {
		s.SdkAt = s.Kits[0]
		if err := vendorFixtures(b.Fixtures, walk.Child(s.Dir, s.Kits[0])); err != nil {
			return s, err
		}
		if err := vendorTree(b.Templates, walk.Child(s.Dir, s.Kits[0]), "templates"); err != nil {
			return s, err
		}
	}
	// assertion B: the binary copied to the knob's default path.
	// The battery is the binary's arm, so every scratch needs it, whether
	// or not a vendored kit ships a .gate descriptor.
	if err := b.placeBinary(s); err != nil {
		return s, err
	}
	// assertion C: each installer in kit order; a failure is the environment's.
	for _, k := range s.Kits {
		if err := s.install(k, b.Out); err != nil {
			return s, err
		}
	}
	if err := s.CommitAll("install the vendored kits"); err != nil {
		return s, err
	}
	return s, nil
}

// Seed stands up the bare scratch an adopter starts from: a fresh
// repository holding a README in one commit, nothing vendored, no binary.
func (b Builder) Seed(label string) (*Scratch, error) {
	if err := b.checkBin(); err != nil {
		return nil, err
	}
	s, err := b.fresh(label)
	if err != nil {
		return s, err
	}
	if err := os.WriteFile(walk.Child(s.Dir, "README.md"), []byte("# demo\n\nA repository adopting gates.\n"), 0o644); err != nil {
		return s, envErr("cannot write the scratch README: %v", err)
	}
	return s, s.CommitAll("seed")
}

// fresh makes an empty scratch directory under the base and runs git init
// in it.
func (b Builder) fresh(label string) (*Scratch, error) {
	dir, err := os.MkdirTemp(b.Base, label+".")
	if err != nil {
		return nil, envErr("cannot make a scratch directory under %s: %v", b.Base, err)
	}
	phys, err := walk.Canonicalize(dir)
	if err != nil {
		return &Scratch{Dir: dir}, envErr("%v", err)
	}
	s := &Scratch{Dir: walk.NormalizeAbs(phys), Env: ScratchEnv(b.Environ), SdkAt: SdkBase}
	s.Bin = walk.Child(s.Dir, DefaultBin)
	_, err = s.git("init", "-q")
	return s, err
}

// checkBin refuses a host binary that is absent or not executable.
func (b Builder) checkBin() error {
	fi, err := os.Stat(b.HostBin)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return envErr("the gates binary %s is absent or not executable in %s; build it (make build) or point GATE_SDK_NATIVE_BIN at it", b.HostBin, b.Host)
	}
	return nil
}

// vendorFixtures copies a relocated fixture tree ("" for none) into the
// vendored kit root's gate-tests/.
func vendorFixtures(tree, kitDir string) error {
	return vendorTree(tree, kitDir, "gate-tests")
}

// vendorTree copies a relocated kit tree ("" for none) into the vendored
// kit root's child directory.
func vendorTree(tree, kitDir, child string) error {
	if tree == "" {
		return nil
	}
	if err := payload.CopyTree(tree, walk.Child(kitDir, child)); err != nil {
		return envErr("cannot vendor the %s tree %s into the scratch: %v", child, tree, err)
	}
	return nil
}

// kitFixtures resolves a KitTests answer against dir: absolute, or "".
func kitFixtures(get func() (string, error), dir string) (string, error) {
	if get == nil {
		return "", nil
	}
	v, err := get()
	if err != nil || v == "" {
		return "", err
	}
	return walk.AbsAgainst(dir, walk.CrossArg(v)), nil
}

func (b Builder) placeBinary(s *Scratch) error {
	if err := b.checkBin(); err != nil {
		return err
	}
	if err := payload.PlaceArtifact(b.HostBin, s.Bin); err != nil {
		return envErr("cannot place the gates binary in the scratch: %v", err)
	}
	return nil
}

// KitEnv is the environment a kit's smoke script runs under.
func (s *Scratch) KitEnv(kit string) []string {
	return append(append([]string(nil), s.Env...),
		"SMOKE_KIT_ROOT="+walk.Child(s.Dir, kit), "GATE_SDK_ROOT="+s.SdkAt)
}

// install runs <kit>/smoke/install.sh with bash.
func (s *Scratch) install(kit string, out io.Writer) error {
	script := walk.Child(walk.Child(s.Dir, kit), "smoke/install.sh")
	m, err := spawn.RunMerged(spawn.Cmd{Program: spawn.Bash(), Args: []string{script}, Dir: s.Dir, Env: s.KitEnv(kit)})
	if err != nil {
		return envErr("cannot run %s/smoke/install.sh: %v", kit, err)
	}
	out.Write(m.Output())
	if !m.Succeeded() {
		return envErr("%s/smoke/install.sh failed (exit %d); a broken installer is an environment failure", kit, m.ReportedCode())
	}
	return nil
}

// Battery runs the scratch's own front end over its registry and answers
// the status and the merged output. extra is added to the environment.
func (s *Scratch) Battery(extra ...string) (int, []byte, error) {
	// assertion E: the scratch's own front end.
	script := walk.Child(walk.Child(s.Dir, s.SdkAt), "bin/run-gates.sh")
	env := append(append([]string(nil), s.Env...), extra...)
	m, err := spawn.RunMerged(spawn.Cmd{Program: spawn.Bash(), Args: []string{script}, Dir: s.Dir, Env: env})
	if err != nil {
		return 2, nil, envErr("cannot run the scratch battery: %v", err)
	}
	return m.ReportedCode(), m.Output(), nil
}

// Violation runs <kit>/smoke/violation.sh and answers the gate its first
// stdout line names ("" when it names none).
func (s *Scratch) Violation(kit string) (string, []byte, error) {
	return s.plant(walk.Child(walk.Child(s.Dir, kit), "smoke/violation.sh"), kit)
}

// plant runs a violation recipe in the scratch under kit's environment and
// answers the gate its first stdout line names, and its whole stdout.
func (s *Scratch) plant(script, kit string) (string, []byte, error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Bash(), Args: []string{script}, Dir: s.Dir, Env: s.KitEnv(kit)})
	if err != nil {
		return "", nil, envErr("cannot run %s: %v", script, err)
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return "", nil, envErr("%s failed: %s", script, rep)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(first), out, nil
}

func baseName(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// TempBase answers the scratch base: the first non-empty of the named
// variables, else /tmp.
func TempBase(env Lookup, names ...string) string {
	for _, n := range names {
		if env == nil {
			break
		}
		if v, _ := env(n); v != "" {
			return v
		}
	}
	return "/tmp"
}
