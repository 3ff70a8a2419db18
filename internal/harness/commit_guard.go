package harness

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// bashInput is the part of the Bash tool's input the member reads.
type bashInput struct {
	Command *string `json:"command"`
}

// commitGuard is PreToolUse on Bash: a command that would bypass the git
// hooks is blocked, and a `git commit -m` whose message the commit-msg
// gates refuse is blocked with their findings, before it runs.
func commitGuard(c *Call) (code int) {
	if c.Payload == nil {
		return c.Decline(c.PayloadErr.Error())
	}
	if c.Payload.ToolName != "" && c.Payload.ToolName != "Bash" {
		return Allow
	}
	var in bashInput
	if !c.Payload.Input(&in) || in.Command == nil {
		return c.Decline("the payload's tool_input holds no command string")
	}
	hooks, advise := hooksCheck(c, *in.Command)
	if hooks != Allow {
		return hooks
	}
	if advise != "" {
		// The notice goes out only when the rest of the rule says nothing:
		// one envelope per answer.
		out := c.Stdout
		var said bytes.Buffer
		c.Stdout = &said
		defer func() {
			c.Stdout = out
			if said.Len() == 0 && code == Allow {
				fmt.Fprintln(out, Advise(PreToolUse, advise))
				markAdvised(c)
			}
			out.Write(said.Bytes())
		}()
	}
	v, err := InspectAt(*in.Command, func(dir string) bool { return elsewhere(c, dir) })
	if err != nil {
		// assertion A: a command the lexer cannot read is allowed, and said so.
		return c.Decline(fmt.Sprintf("cannot read the command (%v)", err))
	}
	if len(v.Bypass) > 0 {
		// assertion B: a bypass of the hooks is blocked, whatever else runs.
		fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: this command would bypass the repository's git hooks: %s.\n", strings.Join(v.Bypass, "; "))
		fmt.Fprintln(c.Stderr, "The hooks run this repository's gates; run the command without the bypass and fix what they report.")
		return Block
	}
	if v.Commits {
		if bg, ok := c.Repo.(BaselineGrowth); ok {
			added, err := bg.BaselineAdded()
			if err != nil {
				return c.Decline(err.Error())
			}
			if len(added) > 0 {
				// assertion G: a commit that would grow the baseline is
				// blocked as a bypass is: it turns the gates off for what
				// it accepts.
				fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: this command was not run: the baseline the commit would record accepts new findings, which turns their gates off as --no-verify would:\n  %s\n", strings.Join(added, "\n  "))
				fmt.Fprintln(c.Stderr, "Fix the findings instead and restore the baseline (git restore --staged --worktree on it); only the user may accept findings, by committing the baseline themselves.")
				return Block
			}
		}
	}
	msgs := append([]string(nil), v.Messages...)
	msgs = append(msgs, readMessageFiles(v.Files, c.Payload.Cwd)...)
	for _, msg := range msgs {
		res, err := c.Gates.CommitMsg(msg)
		if err != nil {
			return c.Decline(err.Error())
		}
		if len(res.Red) > 0 {
			// assertion C: the commit-msg gates judge the message first,
			// and the refusal speaks of the command, which has not run.
			fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: this command was not run: the commit-msg gates (%s) refuse its commit message:\n%s\n", redNames(res), res.Text())
			fmt.Fprintln(c.Stderr, "Rewrite the message in the command so these gates pass, then run it again; never bypass them with --no-verify.")
			return Block
		}
	}
	if len(v.Unread) > 0 {
		// assertion E: a program named by an expansion is not judged, and
		// the model is told so rather than left to think it was.
		return c.Decline(fmt.Sprintf("the command runs a program named by an expansion (%s), which cannot be known before it runs; run git by its name so its commit can be checked", strings.Join(v.Unread, ", ")))
	}
	return Allow
}

// BaselineGrowth is a Repo that can say what a commit made now would add
// to the baseline of accepted findings.
type BaselineGrowth interface {
	// BaselineAdded answers one line per entry the staged or the work
	// tree's baseline adds over HEAD's.
	BaselineAdded() ([]string, error)
}

// maxMessageFile bounds a `git commit -F` file the guard reads; a larger
// one is left to the commit-msg hook.
const maxMessageFile = 1 << 20

// readMessageFiles reads each `-F` file the command names, against the
// session's directory cwd. A file that is absent, unreadable or too large
// is skipped: the commit-msg hook still judges it when git reads it.
func readMessageFiles(files []MessageFile, cwd string) []string {
	var out []string
	for _, f := range files {
		p := f.Path
		if !walk.PathRoot(p) {
			if cwd == "" {
				continue
			}
			p = walk.AbsAgainst(walk.AbsAgainst(cwd, f.Dir), p)
		}
		// Only a regular file is opened: a FIFO named as the message would
		// block the guard (issue 42, item 8).
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		fh, err := os.Open(p)
		if err != nil {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(fh, maxMessageFile+1))
		fh.Close()
		if err != nil || len(data) > maxMessageFile {
			continue
		}
		out = append(out, string(data))
	}
	return out
}

// elsewhere reports that dir (as the command wrote it, against the
// payload's cwd) lies in another repository than this one, or in none.
func elsewhere(c *Call, dir string) bool {
	if c.Repo == nil {
		return false
	}
	if !walk.PathRoot(dir) {
		if c.Payload.Cwd == "" {
			return false
		}
		dir = walk.AbsAgainst(c.Payload.Cwd, dir)
	}
	return c.Repo.Elsewhere(dir)
}
