package gates

// check-commit-subject: the subject line of the prospective commit message
// parses as <type>(<scope>)?!?: <summary>, <type> drawn from the shared
// GATE_SDK_COMMIT_TYPES roster, or is one of the subjects git itself
// writes (Merge , Revert , Reapply , fixup!, squash!, amend!, and git
// subtree's own subjects). Tier commit-msg.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
)

// subjectCarveOuts are the subject leads git generates; each passes as is.
// The autosquash leads carry their blank: git's rebase reads "fixup! ",
// "squash! " and "amend! " (git commit --fixup=amend:<commit>), so
// "fixup!feat: x" is no autosquash form. git 2.43 and later word the
// revert of a revert "Reapply \"<subject>\"".
var subjectCarveOuts = [...]string{"Merge ", "Revert ", "Reapply ", "fixup! ", "squash! ", "amend! "}

func checkCommitSubject(c *gate.Context) int {
	// assertion A: a run with no message file (the whole-tree battery) is a
	// clean skip; the message exists only inside a commit.
	if len(c.Args) == 0 {
		return c.NewReport(nil).Nothing("no message file given: nothing to check outside a commit")
	}
	if len(c.Args) > 1 {
		return c.Refuse("usage: check-commit-subject <message-file>")
	}
	msgFile := c.Args[0]
	// assertion C: the subject is the first line of the message git will
	// record (cleaned as commit.cleanup says): "feat:   " is recorded as
	// "feat:", a CRLF line loses its carriage return, a leading comment or
	// blank line is not the subject.
	lines, err := recordedMessage(c, msgFile)
	if err != nil {
		return c.RefuseErr(err)
	}

	types, err := c.Knobs.Words("GATE_SDK_COMMIT_TYPES")
	if err != nil {
		return c.RefuseErr(err)
	}
	if len(types) == 0 {
		return c.Refuse("GATE_SDK_COMMIT_TYPES resolves empty: no commit type is admitted, so no subject can be judged")
	}
	for _, t := range types {
		if strings.ContainsAny(t, "()!:") {
			return c.Refuse("GATE_SDK_COMMIT_TYPES member %q carries one of ( ) ! : and cannot lead a subject", t)
		}
	}

	subject, subjectLine := "", 1
	if len(lines) > 0 {
		subject, subjectLine = strings.TrimSuffix(lines[0].Text, "\r"), lines[0].N
	}
	r := c.NewReport(map[string]string{
		"subject": fmt.Sprintf("write the subject as <type>(<scope>)?!?: <summary> with <type> one of: %s; <scope> is [a-z0-9./-]+. %s",
			strings.Join(types, " "), reissueRemedy(c, msgFile)),
	})
	// assertion B: the subject parses against the roster, or is a carve-out.
	if !subjectParses(subject, types) {
		r.Add(gate.Finding{
			Class: "subject", Path: messagePath(c, msgFile), Line: subjectLine,
			Msg: fmt.Sprintf("subject %q does not parse as <type>(<scope>)?!?: <summary>", subject),
		})
	}
	return r.Done(fmt.Sprintf("subject parses; %d commit types admitted", len(types)))
}

// subjectParses reports whether subject is a carve-out or reads as
// <type>(<scope>)?!?: <summary> with <type> in types, <scope> a non-empty
// [a-z0-9./-] run and <summary> at least one character.
func subjectParses(subject string, types []string) bool {
	for _, lead := range subjectCarveOuts {
		if strings.HasPrefix(subject, lead) {
			return true
		}
	}
	if subtreeSubject(subject) {
		return true
	}
	t, ok := SubjectType(subject)
	return ok && isRosterType(t, types)
}

// SubjectType splits a subject shaped <type>(<scope>)?!?: <summary> at
// its lead: t is what comes before the first ( ! or :, and ok says the
// rest is an optional (<scope>) with <scope> a non-empty [a-z0-9./-] run,
// an optional !, then ": " and at least one character of summary. What t
// itself may be (the roster, a word shape) is the caller's to judge; t is
// "" when the subject opens on ( ! or :.
func SubjectType(subject string) (t string, ok bool) {
	end := strings.IndexAny(subject, "(!:")
	if end < 0 {
		return "", false
	}
	rest := subject[end:]
	if strings.HasPrefix(rest, "(") {
		close := strings.IndexByte(rest, ')')
		if close < 0 || !isScope(rest[1:close]) {
			return "", false
		}
		rest = rest[close+1:]
	}
	rest = strings.TrimPrefix(rest, "!")
	if !strings.HasPrefix(rest, ": ") || len(rest) == len(": ") {
		return "", false
	}
	return subject[:end], true
}

// subtreeSubject reports one of the subjects git subtree writes for the
// commits it makes itself (the squash of a library's history, the add of
// its whole history, a split rejoined), which no option rewords:
// "Squashed '<dir>/' content from commit <id>", "Squashed '<dir>/'
// changes from <id>..<id>", "Add '<dir>/' from commit '<id>'" and
// "Split '<dir>/' into commit '<id>'". Only these exact shapes pass.
func subtreeSubject(s string) bool {
	// dirThen cuts "'<dir>/' " off s, answering what follows.
	dirThen := func(s string) (string, bool) {
		rest, ok := strings.CutPrefix(s, "'")
		if !ok {
			return "", false
		}
		dir, after, ok := strings.Cut(rest, "/' ")
		if !ok || dir == "" || strings.Contains(dir, "'") {
			return "", false
		}
		return after, true
	}
	quoted := func(s string) bool {
		id, ok := strings.CutPrefix(s, "'")
		id, ok2 := strings.CutSuffix(id, "'")
		return ok && ok2 && isHexID(id)
	}
	if rest, ok := strings.CutPrefix(s, "Squashed "); ok {
		if after, ok := dirThen(rest); ok {
			if id, ok := strings.CutPrefix(after, "content from commit "); ok {
				return isHexID(id)
			}
			if r, ok := strings.CutPrefix(after, "changes from "); ok {
				a, b, ok := strings.Cut(r, "..")
				return ok && isHexID(a) && isHexID(b)
			}
		}
		return false
	}
	if rest, ok := strings.CutPrefix(s, "Add "); ok {
		after, ok := dirThen(rest)
		id, ok2 := strings.CutPrefix(after, "from commit ")
		return ok && ok2 && quoted(id)
	}
	if rest, ok := strings.CutPrefix(s, "Split "); ok {
		after, ok := dirThen(rest)
		id, ok2 := strings.CutPrefix(after, "into commit ")
		return ok && ok2 && quoted(id)
	}
	return false
}

// isHexID reports an abbreviated or full object id: 4 to 64 lower-case
// hex digits.
func isHexID(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

func isRosterType(t string, types []string) bool {
	for _, want := range types {
		if t == want {
			return true
		}
	}
	return false
}

// isScope reports whether s is a non-empty run of [a-z0-9./-].
func isScope(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !('a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '.' || b == '/' || b == '-') {
			return false
		}
	}
	return true
}

func firstLine(data []byte) []byte {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i]
	}
	return data
}
