package gates

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ciskip"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
	"github.com/gate-sdk/gates/internal/workflow"
)

// The differential against actionlint: check-action-run-shell's
// ShellCheck findings over the repository's workflow corpora, set beside
// actionlint's (the pinned release .ci/tools installs), finding by finding
// as (file, line, SC code). actionlint places a finding at the run: key
// and names the line in the script; that line is mapped to the file
// through the reader's own cut of the body. Every difference must carry a
// reason from differenceReason, and README.md's table between the markers
// below is exactly the differences with their reasons: -update rewrites
// it, and the test fails while it is out of date.

// actionlintCorpora are the trees compared, relative to the module root.
var actionlintCorpora = []string{
	"testdata/workflows",
	"testdata/spellings",
	"gate-tests/check-action-run-shell/good",
	"gate-tests/check-action-run-shell/bad",
}

const (
	actionlintBegin = "<!-- actionlint-differences:begin -->"
	actionlintEnd   = "<!-- actionlint-differences:end -->"
)

// actionlintOff are the checks actionlint passes to ShellCheck's -e (its
// rule_shellcheck.go says why for each; expressions become underscores
// there, which these would misread).
var actionlintOff = map[int]bool{1091: true, 2194: true, 2050: true, 2153: true, 2154: true, 2157: true, 2043: true}

type scKey struct {
	file string
	line int
	code int
}

// scDiff is one finding only one side reports.
type scDiff struct {
	scKey
	by     string // "check-action-run-shell" or "actionlint"
	reason string
}

var (
	ourSCLine = regexp.MustCompile(`^(\S+?):(\d+)(?::\d+)?: run: (?:block|value) \([^)]*\): (?:warning|error): .*\[SC(\d+)\]$`)
	alSCMsg   = regexp.MustCompile(`^shellcheck reported issue in this script: SC(\d+):(\w+):(\d+):(\d+): `)
)

func actionlintPath(t *testing.T) string {
	t.Helper()
	local, _ := filepath.Abs("../../.tmp/tools/bin/actionlint")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	if p, err := exec.LookPath("actionlint"); err == nil {
		return p
	}
	ciskip.Missing(t, "actionlint", "actionlint is not installed; .ci/tools builds it into .tmp/tools/bin")
	return ""
}

func TestRunShellAgainstActionlint(t *testing.T) {
	al := actionlintPath(t)
	if _, err := exec.LookPath("shellcheck"); err != nil {
		ciskip.Missing(t, "shellcheck", "shellcheck is not installed; .ci/tools installs it")
	}
	var diffs []scDiff
	compared := 0
	for _, corpus := range actionlintCorpora {
		root := filepath.Join("../..", corpus)
		files, modes := readCorpus(t, root)
		yamls, _ := splitYAML(files)
		var subject []string
		runs := map[string][]*workflow.Run{}
		for _, y := range yamls {
			f := workflow.Read(y, []byte(files[y]))
			if !f.Shape.Actions() {
				continue
			}
			subject = append(subject, y)
			rs, _ := workflow.Extract(f)
			runs[y] = rs
		}
		if len(subject) == 0 {
			t.Fatalf("%s holds no Actions file", corpus)
		}
		compared += len(subject)
		ours := map[scKey]int{}
		refused := map[string]string{}
		for _, y := range subject {
			dir := t.TempDir()
			tree := map[string]string{y: files[y]}
			writeFiles(t, dir, tree)
			r := gatetest.ExecScratch(checkActionRunShell, "check-action-run-shell", dir, t.TempDir(), &gatetest.Tree{Data: tree, Modes: modes}, actionKnobs(nil), map[string]string{"PATH": os.Getenv("PATH")})
			switch r.Code {
			case gate.Refused:
				refused[y] = strings.TrimSpace(strings.TrimPrefix(r.Stderr, "check-action-run-shell: "))
				continue
			case gate.Clean, gate.Failed:
			default:
				t.Fatalf("%s/%s: exit %d", corpus, y, r.Code)
			}
			for _, l := range strings.Split(r.Stdout, "\n") {
				if m := ourSCLine.FindStringSubmatch(l); m != nil {
					line, _ := strconv.Atoi(m[2])
					code, _ := strconv.Atoi(m[3])
					ours[scKey{m[1], line, code}]++
				}
			}
		}
		theirs := actionlintFindings(t, al, root, subject, runs)
		for k, n := range ours {
			for i := theirs[k]; i < n; i++ {
				diffs = append(diffs, scDiff{scKey: scKey{corpus + "/" + k.file, k.line, k.code}, by: "check-action-run-shell",
					reason: differenceReason(k, "ours", runs[k.file], refused[k.file])})
			}
		}
		for k, n := range theirs {
			for i := ours[k]; i < n; i++ {
				diffs = append(diffs, scDiff{scKey: scKey{corpus + "/" + k.file, k.line, k.code}, by: "actionlint",
					reason: differenceReason(k, "theirs", runs[k.file], refused[k.file])})
			}
		}
	}
	if compared < 40 {
		t.Fatalf("compared %d Actions files, want at least 40", compared)
	}
	sort.Slice(diffs, func(i, j int) bool {
		a, b := diffs[i], diffs[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.line != b.line {
			return a.line < b.line
		}
		if a.code != b.code {
			return a.code < b.code
		}
		return a.by < b.by
	})
	var unexplained []string
	for _, d := range diffs {
		if d.reason == "" {
			unexplained = append(unexplained, fmt.Sprintf("%s:%d SC%d, reported by %s only", d.file, d.line, d.code, d.by))
		}
	}
	if len(unexplained) > 0 {
		t.Fatalf("differences from actionlint with no reason; fix the rule or give the reason in differenceReason:\n%s", strings.Join(unexplained, "\n"))
	}
	checkREADMETable(t, actionlintTable(diffs, compared))
}

// actionlintFindings runs actionlint over a corpus's Actions files and
// answers its warning- and error-level ShellCheck findings, each placed
// at the file line the reader's cut of its run: body gives.
func actionlintFindings(t *testing.T, al, root string, subject []string, runs map[string][]*workflow.Run) map[scKey]int {
	t.Helper()
	cmd := exec.Command(al, append([]string{"-format", "{{json .}}", "-shellcheck", "shellcheck", "-pyflakes", "", "-no-color"}, subject...)...)
	cmd.Dir = root
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("actionlint in %s: %v\n%s", root, err, errb.String())
		}
	}
	var reports []struct {
		Kind     string `json:"kind"`
		Message  string `json:"message"`
		Filepath string `json:"filepath"`
		Line     int    `json:"line"`
	}
	if err := json.Unmarshal(out.Bytes(), &reports); err != nil {
		t.Fatalf("actionlint in %s printed no JSON list: %v\n%s", root, err, out.String())
	}
	theirs := map[scKey]int{}
	for _, r := range reports {
		if r.Kind != "shellcheck" {
			continue
		}
		m := alSCMsg.FindStringSubmatch(r.Message)
		if m == nil {
			t.Fatalf("actionlint: a shellcheck message of another shape: %q", r.Message)
		}
		if m[2] != "warning" && m[2] != "error" {
			continue
		}
		code, _ := strconv.Atoi(m[1])
		at, _ := strconv.Atoi(m[3])
		line := r.Line
		for _, run := range runs[r.Filepath] {
			if run.Line == r.Line && run.First > 0 {
				line = run.First + at - 1
			}
		}
		theirs[scKey{r.Filepath, line, code}]++
	}
	return theirs
}

// differenceReason says why one side alone reports k, or "" when no
// known cause fits.
func differenceReason(k scKey, side string, runs []*workflow.Run, refusal string) string {
	var run *workflow.Run
	for _, r := range runs {
		last := r.First + len(r.Lines) - 1
		if k.line == r.Line || (k.line >= r.First && k.line <= last) {
			run = r
		}
	}
	switch {
	case side == "ours" && actionlintOff[k.code]:
		return fmt.Sprintf("actionlint turns SC%d off for every script; this gate keeps it", k.code)
	case side == "theirs" && refusal != "":
		return "this gate refuses the file (" + refusal + ")"
	case run == nil:
		return ""
	case run.Job != nil && run.Job.Action:
		return "actionlint reads workflows only; this gate lints an action's steps too"
	case run.Res == workflow.WindowsRun && side == "theirs":
		return "the job runs on Windows, where a step with no shell: runs PowerShell; actionlint lints it as bash"
	case run.Res != workflow.Shell:
		return "this gate states no dialect for the step (a finding of its own) and lints nothing in it"
	case run.Dialect == "bash" && run.Flags != "-eo pipefail" && run.Flags != "-e":
		return fmt.Sprintf("the step's shell runs bash %s; actionlint lints every bash step under -eo pipefail", orNone(run.Flags))
	case side == "theirs" && k.code == 1083 && strings.Contains(strings.Join(run.Lines, "\n"), "@{"):
		return "this gate does not report SC1083 on git's @{...} revision braces, which bash passes through as written"
	case side == "theirs" && k.code == 2034 && k.line >= run.First && k.line-run.First < len(run.Lines) && countedLoop.Get().MatchString(run.Lines[k.line-run.First]):
		return "this gate does not report SC2034 on the variable of a loop over literal numbers, a repeat count"
	case side == "ours" && len(run.Trailing) > 0:
		return "a ShellCheck directive trailing a command is read as a plain comment here (ShellCheck refuses it there); actionlint passes it on"
	case side == "theirs" && len(run.Directives) > 0:
		return "a directive above the body's first command covers the whole body here, as in a script file; actionlint lints the body behind lines of its own, so it covers the next command only"
	case strings.Contains(strings.Join(run.Lines, "\n"), workflow.Expr):
		return "an expression is ${GHEXPR} (an opaque expansion) here and a run of underscores (a literal word) to actionlint"
	}
	return ""
}

func orNone(flags string) string {
	if flags == "" {
		return "with no option"
	}
	return flags
}

// actionlintTable renders the README section.
func actionlintTable(diffs []scDiff, compared int) string {
	var b strings.Builder
	b.WriteString(actionlintBegin + "\n")
	fmt.Fprintf(&b, "Generated by `go test ./internal/gates -run TestRunShellAgainstActionlint -update` over %d Actions files (%s).\n\n",
		compared, strings.Join(actionlintCorpora, ", "))
	if len(diffs) == 0 {
		b.WriteString("No difference.\n")
	} else {
		b.WriteString("| file | line | code | only in | why |\n|---|---|---|---|---|\n")
		for _, d := range diffs {
			fmt.Fprintf(&b, "| `%s` | %d | SC%d | %s | %s |\n", d.file, d.line, d.code, d.by, strings.ReplaceAll(d.reason, "|", `\|`))
		}
	}
	b.WriteString(actionlintEnd + "\n")
	return b.String()
}

// checkREADMETable holds README.md's section to section, or rewrites it
// under -update.
func checkREADMETable(t *testing.T, section string) {
	t.Helper()
	const readme = "../../README.md"
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, actionlintBegin), strings.Index(text, actionlintEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %s … %s section", actionlintBegin, actionlintEnd)
	}
	current := text[i : j+len(actionlintEnd)+1]
	if current == section {
		return
	}
	if *updateCorpus {
		if err := os.WriteFile(readme, []byte(text[:i]+section+text[j+len(actionlintEnd)+1:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's table of differences from actionlint is out of date; rerun with -update and review it\n--- want\n%s", section)
}
