package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ciskip"
)

// bashCompletion is where Debian's bash-completion package (which .ci/tools
// installs) puts its library.
const bashCompletion = "/usr/share/bash-completion/bash_completion"

// complete drives the generated bash script in a real bash: it sources
// bash-completion and `gates completion bash`, sets the line as a user
// typed it and calls the script's entry function, then reads COMPREPLY.
func (s *scratch) complete(line string) []string {
	s.t.Helper()
	// compopt only works inside a completion the line editor started; its
	// options (nospace, filenames) shape display, not the candidates.
	script := `. "$BASH_COMPLETION"
. <(gates completion bash)
compopt() { :; }
COMP_TYPE=9
COMP_LINE="$LINE"
COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<<"$COMP_LINE"
case $COMP_LINE in *' ') COMP_WORDS+=('') ;; esac
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
__start_gates
printf '%s\n' "${COMPREPLY[@]}"
`
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", script)
	cmd.Dir = s.dir
	cmd.Env = append(append([]string(nil), s.env...),
		"PATH="+filepath.Dir(binPath)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"BASH_COMPLETION="+bashCompletion, "LINE="+line)
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("completing %q: %v\n%s", line, err, out)
	}
	var got []string
	for _, c := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if c = strings.TrimSpace(c); c != "" {
			got = append(got, c)
		}
	}
	sort.Strings(got)
	return got
}

func TestBashCompletionOffersCandidates(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(bashCompletion); err != nil {
		ciskip.Missing(t, "bash-completion", "bash-completion is not installed ("+bashCompletion+" absent); .ci/tools installs it")
	}
	s := batteryScratch(t)
	cases := []struct {
		line string
		want []string
	}{
		{"gates check-action-p", []string{"check-action-permissions", "check-action-pinning"}},
		{"gates check-pas", []string{"check-pass"}}, // the consumer's registered .sh gate
		{"gates --emit kn", []string{"knob-roster", "knob-values"}},
		{"gates --emit knob-values GATE_SDK_PRUNE_", []string{"GATE_SDK_PRUNE_DIRS", "GATE_SDK_PRUNE_EXTRA_DIRS"}},
		{"gates --only check-f", []string{"check-fail"}},
		{"gates --run-g", []string{"--run-gate-tests"}},
		{"gates --git-hook ", []string{"commit-msg", "pre-commit", "pre-merge-commit"}},
		{"gates help check-tree", []string{"check-tree-terms"}},
		{"gates completion p", []string{"powershell"}},
		{"gates kno", []string{"knobs"}},
		{"gates --run --format ", []string{"json", "text"}},
		{"gates --run --sh", []string{"--shard"}},
		{"gates check-tree-terms --f", []string{"--format"}},
	}
	for _, c := range cases {
		if got := s.complete(c.line); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q completes to %q, want %q", c.line, got, c.want)
		}
	}
	// Every arm of the table is a first-word candidate.
	got := strings.Join(s.complete("gates --"), " ")
	for _, arm := range []string{"--run", "--hook", "--install-hooks", "--emit", "--list", "--version", "--help"} {
		if !strings.Contains(" "+got+" ", " "+arm+" ") {
			t.Errorf("gates -- does not offer %s: %s", arm, got)
		}
	}
}

// Every shell's script generates, and each calls back into __complete.
func TestCompletionScriptsForEveryShell(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out := s.run(nil, binPath, "completion", sh)
		if code != 0 || !strings.Contains(out, "__complete") {
			t.Errorf("completion %s: exit %d %.120q", sh, code, out)
		}
	}
	if code, _ := s.run(nil, binPath, "completion", "tcsh"); code != 2 {
		t.Errorf("an unknown shell must be refused; exit %d", code)
	}
	code, out := s.run(nil, binPath, "__complete", "check-action-p")
	if code != 0 || !strings.Contains(out, "check-action-permissions\n") || !strings.Contains(out, "check-action-pinning\n") {
		t.Errorf("__complete check-action-p: exit %d\n%s", code, out)
	}
}
