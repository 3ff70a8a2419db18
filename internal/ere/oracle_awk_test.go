package ere

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The awk oracle: IsMatch against gawk's `s ~ p` and Find against
// match(s, p)'s RSTART/RLENGTH, byte for byte at LC_ALL=C, over a
// generated pattern x subject product. The patterns reach gawk through
// ENVIRON (never -v, whose escape pass would rewrite them) and the
// subjects on stdin, all in one gawk process.
//
// Debian's default awk is mawk, which ignores intervals, so the oracle is
// gawk specifically. Its absence is a failure, not a skip.

// awkExceptions are the places where gawk departs from POSIX. The engine
// follows POSIX there. Each is a rule, not a skip: it names the pattern
// shape, the exact form the departure takes, and the test confirms the
// engine's answer against the reference matcher (the POSIX semantics read
// directly off the parse tree) and logs every pattern it covered.
var awkExceptions = []struct {
	name, reasoning string
	applies         func(root *node) bool
	departs         func(engine, gawk awkResult) bool
}{
	{
		name: "^ inside a repeated group",
		reasoning: "POSIX makes ^ an anchor anywhere in an ERE, so in (^a)+ on \"ab\" the first " +
			"iteration matches at offset 0 and the match is \"a\". gawk's `~` (its DFA matcher) agrees, " +
			"but its match() goes through GNU regex's re_search, which finds no match at all once ^ sits " +
			"inside a repeated group, so RSTART is 0 even where `~` reported a match and even where the " +
			"pattern matches the empty string.",
		applies: func(root *node) bool { return beginUnderRepeat(root, false) },
		departs: func(engine, gawk awkResult) bool {
			return engine.match && gawk.match && gawk.rstart == 0 && engine.rstart > 0
		},
	},
}

func beginUnderRepeat(n *node, under bool) bool {
	if n.kind == nBegin {
		return under
	}
	for _, s := range n.subs {
		if beginUnderRepeat(s, under || (n.kind == nRepeat && n.max != 1 && n.max != 0)) {
			return true
		}
	}
	return false
}

func gawkPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("gawk")
	if err != nil {
		t.Fatalf("gawk not found on PATH: the ERE oracle needs GNU awk (mawk ignores intervals); install it, e.g. `apt-get install gawk`")
	}
	return p
}

const awkOracleScript = `
BEGIN { np = split(ENVIRON["ERE_PATTERNS"], pats, "\n") }
{ subj[ns++] = $0 }
END {
	for (i = 1; i <= np; i++) {
		p = pats[i]
		for (j = 0; j < ns; j++) {
			s = subj[j]
			m = (s ~ p) ? 1 : 0
			if (match(s, p)) printf "%d %d %d\n", m, RSTART, RLENGTH
			else printf "%d 0 -1\n", m
		}
	}
}
`

type awkResult struct {
	match           bool
	rstart, rlength int
}

func runGawk(t *testing.T, pats, subjects []string) []awkResult {
	t.Helper()
	for _, p := range pats {
		if strings.ContainsAny(p, "\n") {
			t.Fatalf("pattern %q holds a newline", p)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, gawkPath(t), awkOracleScript)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "ERE_PATTERNS="+strings.Join(pats, "\n"))
	cmd.Stdin = strings.NewReader(strings.Join(subjects, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gawk: %v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Fatalf("gawk complained: %s", stderr.String())
	}
	var res []awkResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var m, rs, rl int
		if _, err := fmt.Sscan(sc.Text(), &m, &rs, &rl); err != nil {
			t.Fatalf("gawk output %q: %v", sc.Text(), err)
		}
		res = append(res, awkResult{m == 1, rs, rl})
	}
	if len(res) != len(pats)*len(subjects) {
		t.Fatalf("gawk answered %d results for %d pairs", len(res), len(pats)*len(subjects))
	}
	return res
}

func TestAwkOracle(t *testing.T) {
	g := newPatGen(20240501)
	pats := append([]string{}, fixedPatterns...)
	seen := map[string]bool{}
	for _, p := range pats {
		seen[p] = true
	}
	for len(pats) < 1000 {
		p := g.alt(2)
		if !seen[p] {
			seen[p] = true
			pats = append(pats, p)
		}
	}
	subjects := smallSubjects()
	res := runGawk(t, pats, subjects)
	pairs, diverged := 0, 0
	excepted := make([]map[string]int, len(awkExceptions))
	for i := range excepted {
		excepted[i] = map[string]int{}
	}
	for pi, p := range pats {
		re, err := Compile(p)
		if err != nil {
			t.Fatalf("Compile(%q): %v", p, err)
		}
		root, _, _ := parse(p)
		for si, s := range subjects {
			want := res[pi*len(subjects)+si]
			pairs++
			gotMatch := re.IsMatch(s)
			sp, ok := re.Find(s)
			got := awkResult{gotMatch, 0, -1}
			if ok {
				got.rstart, got.rlength = sp.Start+1, sp.End-sp.Start
			}
			if got == want {
				continue
			}
			listed := false
			for ei, ex := range awkExceptions {
				if ex.applies(root) && ex.departs(got, want) {
					if ref, rok := refFind(root, s, 0); !rok || ref != sp {
						t.Errorf("pattern %q subject %q: engine %v disagrees with the reference %v %v", p, s, sp, ref, rok)
					}
					excepted[ei][p]++
					listed = true
					break
				}
			}
			if listed {
				continue
			}
			diverged++
			if diverged <= 20 || os.Getenv("ERE_ORACLE_ALL") != "" {
				t.Errorf("pattern %q subject %q: engine %+v, gawk %+v", p, s, got, want)
			}
		}
	}
	nExcepted := 0
	for ei, ex := range awkExceptions {
		t.Logf("POSIX over gawk, %s: %s", ex.name, ex.reasoning)
		for p, n := range excepted[ei] {
			t.Logf("  %q: %d subjects", p, n)
			nExcepted += n
		}
	}
	if len(excepted[0]) == 0 || excepted[0]["(^a)+"] == 0 {
		t.Errorf("the listed gawk departure no longer shows on (^a)+; revisit awkExceptions")
	}
	if diverged > 0 {
		t.Fatalf("%d of %d pairs diverge from gawk", diverged, pairs)
	}
	t.Logf("awk oracle: %d patterns x %d subjects = %d pairs, 0 unexplained divergences, %d pairs under the listed POSIX-over-gawk rules",
		len(pats), len(subjects), pairs, nExcepted)
}
