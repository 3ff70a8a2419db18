package gates

// check-shellcheck: the shell the family ships and the consumer's own
// gates pass shellcheck at warning severity. The gate wraps ShellCheck
// rather than re-deriving it, and says so when it is not installed.

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/spawn"
)

// kitLintDirs are the dirs of each kit root whose direct *.sh files ship.
// The templates dir is not among them: it is where
// GATE_SDK_KIT_TEMPLATES_DIR puts it (kitTemplateDirs).
var kitLintDirs = []string{"lib", "bin", "checks", "smoke"}

// scFileLine is one line of ShellCheck's gcc format over named files.
var scFileLine = lazyre.New(`^(.+?):(\d+):(\d+): (\w+): (.*)$`)

func checkShellcheck(c *gate.Context) int {
	// The probe comes first: with no shellcheck there is nothing to decide,
	// whatever the corpus holds.
	if !spawn.OnPath("shellcheck", spawn.LookupEnv(c.Env)) {
		return c.Refuse("shellcheck is not on PATH, and this gate is a wrapper around it: install ShellCheck (Debian and Ubuntu: apt-get install shellcheck; macOS: brew install shellcheck) or unregister check-shellcheck")
	}
	targets, err := shellcheckTargets(c)
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(targets) == 0 {
		if code, ok := nothingOwn(c, fmt.Sprintf("0 *.sh of this repository's own directly in %s or in GATE_SDK_LINT_EXTRA_DIRS", c.GatesDir)); ok {
			return code
		}
		return c.Refuse("no *.sh to lint: none directly in %s, in a kit root's %s, or in GATE_SDK_LINT_EXTRA_DIRS (a gate that lints nothing cannot be clean)",
			c.GatesDir, strings.Join(kitLintDirs, "/ "))
	}
	cmd := spawn.Cmd{
		Program:  spawn.Shellcheck(),
		Args:     append([]string{"--norc", "-S", "warning", "-f", "gcc", "--"}, targets...),
		Dir:      c.Dir,
		ExtraEnv: []string{"SHELLCHECK_OPTS="},
		Recorder: c.Spawns,
	}
	if path := c.Getenv("PATH"); path != "" {
		cmd.ExtraEnv = append(cmd.ExtraEnv, "PATH="+path)
	}
	res := spawn.RunStreamed(cmd, nil)
	switch res.Code() {
	case 0, 1:
	case 126, 127:
		return c.Refuse("could not run shellcheck: %s", strings.TrimSpace(string(res.Stderr())))
	default:
		return c.Refuse("shellcheck could not lint the targets (exit %d): %s", res.Code(), strings.TrimSpace(string(res.Stderr())+string(res.Stdout())))
	}
	r := c.NewReport(map[string]string{
		"A": "fix each listed ShellCheck warning (its wiki page is https://www.shellcheck.net/wiki/SC<code>); a deliberate exception takes a # shellcheck disable=SC<code> directive on the line above, with the reason beside it",
	})
	n := 0
	for _, ln := range strings.Split(string(res.Stdout()), "\n") {
		m := scFileLine.Get().FindStringSubmatch(ln)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		n++
		// assertion A: every target passes shellcheck -S warning.
		r.Add(gate.Finding{Class: "A", Path: m[1], Line: line, Msg: fmt.Sprintf("%s: %s", m[4], m[5])})
	}
	if res.Code() == 1 && n == 0 {
		return c.Refuse("shellcheck exited 1 with no report line: %s", strings.TrimSpace(string(res.Stderr())))
	}
	return r.Done(fmt.Sprintf("%s pass shellcheck -S warning", plural(len(targets), "shell file", "shell files")))
}

// shellcheckTargets answers the files to lint. Operands replace the whole
// set (a dir operand contributes its direct *.sh); otherwise the set is the
// gates dir's direct *.sh, each kit root's lib/ bin/ checks/ smoke/ and
// template tree's direct *.sh, and each dir GATE_SDK_LINT_EXTRA_DIRS names.
func shellcheckTargets(c *gate.Context) ([]string, error) {
	var dirs []string
	var files []string
	if len(c.Args) > 0 {
		for _, a := range c.Args {
			st, err := os.Stat(runPath(c, a))
			if err != nil {
				return nil, fmt.Errorf("cannot lint %s: %v", a, unwrapPath(err))
			}
			if st.IsDir() {
				dirs = append(dirs, a)
			} else {
				files = append(files, a)
			}
		}
	} else {
		dirs = append(dirs, c.GatesDir)
		tdirs, err := kitTemplateDirs(c, c.KitRoots, "")
		if err != nil {
			return nil, err
		}
		for i, k := range c.KitRoots {
			for _, d := range kitLintDirs {
				dirs = append(dirs, registry.Join(strings.TrimRight(k, "/"), d))
			}
			dirs = append(dirs, tdirs[i])
		}
		extra, err := c.Knobs.Words("GATE_SDK_LINT_EXTRA_DIRS")
		if err != nil {
			return nil, err
		}
		for _, d := range extra {
			st, err := os.Stat(runPath(c, d))
			if err != nil || !st.IsDir() {
				return nil, fmt.Errorf("GATE_SDK_LINT_EXTRA_DIRS names %s, which is no directory", d)
			}
		}
		dirs = append(dirs, extra...)
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f] = true
	}
	for _, d := range dirs {
		entries, err := os.ReadDir(runPath(c, d))
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, fmt.Errorf("cannot list %s: %v", d, unwrapPath(err))
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".sh") {
				names = append(names, registry.Join(strings.TrimRight(d, "/"), e.Name()))
			}
		}
		sort.Strings(names)
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				files = append(files, n)
			}
		}
	}
	return files, nil
}
