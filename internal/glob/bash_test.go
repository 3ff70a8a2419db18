package glob

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// bashScript reads NUL-separated pattern/name pairs and answers one byte
// per pair: '1' when the shell's case statement matches, else '0'.
const bashScript = `while IFS= read -r -d '' p && IFS= read -r -d '' n; do
case $n in $p) printf 1;; *) printf 0;; esac
done`

type pair struct{ pattern, name string }

// bashVerdicts runs every pair through one bash process in the C locale.
func bashVerdicts(t *testing.T, pairs []pair) []bool {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed; the differential oracle cannot run")
	}
	var in bytes.Buffer
	for _, p := range pairs {
		in.WriteString(p.pattern)
		in.WriteByte(0)
		in.WriteString(p.name)
		in.WriteByte(0)
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", bashScript)
	cmd.Env = []string{"LC_ALL=C", "PATH=" + os.Getenv("PATH")}
	cmd.Stdin = &in
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("bash oracle failed: %v: %s", err, errb.String())
	}
	if out.Len() != len(pairs) {
		t.Fatalf("bash answered %d verdicts for %d pairs (stderr %q)", out.Len(), len(pairs), errb.String())
	}
	v := make([]bool, len(pairs))
	for i, b := range out.Bytes() {
		v[i] = b == '1'
	}
	return v
}

// product returns every string of length 0..max over the given units.
func product(units []string, max int) []string {
	out := []string{""}
	layer := []string{""}
	for n := 1; n <= max; n++ {
		var next []string
		for _, prefix := range layer {
			for _, u := range units {
				next = append(next, prefix+u)
			}
		}
		out = append(out, next...)
		layer = next
	}
	return out
}

func compare(t *testing.T, pairs []pair) {
	t.Helper()
	// A "**/" may read zero directories in Match and never in the shell;
	// TestGlobstarZeroDirectories holds those patterns instead.
	kept := pairs[:0:0]
	for _, p := range pairs {
		if !strings.Contains(p.pattern, "**/") {
			kept = append(kept, p)
		}
	}
	pairs = kept
	want := bashVerdicts(t, pairs)
	bad := 0
	for i, p := range pairs {
		if got := Match(p.pattern, p.name); got != want[i] {
			bad++
			if bad <= 400 {
				t.Errorf("Match(%q, %q) = %v, bash says %v", p.pattern, p.name, got, want[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d pairs disagree with bash", bad, len(pairs))
	}
	t.Logf("%d pattern/name pairs agree with bash", len(pairs)-bad)
}

// scale reads GLOB_DIFF_SCALE (a test-only dial) to widen the product.
func scale() int {
	n, err := strconv.Atoi(os.Getenv("GLOB_DIFF_SCALE"))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// TestBashProduct holds Match to bash over every short pattern built from
// the bytes and runs that make a bracket expression interesting, against
// every short name over the bytes those patterns can name.
func TestBashProduct(t *testing.T) {
	units := []string{"a", "b", "[", "]", "!", "^", "-", "\\", "*", "?", ":", "=", ".", "/"}
	nameUnits := []string{"a", "b", "[", "]", "-", "\\", ":", "=", "/", "."}
	short, long := product(nameUnits, 1), product(nameUnits, 2)
	var pairs []pair
	add := func(patterns, names []string) {
		for _, p := range patterns {
			for _, n := range names {
				pairs = append(pairs, pair{p, n})
			}
		}
	}
	bracketed := func(max int) []string {
		var out []string
		for _, p := range product(units, max) {
			out = append(out, "["+p)
		}
		return out
	}
	switch {
	case scale() > 1:
		add(bracketed(4), long)
		add(product(units, 2), long)
	case testing.Short():
		add(bracketed(2), long)
		add(product(units, 2), short)
	default:
		add(bracketed(3), short)
		add(bracketed(2), long)
		add(product(units, 2), long)
	}
	compare(t, pairs)
}

// TestBashClasses holds every class name, and some malformed ones, inside
// brackets of several shapes against every byte.
func TestBashClasses(t *testing.T) {
	classes := []string{"alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower",
		"print", "punct", "space", "upper", "word", "xdigit", "foo", "", "ALPHA"}
	var pairs []pair
	for _, c := range classes {
		for _, shape := range []string{"[[:%s:]]", "[![:%s:]]", "[a[:%s:]]", "[[:%s:]a]", "[[:%s:]-z]", "x[[:%s:]]*"} {
			pat := fmt.Sprintf(shape, c)
			for b := 1; b < 256; b++ {
				pairs = append(pairs, pair{pat, string([]byte{byte(b)})})
				pairs = append(pairs, pair{pat, "x" + string([]byte{byte(b)}) + "yz"})
			}
		}
	}
	compare(t, pairs)
}

// TestBashCollatingSymbols holds every portable-character-set name, as a
// symbol and as a range end, against bash.
func TestBashCollatingSymbols(t *testing.T) {
	var pairs []pair
	names := append([]string{"not-a-name", "", "aa", "BEL", "low-line"}, strings.Fields(portableNames)...)
	for _, n := range names {
		for _, shape := range []string{"[[.%s.]]", "[[.%s.]-~]", "[ -[.%s.]]", "[[=%s=]]"} {
			pat := fmt.Sprintf(shape, n)
			for b := 1; b < 128; b++ {
				pairs = append(pairs, pair{pat, string([]byte{byte(b)})})
			}
		}
	}
	compare(t, pairs)
}

// TestBashRandom holds Match to bash over random patterns and names drawn
// from path-like and meta bytes, including bytes above 0x7f.
func TestBashRandom(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 3000
	}
	n *= scale()
	rng := rand.New(rand.NewSource(1))
	pu := []string{"a", "b", "c", "/", ".", "*", "*", "?", "[", "]", "!", "^", "-", "\\", "[:alpha:]",
		"[:digit:]", "[[:upper:]]", "[!a]", "[a-c]", "**", ":", "=", "\xe9", "\xff"}
	nu := []string{"a", "b", "c", "/", ".", "A", "1", "[", "]", "-", "\\", "!", "*", "?", "\xe9", "\xff", ":"}
	pairs := make([]pair, 0, n)
	for i := 0; i < n; i++ {
		var p, s []byte
		for k := rng.Intn(8); k > 0; k-- {
			p = append(p, pu[rng.Intn(len(pu))]...)
		}
		for k := rng.Intn(10); k > 0; k-- {
			s = append(s, nu[rng.Intn(len(nu))]...)
		}
		pairs = append(pairs, pair{string(p), string(s)})
	}
	compare(t, pairs)
}

// portableNames lists the collating-symbol names symbolNames answers.
const portableNames = `NUL SOH STX ETX EOT ENQ ACK alert backspace BS tab HT newline LF
vertical-tab VT form-feed FF carriage-return CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN
EM SUB ESC IS4 FS IS3 GS IS2 RS IS1 US space exclamation-mark quotation-mark number-sign
dollar-sign percent-sign ampersand apostrophe left-parenthesis right-parenthesis asterisk
plus-sign comma hyphen hyphen-minus period full-stop slash solidus zero one two three four
five six seven eight nine colon semicolon less-than-sign equals-sign greater-than-sign
question-mark commercial-at left-square-bracket backslash reverse-solidus
right-square-bracket circumflex circumflex-accent underscore grave-accent left-brace
left-curly-bracket vertical-line right-brace right-curly-bracket tilde DEL`

func TestPortableNamesAllKnown(t *testing.T) {
	for _, n := range strings.Fields(portableNames) {
		if _, ok := symbolNames(n); !ok {
			t.Errorf("symbolNames(%q) unknown", n)
		}
	}
}
