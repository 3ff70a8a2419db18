package gates

// check-test-hermetic: a kit's bespoke unit tests and its smoke scripts
// read nothing of the invoker's configuration. A *.test.sh runs from the
// invoker's directory, so without the hermetic bootstrap it inherits the
// consumer's knob files; a smoke script run under the real $HOME reads a
// live credential unless each kit-tool call is pinned to a scratch one.

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/shlex"
	"github.com/gate-sdk/gates/internal/walk"
)

const hermeticValve = "hermetic-exempt"

var (
	credAssign  = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*_CRED_FILE(\+)?=`)
	kitBinCall  = lazyre.New(`\$\{?SMOKE_KIT_ROOT\}?/bin/`)
	hermeticLib = lazyre.New(`(^|/)lib/test-hermetic\.sh$`)
)

func checkTestHermetic(c *gate.Context) int {
	var testDirs, smokeDirs []string
	switch {
	case len(c.Args) > 0 && c.Args[0] == "--smoke":
		smokeDirs = c.Args[1:]
		if len(smokeDirs) == 0 {
			smokeDirs = kitSubdirs(c, "smoke")
		}
	case len(c.Args) > 0:
		testDirs = c.Args
	default:
		var err error
		if testDirs, err = kitFixtureTrees(c); err != nil {
			return c.RefuseErr(err)
		}
		smokeDirs = kitSubdirs(c, "smoke")
	}
	if len(testDirs) == 0 && len(smokeDirs) == 0 {
		return c.Refuse("no kit root resolved, so there is no gate-tests/ or smoke/ to read (name dirs as operands, or --smoke <dir>)")
	}
	r := c.NewReport(map[string]string{
		"A": `source the bootstrap first: . "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh" (it points every kit's knob files at one empty file), or, for a test that must read the real configuration, say why in # hermetic-exempt: <reason>`,
		"B": `pin the call to a scratch credential on the same line: X_CRED_FILE="$scratch/cred" "$SMOKE_KIT_ROOT/bin/<tool>" …, or say why it may read the live one in # hermetic-exempt: <reason> on the line above`,
	})
	tests, smokes, exempt, calls := 0, 0, 0, 0
	for _, d := range testDirs {
		files, err := dirFiles(c, d, ".test.sh")
		if err != nil {
			return c.RefuseErr(err)
		}
		for _, path := range files {
			tests++
			_, toks, err := readLexed(c, path)
			if err != nil {
				return c.RefuseErr(err)
			}
			found, reason := commentValve(toks)
			switch {
			case found && reason != "":
				exempt++
			case sourcesHermetic(toks):
			case found:
				// assertion A: an empty reason declares nothing.
				r.Add(gate.Finding{Class: "A", Path: path, Msg: "neither sources lib/test-hermetic.sh nor gives # hermetic-exempt: a reason (the marker is empty), so it reads the invoker's knob files"})
			default:
				// assertion A: the bootstrap or the marker.
				r.Add(gate.Finding{Class: "A", Path: path, Msg: "neither sources lib/test-hermetic.sh nor carries # hermetic-exempt: <reason>, so it runs on the invoker's knob files"})
			}
		}
	}
	for _, d := range smokeDirs {
		files, err := dirFiles(c, d, ".sh")
		if err != nil {
			return c.RefuseErr(err)
		}
		for _, path := range files {
			smokes++
			data, toks, err := readLexed(c, path)
			if err != nil {
				return c.RefuseErr(err)
			}
			lines := strings.Split(string(data), "\n")
			if !assignsCred(toks) {
				continue // a smoke with no credential knob is not held
			}
			lineComment := map[int]string{}
			shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
				for _, t := range list {
					if t.Kind == shlex.Comment {
						lineComment[t.Pos.Line] = t.Value
					}
				}
			})
			var found []gate.Finding
			shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
				for _, p := range shlex.Split(list) {
					for _, cmd := range p.Commands {
						call, ok := kitCall(cmd)
						if !ok {
							continue
						}
						calls++
						line := call.Pos.Line
						if pinned(cmd) {
							continue
						}
						if v, why := valveIn(append(precedingComments(lines, line), lineComment[line]), hermeticValve); v && why != "" {
							exempt++
							continue
						}
						// assertion B: every kit-tool call pinned to a scratch credential.
						found = append(found, gate.Finding{Class: "B", Path: path, Line: line,
							Msg: fmt.Sprintf("%s runs a kit tool with no *_CRED_FILE pin on its line, in a smoke that sets one: under the real $HOME it reads the live credential", clip(call.Raw))})
					}
				}
			})
			addInLineOrder(r, found)
		}
	}
	return r.Done(fmt.Sprintf("%s source the bootstrap or say why not; %s read, %s under a credential pin; %d exempt",
		plural(tests, "unit test", "unit tests"), plural(smokes, "smoke script", "smoke scripts"), plural(calls, "kit-tool call", "kit-tool calls"), exempt))
}

// kitTestsDirs answers each kit root's fixture tree, index-aligned with
// the kit roots: <root>/gate-tests, or where GATE_SDK_KIT_TESTS_DIR puts
// gate-sdk's.
func kitTestsDirs(c *gate.Context) ([]string, error) {
	over, err := c.Knobs.Words(registry.KitTestsKnob)
	if err != nil {
		return nil, err
	}
	return registry.KitTestsDirs(c.KitRoots, over)
}

// kitFixtureTrees answers the kit fixture trees that exist, in kit-root
// order.
func kitFixtureTrees(c *gate.Context) ([]string, error) {
	dirs, err := kitTestsDirs(c)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range dirs {
		if st, err := os.Stat(runPath(c, d)); err == nil && st.IsDir() {
			out = append(out, d)
		}
	}
	return out, nil
}

// kitSubdirs answers <kit-root>/<sub> for every kit root holding it.
func kitSubdirs(c *gate.Context, sub string) []string {
	var out []string
	for _, k := range c.KitRoots {
		d := registry.Join(strings.TrimRight(k, "/"), sub)
		if st, err := os.Stat(runPath(c, d)); err == nil && st.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// dirFiles answers the files directly in dir whose names end in suffix,
// in byte order. A dir that does not exist is exit 2: it was named.
func dirFiles(c *gate.Context, dir, suffix string) ([]string, error) {
	entries, err := os.ReadDir(runPath(c, dir))
	if err != nil {
		return nil, fmt.Errorf("cannot list %s: %v", dir, unwrapPath(err))
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), suffix) {
			out = append(out, registry.Join(strings.TrimRight(dir, "/"), e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// readLexed reads a shell file named relative to the run directory and
// lexes it; either failure is an error naming the file.
func readLexed(c *gate.Context, path string) ([]byte, []shlex.Token, error) {
	data, err := walk.ReadConfig(runPath(c, path))
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %v", path, unwrapPath(err))
	}
	toks, err := lexShell(path, data)
	return data, toks, err
}

// sourcesHermetic reports a `.` or `source` command whose operand ends in
// lib/test-hermetic.sh.
func sourcesHermetic(toks []shlex.Token) bool {
	found := false
	forEachCommand(toks, func(cmd shlex.Command) {
		name, args := cmdName(cmd)
		if (name == "." || name == "source") && len(args) > 0 && hermeticLib.Get().MatchString(args[0].Value) {
			found = true
		}
	})
	return found
}

// commentValve looks for # hermetic-exempt: among a file's comments.
func commentValve(toks []shlex.Token) (bool, string) {
	var comments []string
	for _, t := range toks {
		if t.Kind == shlex.Comment {
			comments = append(comments, t.Value)
		}
	}
	return valveIn(comments, hermeticValve)
}

// assignsCred reports an assignment to some *_CRED_FILE anywhere.
func assignsCred(toks []shlex.Token) bool {
	found := false
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		for _, t := range list {
			if t.Kind == shlex.Word && credAssign.Get().MatchString(t.Raw) {
				found = true
			}
		}
	})
	return found
}

// kitCall answers the word naming a tool of the kit's bin/ that a command
// runs: its command name, or the script a bash/sh/exec/env/command runs. A
// mention inside a nested substitution is that list's own command.
func kitCall(cmd shlex.Command) (shlex.Token, bool) {
	words := cmd.Words()
	i := cmd.Name()
	if i < 0 {
		return shlex.Token{}, false
	}
	if kitBinCall.Get().MatchString(words[i].Raw) {
		return words[i], true
	}
	switch words[i].Value {
	case "bash", "sh", "exec", "env", "command":
		for _, w := range words[i+1:] {
			if strings.HasPrefix(w.Value, "-") || credAssign.Get().MatchString(w.Raw) {
				continue
			}
			if kitBinCall.Get().MatchString(w.Raw) {
				return w, true
			}
			break
		}
	}
	return shlex.Token{}, false
}

// pinned reports a *_CRED_FILE assignment among the command's words (the
// env prefix, or an env/export argument on the same command).
func pinned(cmd shlex.Command) bool {
	for _, w := range cmd.Words() {
		if w.Kind == shlex.Word && credAssign.Get().MatchString(w.Raw) {
			return true
		}
	}
	return false
}
