package spawn

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// Audience says who needs a roster member on their host.
type Audience int

const (
	// Adopter members run in a consumer's ordinary battery or hook.
	Adopter Audience = iota + 1
	// Contributor members are started only by source-clone arms.
	Contributor
	// Payload is the gates binary itself.
	Payload
	// Consumer members are named by a consumer's own config.
	Consumer
)

func (a Audience) String() string {
	switch a {
	case Adopter:
		return "adopter"
	case Contributor:
		return "contributor"
	case Payload:
		return "payload"
	case Consumer:
		return "consumer"
	}
	return "unknown"
}

// Program names one program the binary may start. Its fields are
// unexported, so code outside this package can only obtain one from the
// roster functions below; the zero value is refused by every spawning face.
//
// assertion J: a Program is obtained only from the roster.
type Program struct {
	name     string   // identity: recorded and named in messages
	path     string   // what is started; empty means name, looked up on PATH
	ground   string   // for a consumer member: the knob or declaration naming it
	audience Audience // who needs it
}

// The static roster. Each function answers a fresh value, so the roster is
// data with no mutable package state.

// Git is the git CLI.
func Git() Program { return Program{name: "git", audience: Adopter} }

// Shellcheck is the shell linter check-shellcheck wraps.
func Shellcheck() Program { return Program{name: "shellcheck", audience: Adopter} }

// Bash runs consumer .sh gates and fenced runnable blocks.
func Bash() Program { return Program{name: "bash", audience: Adopter} }

// Sh is the POSIX shell, started by the installer smoke on unix hosts.
func Sh() Program { return Program{name: "sh", audience: Contributor} }

// Go is the Go toolchain, started only by --upgrade-smoke to build each
// ref's binary from a clone of the kit-source repository.
func Go() Program { return Program{name: "go", audience: Contributor} }

// Dash, Busybox and Pwsh are the foreign shells --run-front-end-parity
// runs the front ends under, each only when the host carries it.
func Dash() Program { return Program{name: "dash", audience: Contributor} }

// Busybox is busybox, started as `busybox sh` by the front-end parity arm.
func Busybox() Program { return Program{name: "busybox", audience: Contributor} }

// Pwsh is PowerShell 7, which runs the PowerShell twins in the parity arm.
func Pwsh() Program { return Program{name: "pwsh", audience: Contributor} }

// Roster answers every static member, in a fixed order.
func Roster() []Program {
	return []Program{Git(), Shellcheck(), Bash(), Sh(), Go(), Dash(), Busybox(), Pwsh()}
}

// ByName answers the static member called name.
func ByName(name string) (Program, bool) {
	for _, p := range Roster() {
		if p.name == name {
			return p, true
		}
	}
	return Program{}, false
}

// At is the gates binary at a resolved path (this process's own image, or
// GATE_SDK_NATIVE_BIN). It keeps the payload's identity, so a record or a
// message names the binary, not a second program.
func At(path string) Program {
	return Program{name: "gates", path: path, audience: Payload}
}

// Self is the running binary, started through SelfImage.
func Self() (Program, error) {
	p, err := SelfImage()
	if err != nil {
		return Program{}, err
	}
	if err := notTestBinary(p); err != nil {
		return Program{}, err
	}
	return At(p), nil
}

// notTestBinary refuses a Go test binary (go test names it <pkg>.test) as
// this program's own image: started with a gate's arguments it ignores
// them and runs its whole suite again, which reaches the same spawn, so a
// test that strays onto a path that spawns the binary itself would fork
// without end instead of failing. A test runs the built gates binary.
func notTestBinary(image string) error {
	if strings.HasSuffix(path.Base(filepath.ToSlash(image)), ".test") {
		return fmt.Errorf("the running program is a Go test binary (%s), which cannot stand in for gates: run the built binary", image)
	}
	return nil
}

// ConsumerCommand is a program a consumer's config names: argv0 is the first
// element of a command knob or a gate declaration's interpreter, and ground
// names the knob or declaration it came from, which every spawn failure
// repeats. Both must be non-empty.
func ConsumerCommand(argv0, ground string) (Program, error) {
	if argv0 == "" {
		return Program{}, fmt.Errorf("empty command named by %s", orUnknown(ground))
	}
	if strings.TrimSpace(ground) == "" {
		return Program{}, fmt.Errorf("command %q carries no ground (a knob or gate declaration)", argv0)
	}
	return Program{name: argv0, ground: ground, audience: Consumer}, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "an unnamed ground"
	}
	return s
}

// Name is the program's identity, as messages and the recorder spell it.
func (p Program) Name() string { return p.name }

// Ground is the knob or declaration naming a consumer member; empty otherwise.
func (p Program) Ground() string { return p.ground }

// Audience says who needs the program.
func (p Program) Audience() Audience { return p.audience }

// Valid reports whether p came from the roster (the zero value did not).
func (p Program) Valid() bool { return p.name != "" }

// argv0 is what the spawn starts.
func (p Program) argv0() string {
	if p.path != "" {
		return p.path
	}
	return p.name
}

// label is the program as a failure message names it.
func (p Program) label() string {
	if p.ground != "" {
		return fmt.Sprintf("%s (named by %s)", p.argv0(), p.ground)
	}
	return p.argv0()
}

// recordName is the name the recorder notes: a bare name as written, a
// path-carrying one reduced to its final component less a .exe suffix.
func (p Program) recordName() string {
	if p.audience == Payload {
		return p.name
	}
	n := p.argv0()
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		n = n[i+1:]
	}
	if len(n) > 4 && strings.EqualFold(n[len(n)-4:], ".exe") {
		n = n[:len(n)-4]
	}
	return n
}

func (p Program) String() string { return p.label() }
