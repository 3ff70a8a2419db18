//go:build unix

package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// The Actions row: the Actions gates, ShellCheck excluded
// (check-action-run-shell is the one that runs it), over 63 real
// workflows, beside `actionlint -shellcheck= -pyflakes=` over the same
// files, CPU time (user and system, children included) medians of paired
// runs. The workflows are those of pinned module versions that carry many,
// fetched with `go mod download` into .tmp/actions-corpus/ (kept between
// runs); when the module proxy cannot be reached the row says so and is
// skipped. Figures only.

// actionsCorpus are the modules whose .github/workflows/ make the corpus
// (63 files at these versions).
var actionsCorpus = []string{
	"github.com/caddyserver/caddy/v2@v2.11.9",
	"github.com/go-task/task/v3@v3.54.0",
	"github.com/golangci/golangci-lint/v2@v2.15.0",
	"github.com/goreleaser/goreleaser/v2@v2.15.1",
	"github.com/goreleaser/nfpm/v2@v2.45.2",
	"github.com/mikefarah/yq/v4@v4.54.3",
	"github.com/rhysd/actionlint@v1.7.12",
}

// actionsGates are the Actions gates that start no ShellCheck.
var actionsGates = []string{"check-action-gh-repo", "check-action-job-ref", "check-action-permissions", "check-action-pinning", "check-action-run-path", "check-workflow-tiering"}

// actionsRepo builds the corpus repository: every module's workflows
// under one .github/workflows/, each named <owner>-<repo>-<file>.
func actionsRepo(b *testing.B) (string, int, error) {
	b.Helper()
	cache := filepath.Join(modRoot, ".tmp", "actions-corpus", "mod")
	dir := filepath.Join(scratch, "actions")
	n := 0
	for _, mod := range actionsCorpus {
		cmd := exec.Command("go", "mod", "download", "-json", mod)
		cmd.Dir = scratch
		cmd.Env = append(os.Environ(), "GOMODCACHE="+cache, "GOFLAGS=-mod=mod -modcacherw")
		out, err := cmd.Output()
		var info struct{ Dir, Error string }
		if jerr := json.Unmarshal(out, &info); err != nil || jerr != nil || info.Dir == "" {
			return "", 0, fmt.Errorf("go mod download %s: %v %s", mod, err, info.Error)
		}
		files, _ := filepath.Glob(filepath.Join(info.Dir, ".github", "workflows", "*"))
		sort.Strings(files)
		path, _, _ := strings.Cut(mod, "@")
		parts := strings.Split(strings.TrimPrefix(path, "github.com/"), "/")
		prefix := parts[0] + "-" + parts[1] + "-"
		for _, f := range files {
			if ext := filepath.Ext(f); ext != ".yml" && ext != ".yaml" {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				return "", 0, err
			}
			if err := write(dir, ".github/workflows/"+prefix+filepath.Base(f), string(data), 0o644); err != nil {
				return "", 0, err
			}
			n++
		}
	}
	for rel, body := range map[string]string{
		".workflow/README.md": "# contract: gate-sdk/SPEC.md §The workflow directory\n",
		"scripts/gates.list":  strings.Join(actionsGates, "\n") + "\n",
	} {
		if err := write(dir, rel, body, 0o644); err != nil {
			return "", 0, err
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "feat: corpus"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, benchEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", 0, fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir, n, nil
}

// actionsFigures answers the row: the gates' CPU against actionlint's.
func actionsFigures(b *testing.B) []row {
	b.Helper()
	name := fmt.Sprintf("Actions gates (%d, ShellCheck excluded), CPU, vs `actionlint -shellcheck= -pyflakes=`", len(actionsGates))
	al := filepath.Join(modRoot, ".tmp", "tools", "bin", "actionlint")
	if !fileExists(al) {
		fmt.Printf("\n%s: skipped, actionlint is not at %s (.ci/tools builds it)\n", name, al)
		return nil
	}
	dir, n, err := actionsRepo(b)
	if err != nil {
		fmt.Printf("\n%s: skipped, the corpus could not be fetched from the module proxy: %v\n", name, err)
		return nil
	}
	root := []string{"GATE_SDK_ROOT=" + filepath.Join(modRoot, "kits", "gate-sdk")}
	const pairs = 15
	off := append([]string{"GATE_SDK_CACHE=off"}, root...)
	var ours, cold, theirs []time.Duration
	code, offCode, alCode := 0, 0, 0
	// The first run fills the result cache; the warm row times the runs
	// after it, over the unchanged tree.
	timedCPU(b, dir, root, binPlain, "--run")
	for i := 0; i < pairs; i++ {
		_, _, c, cpu := timedCPU(b, dir, root, binPlain, "--run")
		_, _, o, ocpu := timedCPU(b, dir, off, binPlain, "--run")
		_, _, a, acpu := timedCPU(b, dir, nil, al, "-shellcheck=", "-pyflakes=")
		ours, cold, theirs = append(ours, cpu), append(cold, ocpu), append(theirs, acpu)
		code, offCode, alCode = c, o, a
	}
	return []row{
		{fmt.Sprintf("%s, %d real workflows, warm result cache", name, n), median(ours), median(theirs),
			fmt.Sprintf("exit %d (actionlint %d); floor: actionlint; medians of %d paired runs; target ≤ 0.5×", code, alCode, pairs)},
		{fmt.Sprintf("%s, %d real workflows, GATE_SDK_CACHE=off (every file parsed)", name, n), median(cold), median(theirs),
			fmt.Sprintf("exit %d; same pairs, no target", offCode)},
	}
}
