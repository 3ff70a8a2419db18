package payload

// Which kit gates init considers for a repository, and the one line it
// prints per gate. A gate applies by what the repository is: the gates
// that govern gates wait for gates of the repository's own, the kit
// registration gate for a kit it publishes, and the commit-message gates
// for a history that already keeps their rule.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/walk"
)

// Why a kit gate is considered, beyond its install disposition.
const (
	needsNothing  = ""
	needsOwnGates = "own-gates" // it judges gates: the repository's own
	needsKit      = "kit"       // it judges a kit the repository publishes
	needsHistory  = "history"   // it judges commit messages
	needsShell    = "shell"     // it judges shell: the gates' or the repository's own
)

// adoptionRule names, per kit gate that does not apply everywhere, what
// the repository must be for init to consider it. A gate not named here
// applies to every repository its install disposition admits. A unit test
// holds every name to a descriptor the kit ships.
var adoptionRule = map[string]string{
	"check-assertion-strength":       needsOwnGates,
	"check-enforcement-fresh":        needsOwnGates,
	"check-front-end-fail-open":      needsOwnGates,
	"check-gate-assertions":          needsOwnGates,
	"check-gate-exemption-tasks":     needsOwnGates,
	"check-gate-fail-closed":         needsOwnGates,
	"check-gate-fixture-coverage":    needsOwnGates,
	"check-gate-output":              needsOwnGates,
	"check-gate-substrate-parity":    needsOwnGates,
	"check-graph":                    needsOwnGates,
	"check-install-disposition":      needsOwnGates,
	"check-kit-enum":                 needsOwnGates,
	"check-pipe-membership":          needsOwnGates,
	"check-projection-roster":        needsOwnGates,
	"check-readme-roster":            needsOwnGates,
	"check-reads-couples":            needsOwnGates,
	"check-shellcheck":               needsShell,
	"check-smoke-entry-guard":        needsOwnGates,
	"check-template-copy-parity":     needsOwnGates,
	"check-template-registry-parity": needsOwnGates,
	"check-test-hermetic":            needsOwnGates,
	"check-kit-registration":         needsKit,
	"check-commit-subject":           needsHistory,
	"check-commit-msg":               needsHistory,
}

// historyDepth and historyFloor: a commit-message gate is adopted when at
// least historyFloor of every 100 of the last historyDepth non-merge
// messages pass it.
const (
	historyDepth = 100
	historyFloor = 90
)

// Verdict is init's decision over one kit gate.
type Verdict struct {
	Gate       string
	Registered bool
	// Accepted counts the findings of today's tree the registration
	// accepts (the baseline's); 0 for a gate green as it stands.
	Accepted int
	// AcceptedIn names the baseline file that accepts them.
	AcceptedIn string
	// Why says why a gate left out is not adopted, and how to adopt it.
	Why string
	// Files says, for a registered gate, what init did about the files the
	// gate could not read (skipped, or accepted as findings); "" when the
	// gate read every file.
	Files string
}

// PrintVerdict is the one line init prints per kit gate.
func PrintVerdict(w io.Writer, v Verdict) {
	files := ""
	if v.Files != "" {
		files = "; " + v.Files
	}
	switch {
	case !v.Registered:
		fmt.Fprintf(w, "init: %s: not adopted: %s\n", v.Gate, v.Why)
	case v.Accepted > 0:
		fmt.Fprintf(w, "init: %s: registered with %s (%s)%s\n", v.Gate, gate.Count(v.Accepted, "accepted finding", "accepted findings"), v.AcceptedIn, files)
	default:
		fmt.Fprintf(w, "init: %s: registered%s\n", v.Gate, files)
	}
}

// repoShape is what init learned of the repository before choosing.
type repoShape struct {
	ownGates  []string // the gates dir's own members, tracked
	kits      []string // kit roots the repository authors (not the vendored one)
	shellDirs []string // directories of the repository's own tracked *.sh
	// gatesDirShell counts the tracked *.sh directly in the gates dir
	// that are not gates (check-shellcheck lints them where they are).
	gatesDirShell int
}

// keepDeclaredGates keeps of the shape's own gates the ones that are
// gates: a descriptor, or a script whose header carries a # graph:
// manifest line (every registered shell gate must), or one init cannot
// read as a plain header (left for the gates to refuse). A check-*.sh helper of the project's own in the gates
// dir (Prometheus keeps scripts/check-go-mod-version.sh there) is shell,
// not a gate: the gates that judge gates have nothing to judge in it.
// read answers a tracked file's content.
func (s *repoShape) keepDeclaredGates(read func(string) ([]byte, error)) error {
	kept := s.ownGates[:0:0]
	for _, g := range s.ownGates {
		base := path.Base(g)
		// assertion W: a check-*.sh in the gates dir with no manifest and
		// no registration is the project's shell, not its gate.
		if strings.HasSuffix(base, ".gate") {
			kept = append(kept, g)
			continue
		}
		data, err := read(g)
		if errors.Is(err, fs.ErrNotExist) {
			// Tracked but gone from the work tree: read as before, a gate.
			kept = append(kept, g)
			continue
		}
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", g, err)
		}
		if m, herr := registry.ParseHeader(g, data); herr != nil || m.Graph != nil {
			kept = append(kept, g)
			continue
		}
		s.gatesDirShell++
	}
	s.ownGates = kept
	return nil
}

// shapeOf reads the tracked listing: a tracked descriptor or shell gate
// in the gates dir is a gate of the repository's own; a tracked
// <dir>/checks/ holding one, outside the vendored kit root, is a kit it
// publishes.
func shapeOf(tracked []string, gatesDir, kitRoot string) repoShape {
	var s repoShape
	seen := map[string]bool{}
	for _, t := range tracked {
		dir, base := path.Dir(t), path.Base(t)
		isGate := strings.HasSuffix(base, ".gate") || (strings.HasPrefix(base, "check-") && strings.HasSuffix(base, ".sh"))
		if !isGate {
			if dir == gatesDir && strings.HasSuffix(base, ".sh") {
				s.gatesDirShell++
			}
			continue
		}
		if dir == gatesDir {
			s.ownGates = append(s.ownGates, t)
			continue
		}
		if path.Base(dir) == "checks" {
			root := path.Dir(dir)
			if root != kitRoot && !strings.HasPrefix(root, kitRoot+"/") && !seen[root] {
				seen[root] = true
				s.kits = append(s.kits, root)
			}
		}
	}
	s.shellDirs = shellDirs(tracked, gatesDir, kitRoot)
	return s
}

// considered answers why a gate is not considered for this repository
// ("" when it is).
func (s repoShape) considered(gate, gatesDir string) string {
	switch adoptionRule[gate] {
	case needsOwnGates:
		if len(s.ownGates) == 0 {
			return fmt.Sprintf("it judges gates, and %s/ holds none of this repository's own; to adopt: add one there and run init again", gatesDir)
		}
	case needsShell:
		if len(s.ownGates) == 0 && len(s.shellDirs) == 0 && s.gatesDirShell == 0 {
			return fmt.Sprintf("it lints shell, and this repository tracks no *.sh of its own (none outside the vendored kit, test data and vendored code) and no gate in %s/; to adopt: add either and run init again", gatesDir)
		}
	case needsKit:
		if len(s.kits) == 0 {
			return "this repository publishes no kit (no <dir>/checks/ beside the vendored one); to adopt: publish one and run init again"
		}
	}
	return ""
}

// historyVerdict judges a commit-message gate by the repository's own
// recent messages: too few that pass and the gate is not adopted, with the
// figure and the one line that opts in. A repository with no history yet
// adopts it: nothing it does today is refused.
func historyVerdict(w *InitWorld, p *Plan, gate string) (string, error) {
	h := p.history
	if h == nil || w.Judge == nil || len(h.messages) == 0 {
		return "", nil
	}
	// assertion M: judged on the people's messages, with the types their
	// subjects use admitted.
	var env []string
	if gate == "check-commit-subject" && h.admitted {
		env = []string{"GATE_SDK_COMMIT_TYPES=" + strings.Join(h.types(), " ")}
	}
	pass := 0
	for _, m := range h.messages {
		ok, err := w.Judge(gate, m, env)
		if err != nil {
			return "", err
		}
		if ok {
			pass++
		}
	}
	if pass*100 >= historyFloor*len(h.messages) {
		return "", nil
	}
	noun := "commit messages"
	if gate == "check-commit-subject" {
		noun = "subjects"
	}
	return fmt.Sprintf("%d of the %d recent %s by people would pass; to adopt: echo %s >> %s/gates.list", pass, len(h.messages), noun, gate, p.GatesDir), nil
}

// printHistory says what the commit-message gates were judged on, and
// the types the history added to the roster.
func printHistory(w io.Writer, p *Plan, knobFile string) {
	h := p.history
	if h == nil || len(h.messages)+h.bots == 0 {
		return
	}
	fmt.Fprintf(w, "init: the commit-message gates were judged on the last %s by people (%s by bots left out)\n",
		gate.Count(len(h.messages), "message", "messages"), gate.Count(h.bots, "commit", "commits"))
	switch {
	case len(h.extra) == 0:
	case h.admitted:
		fmt.Fprintf(w, "init: GATE_SDK_COMMIT_TYPES admits the types this history uses beyond the kit's: %s (set in %s)\n", h.extraNames(), knobFile)
	default:
		fmt.Fprintf(w, "init: this history's subjects use types beyond the kit's: %s; %s is yours, so init left it: to admit them, set GATE_SDK_COMMIT_TYPES = %s there\n", h.extraNames(), knobFile, strings.Join(h.types(), " "))
	}
}

// admits reports whether the knob file on disk sets the roster init
// judged the history with.
func (h *history) admits(top, knobFile string) bool {
	data, err := walk.ReadConfig(joinTop(top, knobFile))
	if err != nil {
		return false
	}
	want := "GATE_SDK_COMMIT_TYPES = " + strings.Join(h.types(), " ")
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == want {
			return true
		}
	}
	return false
}
