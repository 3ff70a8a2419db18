package payload

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/githook"
)

// Target is one line of the target roster: a Go GOOS/GOARCH pair.
type Target struct {
	OS, Arch string
	Line     int
}

// String spells the target as the roster does, <os>/<arch>.
func (t Target) String() string { return t.OS + "/" + t.Arch }

// BinaryName is the artifact's file name for the target.
func (t Target) BinaryName() string { return "gates" + githook.ExeSuffixFor(t.OS) }

// liveLines answers the roster grammar's live lines with their numbers:
// '#' comments and blank lines dropped, as gates.list reads.
func liveLines(data []byte) (lines []string, nums []int) {
	for i, raw := range strings.Split(string(data), "\n") {
		text := strings.Trim(strings.TrimSuffix(raw, "\r"), " \t")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		lines = append(lines, text)
		nums = append(nums, i+1)
	}
	return lines, nums
}

func targetWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// ParseTargets reads a target roster: one <os>/<arch> per live line, each
// once. A roster declaring nothing is refused: a release that builds
// nothing supports nothing.
func ParseTargets(path string, data []byte) ([]Target, error) {
	lines, nums := liveLines(data)
	var out []Target
	seen := map[string]int{}
	for i, l := range lines {
		osName, arch, ok := strings.Cut(l, "/")
		if !ok || !targetWord(osName) || !targetWord(arch) {
			return nil, fmt.Errorf("%s:%d: %q is not an <os>/<arch> target (e.g. linux/amd64)", path, nums[i], l)
		}
		if prev, dup := seen[l]; dup {
			return nil, fmt.Errorf("%s:%d: %s is already declared on line %d", path, nums[i], l, prev)
		}
		seen[l] = nums[i]
		out = append(out, Target{OS: osName, Arch: arch, Line: nums[i]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: the roster declares no target", path)
	}
	return out, nil
}

// Runner is one line of the runner roster: the CI label that builds and
// exercises a target.
type Runner struct {
	Target string
	Label  string
	Line   int
}

// ParseRunners reads the runner roster, "<os>/<arch> <runner-label>" per
// live line, and holds it to targets: every target has exactly one runner
// and no runner names a target the roster does not carry.
func ParseRunners(path string, data []byte, targets []Target) ([]Runner, error) {
	lines, nums := liveLines(data)
	declared := map[string]bool{}
	for _, t := range targets {
		declared[t.String()] = true
	}
	var out []Runner
	seen := map[string]bool{}
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: %q is not a \"<os>/<arch> <runner-label>\" line", path, nums[i], l)
		}
		if !declared[f[0]] {
			return nil, fmt.Errorf("%s:%d: %s is not a target of the roster", path, nums[i], f[0])
		}
		if seen[f[0]] {
			return nil, fmt.Errorf("%s:%d: %s has a runner already", path, nums[i], f[0])
		}
		seen[f[0]] = true
		out = append(out, Runner{Target: f[0], Label: f[1], Line: nums[i]})
	}
	for _, t := range targets {
		if !seen[t.String()] {
			return nil, fmt.Errorf("%s: target %s (roster line %d) has no runner", path, t, t.Line)
		}
	}
	return out, nil
}
