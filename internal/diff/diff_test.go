package diff

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestNormalExamples(t *testing.T) {
	cases := []struct {
		a, b []string
		want []string
	}{
		{[]string{"x", "y"}, []string{"x", "z"}, []string{"2c2", "< y", "---", "> z"}},
		{[]string{"x"}, []string{"x", "y"}, []string{"1a2", "> y"}},
		{[]string{"x", "y"}, []string{"x"}, []string{"2d1", "< y"}},
		{[]string{"a", "b", "c", "d"}, []string{"a", "d"}, []string{"2,3d1", "< b", "< c"}},
		{[]string{"a"}, []string{"b", "c", "a"}, []string{"0a1,2", "> b", "> c"}},
		{[]string{"a", "b"}, []string{"c", "d", "e"}, []string{"1,2c1,3", "< a", "< b", "---", "> c", "> d", "> e"}},
		{[]string{"same"}, []string{"same"}, nil},
		{nil, nil, nil},
		{nil, []string{"a"}, []string{"0a1", "> a"}},
		{[]string{"a"}, nil, []string{"1d0", "< a"}},
	}
	for _, c := range cases {
		got := Normal(c.a, c.b)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("Normal(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

func TestCapped(t *testing.T) {
	lines := make([]string, 30)
	if got := Capped(lines, StaleReportCap); len(got) != 20 {
		t.Fatalf("Capped to %d lines", len(got))
	}
	if got := Capped(lines[:5], StaleReportCap); len(got) != 5 {
		t.Fatalf("Capped short input to %d lines", len(got))
	}
	if StaleReportCap != 20 {
		t.Fatal("the stale-report cap is the shell family's head -20")
	}
}

// gnuDiff runs the oracle on two line sequences.
func gnuDiff(t *testing.T, bin, dir string, a, b []string) []string {
	t.Helper()
	write := func(name string, lines []string) string {
		p := filepath.Join(dir, name)
		var buf bytes.Buffer
		for _, l := range lines {
			buf.WriteString(l + "\n")
		}
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pa, pb := write("a", a), write("b", b)
	cmd := exec.Command(bin, pa, pb)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		t.Fatalf("diff: %v", err)
	}
	s := strings.TrimSuffix(string(out), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func diffPath(t *testing.T) string {
	p, err := exec.LookPath("diff")
	if err != nil {
		t.Fatalf("diff not found on PATH: the renderer's oracle needs GNU diffutils; install it, e.g. `apt-get install diffutils`")
	}
	out, _ := exec.Command(p, "--version").Output()
	if !bytes.Contains(out, []byte("GNU diffutils")) {
		t.Fatalf("%s is not GNU diff: %s", p, out)
	}
	return p
}

// randLines draws n lines from an alphabet of one-letter lines and the
// empty line.
func randLines(r *rand.Rand, n, alphabet int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = line(r, alphabet)
	}
	return out
}

func line(r *rand.Rand, alphabet int) string {
	if k := r.Intn(alphabet + 1); k < alphabet {
		return string(rune('a' + k))
	}
	return ""
}

// mutate derives a sequence from a by random edits, so the pair shares
// long runs as real file versions do.
func mutate(r *rand.Rand, a []string, alphabet, edits int) []string {
	b := append([]string{}, a...)
	for range edits {
		switch k := r.Intn(3); {
		case k == 0 && len(b) > 0:
			i := r.Intn(len(b))
			b = append(b[:i], b[i+1:]...)
		case k == 1:
			i := r.Intn(len(b) + 1)
			b = append(b[:i], append([]string{line(r, alphabet)}, b[i:]...)...)
		case len(b) > 0:
			b[r.Intn(len(b))] = line(r, alphabet)
		}
	}
	return b
}

func TestNormalAgainstGNUDiff(t *testing.T) {
	bin := diffPath(t)
	type pair struct{ a, b []string }
	r := rand.New(rand.NewSource(1))
	var cases []pair
	for n := range 1200 {
		alphabet := 2 + r.Intn(5)
		var a, b []string
		switch n % 3 {
		case 0:
			a, b = randLines(r, r.Intn(12), alphabet), randLines(r, r.Intn(12), alphabet)
		case 1:
			a = randLines(r, r.Intn(30), alphabet)
			b = mutate(r, a, alphabet, 1+r.Intn(6))
		default:
			a = randLines(r, 40+r.Intn(160), alphabet+r.Intn(20))
			b = mutate(r, a, alphabet+r.Intn(20), 1+r.Intn(40))
		}
		cases = append(cases, pair{a, b})
	}
	// One diff process per case, a few at a time. The count is fixed, so a
	// loaded machine runs the same cases, only slower.
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	const workers = 4
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := t.TempDir()
			for i := w; i < len(cases); i += workers {
				c := cases[i]
				want := gnuDiff(t, bin, dir, c.a, c.b)
				got := Normal(c.a, c.b)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("case %d: a=%q b=%q\nNormal:\n%s\nGNU diff:\n%s", i, c.a, c.b, strings.Join(got, "\n"), strings.Join(want, "\n"))
					return
				}
				mu.Lock()
				done++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if done != len(cases) && !t.Failed() {
		t.Fatalf("%d of %d cases ran", done, len(cases))
	}
	t.Logf("%d random cases identical to GNU diff", done)
}

// Large inputs reach the too-expensive cut-off and the frequent-line
// discards; they must still agree.
func TestNormalLargeAgainstGNUDiff(t *testing.T) {
	bin := diffPath(t)
	dir := t.TempDir()
	r := rand.New(rand.NewSource(2))
	cutoffs := 0
	for k, size := range []int{2000, 16000} {
		a := randLines(r, size, 3+k)
		b := randLines(r, size, 3+k)
		if k == 0 {
			b = mutate(r, a, 6, 300)
		}
		for i := range a {
			if r.Intn(4) == 0 {
				a[i] = fmt.Sprint("u", i)
			}
		}
		want := gnuDiff(t, bin, dir, a, b)
		got := normal(a, b, func() { cutoffs++ })
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("size %d: first difference at output line %d: Normal %q, GNU diff %q", size, i, got[i], want[i])
				}
			}
			t.Fatalf("size %d: Normal %d lines, GNU diff %d lines", size, len(got), len(want))
		}
	}
	if cutoffs == 0 {
		t.Fatal("no input reached the too-expensive cut-off; enlarge the case")
	}
}
