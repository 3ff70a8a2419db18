package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/shlex"
	"github.com/gate-sdk/gates/internal/walk"
)

// settingsEdit is the part of an edit tool's input the settings guard
// reads: the bulk the payload read keeps when it is small.
type settingsEdit struct {
	Content    *string `json:"content"`
	OldString  string  `json:"old_string"`
	NewString  *string `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
	Edits      []struct {
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	} `json:"edits"`
}

// harnessSettings reports a path the harness reads its hook registrations
// from: settings.json or settings.local.json directly under a directory
// named .claude (the project's, a linked worktree's, the user's).
func harnessSettings(canon string) bool {
	base := filepath.Base(canon)
	return (base == "settings.json" || base == "settings.local.json") && filepath.Base(filepath.Dir(canon)) == ".claude"
}

// settingsCut answers why the edit of the harness settings file at canon
// would take the gates' hooks away ("" when it keeps them): the file as
// the tool would leave it turns every hook off, is no JSON the harness
// can read, or lacks a registration of a gates member the file holds now.
func settingsCut(c *Call, canon string) string {
	var in settingsEdit
	if !c.Payload.Input(&in) {
		return "the edit's input cannot be read"
	}
	before, err := walk.ReadConfig(canon)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("the file cannot be read (%v)", err)
	}
	after := string(before)
	switch {
	case c.Payload.ToolName == "Write":
		if in.Content == nil {
			return "the new content is too large to judge"
		}
		after = *in.Content
	case c.Payload.ToolName == "Edit":
		if in.NewString == nil {
			return "the replacement is too large to judge"
		}
		after = replace(after, in.OldString, *in.NewString, in.ReplaceAll)
	case c.Payload.ToolName == "MultiEdit":
		if in.Edits == nil {
			return "the edits are too large to judge"
		}
		for _, e := range in.Edits {
			after = replace(after, e.OldString, e.NewString, e.ReplaceAll)
		}
	default:
		return "the tool writes it in a form the guard cannot judge"
	}
	if strings.TrimSpace(after) == "" {
		after = "{}"
	}
	var doc struct {
		DisableAllHooks bool                       `json:"disableAllHooks"`
		Hooks           map[string]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(after), &doc); err != nil {
		return fmt.Sprintf("the file would not be JSON the harness can read (%v)", err)
	}
	if doc.DisableAllHooks {
		return `it would set "disableAllHooks": true, which turns every hook off`
	}
	var missing []string
	now := settingsMembers(before)
	then := settingsMembers([]byte(after))
	for k, name := range now {
		if _, ok := then[k]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return "it would drop the registration of " + strings.Join(missing, ", ")
	}
	return ""
}

// replace does what the edit tools do with one replacement: the first
// occurrence, or every one; an old text not there changes nothing (the
// tool fails).
func replace(s, old, new string, all bool) string {
	if old == "" {
		return s
	}
	if all {
		return strings.ReplaceAll(s, old, new)
	}
	return strings.Replace(s, old, new, 1)
}

// minHookTimeout is the least "timeout" (seconds) a gates registration
// may carry and still count: the harness ends a hook that runs longer and
// goes on as if it had not run, and a gates hook judging a commit takes
// seconds, so a shorter one (or 0, or less) is a registration lost.
const minHookTimeout = 10

// shortTimeout reports whether a registration's timeout, when set, would
// end a gates hook before it can answer.
func shortTimeout(t *float64) bool { return t != nil && *t < minHookTimeout }

// settingsRegistration is one gates registration a settings text holds.
type settingsRegistration struct {
	// Key is all it is (event, matcher, command, args: a registration
	// whose stub or binary was rewritten is another one).
	Key string
	// Name is "<member> on <event> (<matcher>)".
	Name string
	// Live reports it runs this release's footing stub, under an
	// interpreter named bare (as init writes it: one named by a path may
	// be any program that ignores the stub).
	Live bool
}

// settingsRegistrations answers every registration of a gates member a
// settings text holds; none for a text that is not JSON, and none for a
// registration whose timeout is too short to let it answer.
func settingsRegistrations(data []byte) []settingsRegistration {
	var doc struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
				Timeout *float64 `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []settingsRegistration
	for event, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if shortTimeout(h.Timeout) {
					continue
				}
				m, ok, err := MemberOf(Registration{Command: h.Command, Args: h.Args})
				if !ok || err != nil {
					continue
				}
				name := m + " on " + event
				if g.Matcher != "" {
					name += " (" + g.Matcher + ")"
				}
				out = append(out, settingsRegistration{
					Key:  strings.Join(append([]string{event, g.Matcher, h.Command}, h.Args...), "\x00"),
					Name: name,
					Live: len(h.Args) >= 2 && h.Args[0] == "-c" && h.Args[1] == Stub && h.Command == baseName(h.Command) && interpreters[h.Command],
				})
			}
		}
	}
	return out
}

// settingsMembers answers each registration of a gates member a settings
// text holds, by its key, named "<member> on <event> (<matcher>)".
func settingsMembers(data []byte) map[string]string {
	out := map[string]string{}
	for _, r := range settingsRegistrations(data) {
		out[r.Key] = r.Name
	}
	return out
}

// settingsWriters are the programs whose operands a command removes,
// moves or writes; the value says which operands: "all" of them, the
// "last", or "inplace" (all, when an operand is an -i option).
var settingsWriters = map[string]string{
	"rm": "all", "mv": "all", "tee": "all", "truncate": "all", "ln": "last",
	"cp": "last", "install": "last", "sed": "inplace", "perl": "inplace",
	"dd": "of",
}

// settingsWriteCheck stops a Bash command that writes, moves or removes a
// harness settings file (a redirection to it, or rm, mv, cp, ln, tee,
// truncate, install, sed -i, perl -i or dd of= naming it; cp, mv, ln and
// install into a directory by -t or a last operand that is one): the file
// tools' edits of it are judged by git-dir-guard B, a shell's cannot be.
// A relative path is read against the call's directory and against each
// directory a cd or pushd of the command moves to.
func settingsWriteCheck(c *Call, command string) int {
	if !strings.Contains(command, "settings") {
		return Allow
	}
	toks, err := shlex.Lex(command)
	if err != nil {
		return Allow
	}
	var named []string
	for p := range writtenPaths(toks) {
		named = append(named, p)
	}
	dirs := []string{c.Payload.Cwd}
	shlex.Walk(toks, func(list []shlex.Token, _ *shlex.Sub) {
		for _, pl := range shlex.Split(list) {
			for _, cm := range pl.Commands {
				var ws []string
				for _, t := range cm.Words() {
					if t.Kind != shlex.Word {
						continue
					}
					if len(ws) == 0 && strings.Contains(t.Value, "=") && !strings.HasPrefix(t.Value, "=") {
						continue // an assignment before the program
					}
					ws = append(ws, t.Value)
				}
				if len(ws) < 2 {
					continue
				}
				prog := filepath.Base(ws[0])
				if (prog == "cd" || prog == "pushd") && !strings.HasPrefix(ws[1], "-") {
					// assertion U: a path after a cd is read from there too.
					to := ws[1]
					if rest, ok := strings.CutPrefix(to, "~/"); ok {
						if home, err := os.UserHomeDir(); err == nil {
							to = filepath.Join(home, rest)
						}
					}
					if last := dirs[len(dirs)-1]; last != "" {
						dirs = append(dirs, walk.AbsAgainst(last, to))
					}
					continue
				}
				how := settingsWriters[prog]
				var ops []string
				inplace := false
				into := "" // the directory of -t / --target-directory
				for k := 1; k < len(ws); k++ {
					w := ws[k]
					if prog == "dd" {
						if of, ok := strings.CutPrefix(w, "of="); ok {
							named = append(named, of)
						}
						continue
					}
					if how == "last" || prog == "mv" {
						if w == "-t" || w == "--target-directory" {
							if k+1 < len(ws) {
								into = ws[k+1]
								k++
							}
							continue
						}
						if d, ok := strings.CutPrefix(w, "--target-directory="); ok {
							into = d
							continue
						}
						if d, ok := strings.CutPrefix(w, "-t"); ok && d != "" && !strings.HasPrefix(w, "--") {
							into = d
							continue
						}
					}
					if strings.HasPrefix(w, "-") {
						inplace = inplace || strings.HasPrefix(w, "-i") || w == "--in-place" || strings.HasPrefix(w, "--in-place=")
						continue
					}
					ops = append(ops, w)
				}
				switch {
				case into != "":
					// assertion U: into a directory, each operand lands
					// under its own name.
					for _, o := range ops {
						named = append(named, path.Join(into, path.Base(o)))
					}
				case how == "all" || how == "inplace" && inplace:
					named = append(named, ops...)
				case how == "last" && len(ops) > 0:
					named = append(named, ops[len(ops)-1])
				}
				if (how == "last" || prog == "mv") && into == "" && len(ops) > 1 {
					// A last operand that may be a directory takes each
					// other operand under its own name.
					for _, o := range ops[:len(ops)-1] {
						named = append(named, path.Join(ops[len(ops)-1], path.Base(o)))
					}
				}
			}
		}
	})
	home, _ := os.UserHomeDir()
	for _, p := range named {
		if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
			p = filepath.Join(home, rest)
		}
		for _, dir := range dirs {
			at := p
			if dir != "" {
				at = walk.AbsAgainst(dir, p)
			}
			canon := filepath.Clean(filepath.FromSlash(at))
			if c.Repo != nil {
				canon = c.Repo.Canonical(canon)
			}
			if !harnessSettings(canon) {
				continue
			}
			// assertion U: a shell does not rewrite the harness's settings.
			fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: this command was not run: it would write, move or remove %s, the harness settings that register the gates' hooks, where no hook can check that they stay.\n", at)
			fmt.Fprintln(c.Stderr, "Change the settings with the Edit tool (it checks that every gates registration stays), or leave the change to the operator.")
			return Block
		}
	}
	return Allow
}
