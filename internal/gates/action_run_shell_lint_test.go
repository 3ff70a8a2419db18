package gates

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
	"github.com/gate-sdk/gates/internal/walk"
)

// readCorpus loads a testdata tree: every file's text, and the executable
// mode for its shell scripts.
// splitYAML answers a corpus's YAML paths, sorted, and its other paths.
func splitYAML(files map[string]string) (yamls, others []string) {
	for p := range files {
		if strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml") {
			yamls = append(yamls, p)
		} else {
			others = append(others, p)
		}
	}
	sort.Strings(yamls)
	return yamls, others
}

func readCorpus(t *testing.T, root string, skip ...string) (map[string]string, map[string]uint32) {
	t.Helper()
	files := map[string]string{}
	modes := map[string]uint32{}
	err := walk.Walk(root, walk.Options{}, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			return nil
		}
		for _, s := range skip {
			if rel == s {
				return nil
			}
		}
		data, err := os.ReadFile(root + "/" + rel)
		if err != nil {
			return err
		}
		files[rel] = string(data)
		if strings.HasSuffix(rel, ".sh") {
			modes[rel] = 0o100755
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, modes
}

// runShellWith runs check-action-run-shell over tree with the given batch
// bound (0: each block alone on stdin) and worker count.
func runShellWith(t *testing.T, tree map[string]string, modes map[string]uint32, env map[string]string, batch, jobs int) gatetest.Run {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, tree)
	rule := func(c *gate.Context) int {
		c.Jobs = jobs
		return runShell(c, batch)
	}
	return gatetest.ExecScratch(rule, "check-action-run-shell", dir, t.TempDir(), &gatetest.Tree{Data: tree, Modes: modes}, actionKnobs(nil), env)
}

// transcript is everything a run says.
func transcript(r gatetest.Run) string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.Code, r.Stdout, r.Stderr)
}

// hostileFragments are block lines (some several lines long) chosen to
// stress the mapping: findings at odd columns, tabs, expressions before a
// finding, parse errors, directives, dialect-only constructs, sources of
// files that exist in the tree and of names the scratch files could have.
var hostileFragments = []string{
	"cd build",
	"echo $HOME",
	"echo \"${{ github.sha }}\" && cd out",
	"if [ ${{ github.event_name }} = push ]; then cd x; fi",
	"[[ -n \"$X\" ]] && echo y",
	"x_unused=1",
	"echo \"$never_set\"",
	"local v=1",
	"source ./0.sh",
	". 1.sh",
	"source 2.sh && echo \"$from_two\"",
	"source scripts/lib.sh",
	"source /dev/stdin",
	"# shellcheck disable=SC2164",
	"cd other # shellcheck disable=SC2164",
	"echo\tx\t&& cd tabbed\t&& echo \"$never_set\"",
	"echo \"unterminated",
	"for f in $(ls); do echo $f; done",
	"cat <<EOF\nhello $name\ncd inside\t$x\nEOF",
	"echo 'ünïcödé' && cd ünï",
	"echo ${{ matrix.a }} ${{ matrix.longer_name }} && cd x",
	"rm -rf \"$dir\"/",
	"trap \"echo $x\" EXIT",
	"echo $((1 +))",
	"f() { cd x; }\nf",
	"a=(1 2) && echo \"${a[@]}\"",
	"echo ${var^^}",
	"echo " + strings.Repeat("long ", 80) + "&& cd far",
	"if true; then",
	"done",
	"echo a &&\n   cd indented",
	"echo '${{ secrets.TOKEN }}' | cd -",
	"#!/bin/zsh",
	"exit 300",
}

// hostileTree writes a set of workflows whose blocks are drawn from
// hostileFragments under every dialect, with repeated bodies (the same
// text at another indentation and behind other expressions), steps with
// no dialect interleaved, and several files.
func hostileTree(seed int64) map[string]string {
	rng := rand.New(rand.NewSource(seed))
	shells := []string{"", "bash", "sh", "dash", "ksh", "bash -e {0}"}
	exprs := []string{"${{ a }}", "${{ github.event.pull_request.head.sha }}", "${{ x }}"}
	var pool []string
	body := func() string {
		if len(pool) > 3 && rng.Intn(4) == 0 {
			b := pool[rng.Intn(len(pool))]
			// The same body behind an expression of another length.
			for _, e := range exprs {
				b = strings.ReplaceAll(b, e, exprs[rng.Intn(len(exprs))])
			}
			return b
		}
		var lines []string
		for n := 1 + rng.Intn(5); n > 0; n-- {
			lines = append(lines, hostileFragments[rng.Intn(len(hostileFragments))])
		}
		b := strings.Join(lines, "\n")
		pool = append(pool, b)
		return b
	}
	files := map[string]string{
		"0.sh":           "from_zero=1\n",
		"1.sh":           "from_one=1\n",
		"2.sh":           "from_two=1\n",
		"scripts/lib.sh": "lib=1\n",
	}
	for f := 0; f < 2; f++ {
		var b strings.Builder
		b.WriteString("name: hostile\non: push\njobs:\n")
		for j := 0; j < 4; j++ {
			runsOn := []string{"ubuntu-latest", "ubuntu-latest", "windows-latest", "${{ matrix.os }}"}[rng.Intn(4)]
			fmt.Fprintf(&b, "  j%d:\n    runs-on: %s\n    steps:\n", j, runsOn)
			for s := 0; s < 20; s++ {
				sh := shells[rng.Intn(len(shells))]
				indent := strings.Repeat(" ", 10+2*rng.Intn(3))
				b.WriteString("      - name: s\n")
				if sh != "" {
					fmt.Fprintf(&b, "        shell: %s\n", sh)
				}
				b.WriteString("        run: |\n")
				for _, l := range strings.Split(body(), "\n") {
					b.WriteString(indent + l + "\n")
				}
			}
		}
		files[fmt.Sprintf(".github/workflows/h%d.yml", f)] = b.String()
	}
	files[".github/actions/a/action.yml"] = "name: a\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: |\n        cd x\n        source ./0.sh\n    - shell: sh\n      run: |\n        [[ -n x ]]\n"
	return files
}

// TestRunShellBatchedEqualsPerBlock is the differential test: over the
// real-workflow corpora of testdata and over generated hostile blocks,
// the batched run prints byte for byte what linting each block alone on
// stdin prints, at every batch bound and worker count.
//
// The reference lints each distinct body on stdin once (refMemo): the
// together trees and the hostile trees' repeated bodies would otherwise
// start ShellCheck again on the very input it already answered. The test
// is not parallel, so no other test runs while the memo is set.
func TestRunShellBatchedEqualsPerBlock(t *testing.T) {
	refMemo = map[string][]scReport{}
	defer func() { refMemo = nil }()
	env := map[string]string{"PATH": os.Getenv("PATH")}
	type tree struct {
		name  string
		files map[string]string
		modes map[string]uint32
		ref   *gatetest.Run // the per-block run, when already made
	}
	var trees []tree
	for _, root := range []string{corpusDir, spellingsDir} {
		files, modes := readCorpus(t, root, "FINDINGS.txt")
		yamls, others := splitYAML(files)
		// Each file alone (a refusal ends a run), then every file the
		// reference does not refuse, together.
		whole := map[string]string{}
		for _, o := range others {
			whole[o] = files[o]
		}
		for _, y := range yamls {
			one := map[string]string{y: files[y]}
			for _, o := range others {
				one[o] = files[o]
			}
			ref := runShellWith(t, one, modes, env, 0, 1)
			trees = append(trees, tree{root + "/" + y, one, modes, &ref})
			if ref.Code != gate.Refused {
				whole[y] = files[y]
			}
		}
		trees = append(trees, tree{root + " (together)", whole, modes, nil})
	}
	for seed := int64(1); seed <= 2; seed++ {
		trees = append(trees, tree{fmt.Sprintf("hostile seed %d", seed), hostileTree(seed), nil, nil})
	}
	findings := 0
	for _, tr := range trees {
		if tr.ref == nil {
			r := runShellWith(t, tr.files, tr.modes, env, 0, 1)
			tr.ref = &r
		}
		ref := *tr.ref
		if ref.Code == gate.Failed {
			findings += strings.Count(ref.Stdout, ": run: block (")
		}
		for _, cfg := range []struct{ batch, jobs int }{{scBatchMax, 0}, {5, 2}} {
			got := runShellWith(t, tr.files, tr.modes, env, cfg.batch, cfg.jobs)
			if transcript(got) != transcript(ref) {
				t.Errorf("%s, batch %d, %d workers: the batched run differs from the per-block run\n=== per block\n%s\n=== batched\n%s",
					tr.name, cfg.batch, cfg.jobs, transcript(ref), transcript(got))
			}
		}
	}
	// The comparison is not vacuous: the hostile trees raise ShellCheck
	// findings by the hundred.
	if findings < 200 {
		t.Errorf("the reference runs raised %d ShellCheck findings; the corpus no longer exercises the mapping", findings)
	}
}

// TestRunShellBatches proves the batched run really batches: a wrapper
// shellcheck on PATH logs each run's operand count, and the hostile tree's
// blocks go to far fewer runs than blocks, none larger than the bound.
func TestRunShellBatches(t *testing.T) {
	real, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Fatal("the test needs shellcheck on PATH: ", err)
	}
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "runs")
	wrapper := fmt.Sprintf("#!/bin/sh\necho \"$#\" >> '%s'\nexec '%s' \"$@\"\n", log, real)
	if err := os.WriteFile(filepath.Join(bin, "shellcheck"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	files := hostileTree(1)
	r := runShellWith(t, files, nil, env, 20, 2)
	if r.Code != gate.Failed {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	runs := strings.Fields(string(data))
	const fixed = 8 // --norc -s D -S warning -f gcc --
	total := 0
	for _, n := range runs {
		var k int
		fmt.Sscanf(n, "%d", &k)
		if k-fixed > 20 {
			t.Errorf("a run was given %d blocks, over the bound of 20", k-fixed)
		}
		total += k - fixed
	}
	if len(runs) == 0 || len(runs)*5 > total {
		t.Errorf("%d ShellCheck runs for %d block files: the blocks were not batched", len(runs), total)
	}
}

// fakeShellcheck puts a shellcheck on PATH that runs script.
func fakeShellcheck(t *testing.T, script string) map[string]string {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "shellcheck"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH")}
}

// TestRunShellBatchRefusals: whatever ShellCheck does besides exit 0 or
// exit 1 with lines its batch owns, the gate refuses and prints no
// finding; it never reads a failed run as clean.
func TestRunShellBatchRefusals(t *testing.T) {
	files := map[string]string{".github/workflows/ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          cd x\n      - run: |\n          cd y\n")}
	cases := []struct {
		name, script, want string
	}{
		{"exit 3", "echo 'bad option' >&2; exit 3\n", "ci.yml:7: shellcheck could not lint the run: block (exit 3): bad option (in a batch of 2 run: blocks from here)"},
		{"crash by signal", "kill -SEGV $$\n", "(exit 139)"},
		{"exit 1, no line", "exit 1\n", "shellcheck exited 1 with no report line"},
		{"a line for no block", "echo '/elsewhere/0.sh:1:1: warning: x [SC2164]'; exit 1\n", "shellcheck printed a line no run: block owns"},
		{"an index outside the batch", "d=$(dirname \"$9\"); echo \"$d/99.sh:1:1: warning: x [SC2164]\"; exit 1\n", "no run: block owns"},
		{"garbage", "echo 'Segmentation fault'; exit 1\n", "no run: block owns"},
		{"unreadable input, named as its block", "echo \"$9: openBinaryFile: does not exist\" >&2; exit 2\n", "(exit 2): .github/workflows/ci.yml:7: openBinaryFile"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runShellWith(t, files, nil, fakeShellcheck(t, tc.script), scBatchMax, 2)
			if r.Code != gate.Refused || r.Stdout != "" || !strings.Contains(r.Stderr, tc.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 carrying %q", r.Code, r.Stdout, r.Stderr, tc.want)
			}
		})
	}
	// Every batch failing, the refusal is always the first batch's.
	var steps strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&steps, "      - run: |\n          cd d%d\n", i)
	}
	many := map[string]string{"ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n" + steps.String())}
	failing := fakeShellcheck(t, "sleep 0.0$$; exit 3\n")
	for i := 0; i < 5; i++ {
		r := runShellWith(t, many, nil, failing, 5, 2)
		if r.Code != gate.Refused || !strings.HasPrefix(r.Stderr, "check-action-run-shell: ci.yml:7: ") || !strings.Contains(r.Stderr, "in a batch of 5 run: blocks") {
			t.Fatalf("exit %d, stderr %q; want the first batch's refusal", r.Code, r.Stderr)
		}
	}
	// The gate given no scratch directory cannot batch: it refuses.
	dir := t.TempDir()
	writeFiles(t, dir, files)
	r := gatetest.Exec(checkActionRunShell, "check-action-run-shell", dir, &gatetest.Tree{Data: files}, actionKnobs(nil), map[string]string{"PATH": os.Getenv("PATH")})
	if r.Code != gate.Refused || !strings.Contains(r.Stderr, "no scratch directory") {
		t.Fatalf("without scratch: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// TestRepeatCounterShapes: the unread variable of a loop over literal
// numbers, one brace range or a seq of literal numbers is a repeat count;
// a loop over anything computed is not.
func TestRepeatCounterShapes(t *testing.T) {
	text := "i appears unused. Verify use (or export if used externally). [SC2034]"
	for line, want := range map[string]bool{
		"for i in 1 2 3; do":             true,
		"for i in {1..10}; do":           true,
		"for i in $(seq 1 10)":           true,
		"for i in $(seq 10); do":         true,
		"for i in `seq 1 2 9`; do":       true,
		"for i in $(seq 1 $n); do":       true,
		"for i in $(seq \"$count\"); do": true,
		"for i in $(seq $(nproc)); do":   false,
		"for i in $(seq 1 $n x); do":     false,
		"for i in $(ls); do":             false,
		"for j in $(seq 1 10); do":       false,
		"for i in $(seq 1 10) x; do":     false,
	} {
		if got := repeatCounter(line, text); got != want {
			t.Errorf("repeatCounter(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestWorkspaceOf: a body's sourced paths are found from the directory
// holding its file's .github/ (the repository GitHub checks out), or from
// the scan root for a file outside one.
func TestWorkspaceOf(t *testing.T) {
	for _, tc := range []struct{ root, p, want string }{
		{".", ".github/workflows/ci.yml", ""},
		{"fixtures", "fixtures/case/.github/workflows/ci.yml", "fixtures/case"},
		{".", "tools/.github/actions/x/action.yml", "tools"},
		{"sub", "sub/action.yml", "sub"},
	} {
		if got := workspaceOf(tc.root, tc.p); got != tc.want {
			t.Errorf("workspaceOf(%q, %q) = %q, want %q", tc.root, tc.p, got, tc.want)
		}
	}
}
