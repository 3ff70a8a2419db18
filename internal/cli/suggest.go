package cli

import (
	"fmt"
	"io"
	"strings"
)

// didYouMean answers the refusal's suggestion line for word among
// candidates ("\ndid you mean X?"), or "" when no candidate is near.
func didYouMean(word string, candidates []string) string {
	if c := closest(word, candidates); c != "" {
		return "\ndid you mean " + c + "?"
	}
	return ""
}

// closest answers the candidate nearest word by edit distance (a swap of
// two neighbours counts as one edit, leading dashes are ignored), or ""
// when the nearest is more than a third of the word away. Ties go to the
// first candidate, so callers pass them in the order they would list them.
func closest(word string, candidates []string) string {
	w := strings.TrimLeft(word, "-")
	if w == "" {
		return ""
	}
	best, bestD := "", -1
	for _, c := range candidates {
		if c == word {
			continue
		}
		d := editDistance(w, strings.TrimLeft(c, "-"))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(1, (len(w)+2)/3)
	if bestD < 0 || bestD > limit || bestD >= len(w) {
		return ""
	}
	return best
}

// editDistance is the optimal-string-alignment distance between a and b:
// insertions, deletions, substitutions and adjacent transpositions, each
// one edit, over bytes.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// optionWords answers every dash-led word the top level accepts: the
// battery's options, the top-level flags and every arm's flag, the
// candidates an unrecognized option is matched against.
func optionWords() []string {
	out := []string{"--run", "--for", "--only", "--gates-dir", "--shard", "--format", "--help", "--list", "--version", "--source-stamp", "--emit"}
	for _, a := range armTable() {
		if a.Flag != "--run" {
			out = append(out, a.Flag)
		}
	}
	return out
}

// firstWords answers every word a first token may be that is not an
// option: the compiled gates and the readable commands.
func firstWords() []string {
	out := gateNames()
	for _, c := range commandTable() {
		out = append(out, c.Name)
	}
	return out
}

// writeShortUsage is what follows an argv refusal on stderr: the grammar's
// two main forms and where the rest is, so a typo answers in a few lines
// rather than the whole usage.
func writeShortUsage(w io.Writer, prog string) {
	fmt.Fprintln(w, "usage: gates <gate> [<arg>...] | gates [--run] [<gates-dir>] [--shard <K>/<N>] [--for <path>... | --only <name>...]")
	if prog != "gates" {
		fmt.Fprintf(w, "(%s passes its arguments to the gates binary.) ", prog)
	}
	fmt.Fprintln(w, "run `gates --help` for every arm and command, `gates --list` for the gates")
}

// writeEmitHelp is `gates --emit --help`: every emit arm with what it
// prints.
func writeEmitHelp(w io.Writer) {
	fmt.Fprintln(w, "usage: gates --emit <name> [<arg>...]   print a projection; exit 0, or 2 when it cannot")
	fmt.Fprintln(w, "\nemit arms (gates --emit <name> --help for one):")
	for _, a := range armTable() {
		if strings.HasPrefix(a.Flag, "--emit-") {
			fmt.Fprintf(w, "  %s\n      %s\n", armSpelling(a), a.Summary)
		}
	}
}
