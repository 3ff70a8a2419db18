package harness

import (
	"bytes"
	"fmt"
	"strings"
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
	v, err := Inspect(*in.Command)
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
	if len(v.Messages) == 0 {
		return Allow
	}
	for _, msg := range v.Messages {
		res, err := c.Gates.CommitMsg(msg)
		if err != nil {
			return c.Decline(err.Error())
		}
		if len(res.Red) > 0 {
			// assertion C: the commit-msg gates judge the message first.
			fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: the commit message would be refused by %s:\n%s\n", redNames(res), res.Text())
			fmt.Fprintln(c.Stderr, "Rewrite the message so these gates pass, then commit again.")
			return Block
		}
	}
	return Allow
}
