//go:build !darwin

// The macOS regcomp breaks the leftmost rule (it answers aab for
// a(ab?)[b-d]* on xaaab), so this oracle is built on other hosts only; the
// engine is platform-independent, and the awk oracle runs everywhere.

package ere

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The capture oracle: CaptureFrom against bash's [[ $s =~ $p ]] with
// BASH_REMATCH[0] and [1], compared as strings, over a generated prefix x
// group x suffix x subject product. One bash at LC_ALL=C reads every
// pattern and subject on stdin, one per line; nothing is interpolated into
// the script.
const bashOracleScript = `
IFS=' ' read -r np ns
pats=() subj=()
for ((i = 0; i < np; i++)); do IFS= read -r p; pats+=("$p"); done
for ((i = 0; i < ns; i++)); do IFS= read -r s; subj+=("$s"); done
for p in "${pats[@]}"; do
	for s in "${subj[@]}"; do
		if [[ $s =~ $p ]]; then
			printf '1\x1f%s\x1f%s\n' "${BASH_REMATCH[0]}" "${BASH_REMATCH[1]}"
		else
			printf '0\n'
		fi
	done
done
`

var (
	capPrefixes = []string{"", "a", "a*", "[ab]*", "^", "^a*", "x", "a?", ".*", "b+", "[^c]*", "a{1,2}"}
	capGroups   = []string{"a", "a*", "ab?", "[a-c]+", "b*", ".*", "a{1,2}", "[^b]*", "^a", "a$", "c?", "[b-c]{0,2}"}
	capSuffixes = []string{"", "a", "b*", "[b-d]*", "$", "a*$", ".", "c?", "[ab]+", "b{2}"}
)

func TestBashCaptureOracle(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash not found on PATH: the capture oracle needs it")
	}
	var pats []string
	for _, p := range capPrefixes {
		for _, g := range capGroups {
			for _, s := range capSuffixes {
				pats = append(pats, p+"("+g+")"+s)
			}
		}
	}
	subjects := []string{""}
	level := []string{""}
	for range 3 {
		var next []string
		for _, s := range level {
			for _, c := range "abc" {
				next = append(next, s+string(c))
			}
		}
		subjects = append(subjects, next...)
		level = next
	}
	subjects = append(subjects, "xa", "xaaab", "abcabc", "aab", "aaab", "bab", "xbbc", "ab-c", "aabb")

	var in strings.Builder
	fmt.Fprintf(&in, "%d %d\n", len(pats), len(subjects))
	for _, p := range pats {
		in.WriteString(p + "\n")
	}
	for _, s := range subjects {
		in.WriteString(s + "\n")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "-c", bashOracleScript)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.Stdin = strings.NewReader(in.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(pats)*len(subjects) {
		t.Fatalf("bash answered %d lines for %d pairs", len(lines), len(pats)*len(subjects))
	}
	pairs, diverged, matched := 0, 0, 0
	for pi, p := range pats {
		c, err := CompileCapture(p)
		if err != nil {
			t.Fatalf("CompileCapture(%q): %v", p, err)
		}
		for si, s := range subjects {
			pairs++
			want := lines[pi*len(subjects)+si]
			got := "0"
			if w, g, ok := c.CaptureFrom(s, 0); ok {
				got = "1\x1f" + s[w.Start:w.End] + "\x1f" + s[g.Start:g.End]
				matched++
			}
			if got != want {
				diverged++
				if diverged <= 20 {
					t.Errorf("pattern %q subject %q: engine %q, bash %q", p, s, got, want)
				}
			}
		}
	}
	if diverged > 0 {
		t.Fatalf("%d of %d pairs diverge from bash", diverged, pairs)
	}
	t.Logf("bash capture oracle: %d patterns x %d subjects = %d pairs (%d matching), 0 divergences", len(pats), len(subjects), pairs, matched)
}
