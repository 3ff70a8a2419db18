package gates

// check-commit-msg: the prospective commit message (the commit-msg hook's
// message file) matches no banned pattern. It is the message half of the
// leak ban; check-tree-terms is the tree half and reads the same resolved
// pattern set through msgPatterns below. Tier commit-msg.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/patterns"
)

// The two knobs naming the shared banned-pattern set.
const (
	msgPatternKnob      = "GATE_SDK_MSG_PATTERN_FILES"
	msgPatternLocalKnob = "GATE_SDK_MSG_PATTERN_FILES_LOCAL"
)

func checkCommitMsg(c *gate.Context) int {
	// assertion A: with no message file (the whole-tree battery) the gate
	// skips cleanly; the message is not a tracked surface.
	if len(c.Args) == 0 {
		return c.NewReport(nil).Nothing("no message file given: nothing to check outside a commit")
	}
	msgFile := c.Args[0]
	// assertion D: the message judged is the one git will record, cleaned
	// as commit.cleanup says, not the raw file the hook is handed.
	lines, err := recordedMessage(c, msgFile)
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion B: the pattern set resolves (operands, else the required
	// tracked list plus the optional local one) and compiles, or the gate
	// refuses.
	set, err := msgPatterns(c, c.Args[1:])
	if err != nil {
		return c.RefuseErr(err)
	}
	if set.Empty() {
		return c.NewReport(nil).Nothing("no banned pattern configured: message unchecked")
	}
	r := c.NewReport(map[string]string{
		"banned": fmt.Sprintf("reword the message so no line matches a banned pattern from %s. %s",
			sourceList(set.Read), reissueRemedy(c, msgFile)),
	})
	// assertion C: no line of the message matches a banned pattern; one
	// finding per matching line.
	for _, line := range lines {
		if i := set.First(line.Text); i >= 0 {
			p := set.Patterns[i]
			r.Add(gate.Finding{
				Class: "banned", Path: messagePath(c, msgFile), Line: line.N,
				Msg: fmt.Sprintf("matches banned pattern %s (%s:%d): %s", p.Text, p.File, p.Line, strings.TrimSuffix(line.Text, "\r")),
			})
		}
	}
	return r.Done(fmt.Sprintf("message matches none of %d banned patterns", len(set.Patterns)))
}

// msgPatterns resolves and compiles the banned-pattern set check-commit-msg
// and check-tree-terms share: explicit operands win; otherwise the required
// GATE_SDK_MSG_PATTERN_FILES followed by the optional
// GATE_SDK_MSG_PATTERN_FILES_LOCAL.
func msgPatterns(c *gate.Context, operands []string) (*patterns.Set, error) {
	return msgPatternsSeen(c, operands, nil)
}

// msgPatternsSeen is msgPatterns calling seen with each pattern file's
// path and bytes as they are read (nil: no call).
func msgPatternsSeen(c *gate.Context, operands []string, seen func(path string, data []byte)) (*patterns.Set, error) {
	srcs := patterns.Named(operands)
	if len(operands) == 0 {
		var err error
		srcs, err = patterns.FromKnobs(c.Knobs, msgPatternKnob, msgPatternLocalKnob)
		if err != nil {
			return nil, err
		}
	}
	return patterns.Load(func(p string) ([]byte, error) {
		data, err := readFile(c, p)
		if err == nil && seen != nil {
			seen(p, data)
		}
		return data, err
	}, srcs)
}

// reissueRemedy is the one recovery both commit-msg-tier gates print: the
// commit does not exist yet, so the safe repair is to run git commit again
// (the message survives in the file git named), never --amend, which would
// rewrite whatever commit is already at HEAD.
func reissueRemedy(c *gate.Context, msgFile string) string {
	if c.ProposedMessage {
		// assertion E: before the command runs there is no message file to
		// reopen and no commit to re-issue: the remedy is the command's.
		return "The command was not run, so no commit was made: rewrite the message in the command (its -m text, here-document or -F file) and run the command again. Add `--amend` only if your command had it: otherwise it rewrites the commit already at HEAD."
	}
	return fmt.Sprintf("No commit was made: fix the message and re-issue `git commit` as you ran it (your text is kept in %s; `git commit -e -F %s` reopens it). Add `--amend` only if your command had it: otherwise it rewrites the commit already at HEAD.", msgFile, msgFile)
}

// ProposedMessageName is how a finding names the message of a command that
// has not run yet, in place of the scratch file it was judged from.
const ProposedMessageName = "<proposed commit message>"

// messagePath is a finding's path for the message file.
func messagePath(c *gate.Context, msgFile string) string {
	if c.ProposedMessage {
		return ProposedMessageName
	}
	return msgFile
}

// readMessage reads the commit message file; a named file that is missing
// or unreadable is a refusal.
func readMessage(c *gate.Context, msgFile string) ([]byte, error) {
	return readOperand(c, msgFile, "message file")
}

// sourceList renders the pattern files read, for a help line.
func sourceList(srcs []patterns.Source) string {
	if len(srcs) == 0 {
		return "no file"
	}
	s := ""
	for i, src := range srcs {
		if i > 0 {
			s += ", "
		}
		s += src.Path
	}
	return s
}
