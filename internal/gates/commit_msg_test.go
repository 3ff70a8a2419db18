package gates

import (
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

func msgRun(t *testing.T, disk map[string]string, knobs gatetest.Knobs, args ...string) gatetest.Run {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, disk)
	return run{rule: checkCommitMsg, name: "check-commit-msg", dir: dir, tree: memTree(nil), knobs: knobs, args: args}.exec()
}

func TestCommitMsg(t *testing.T) {
	pats := "# banned\n/home/[a-z]+/\nsecret-project\n"
	knobs := gatetest.Knobs{"GATE_SDK_MSG_PATTERN_FILES": "scripts/msg-patterns.list", "GATE_SDK_MSG_PATTERN_FILES_LOCAL": "scripts/msg-patterns.local.list"}

	// No argument: the battery's clean skip.
	got := msgRun(t, nil, knobs)
	wantCode(t, got, 0)
	wantOut(t, got, "COMMIT-MSG: clean (no message file given")

	// A clean message.
	got = msgRun(t, map[string]string{"scripts/msg-patterns.list": pats, "M": "fix: handle empty input\n\nbody\n"}, knobs, "M")
	wantCode(t, got, 0)
	wantOut(t, got, "COMMIT-MSG: clean (message matches none of 2 banned patterns)")

	// One finding per matching line, from the tracked and the local list.
	msg := "fix: x\n\nsee " + homeA + "y and secret-project\nok\nthe secret-project again\nprivate-term\n"
	got = msgRun(t, map[string]string{"scripts/msg-patterns.list": pats, "scripts/msg-patterns.local.list": "private-term\n", "M": msg}, knobs, "M")
	wantCode(t, got, 1)
	wantOut(t, got, "M:3: matches banned pattern /home/[a-z]+/ (scripts/msg-patterns.list:2)", "M:5: matches banned pattern secret-project", "M:6: matches banned pattern private-term (scripts/msg-patterns.local.list:1)", "re-issue `git commit`")
	if n := strings.Count(got.Stdout, "M:3:"); n != 1 {
		t.Errorf("a line hit by two patterns gave %d findings", n)
	}

	// Operands win over the knobs.
	got = msgRun(t, map[string]string{"scripts/msg-patterns.list": pats, "mine.list": "ok\n", "M": "ok\n"}, knobs, "M", "mine.list")
	wantCode(t, got, 1)
	wantOut(t, got, "M:1: matches banned pattern ok (mine.list:1)")

	// Refusals: missing message, missing required list, GNU extension,
	// unreadable local list.
	wantCode(t, msgRun(t, map[string]string{"scripts/msg-patterns.list": pats}, knobs, "/nonexistent"), 2)
	got = msgRun(t, map[string]string{"M": "x\n"}, knobs, "M")
	wantCode(t, got, 2)
	if !strings.Contains(got.Stderr, "scripts/msg-patterns.list") {
		t.Errorf("missing required list not named: %q", got.Stderr)
	}
	got = msgRun(t, map[string]string{"scripts/msg-patterns.list": "foo\\bbar\n", "M": "x\n"}, knobs, "M")
	wantCode(t, got, 2)
	if !strings.Contains(got.Stderr, `foo\bbar`) || !strings.Contains(got.Stderr, "scripts/msg-patterns.list:1") {
		t.Errorf("GNU refusal does not name pattern and file: %q", got.Stderr)
	}
	wantCode(t, msgRun(t, map[string]string{"scripts/msg-patterns.list": pats, "scripts/msg-patterns.local.list/x": "", "M": "x\n"}, knobs, "M"), 2)

	// An empty set is clean and says so.
	got = msgRun(t, map[string]string{"scripts/msg-patterns.list": "# nothing yet\n", "M": "x\n"}, knobs, "M")
	wantCode(t, got, 0)
	wantOut(t, got, "no banned pattern configured")
}

// TestCommitMsgAsGitRecordsIt pins that the message judged is the one git
// records: a CRLF line meets a $-anchored pattern once git has dropped its
// carriage return, and a comment line git strips is not recorded.
func TestCommitMsgAsGitRecordsIt(t *testing.T) {
	pats := "^WIP$\n/home/[a-z]+/\n"
	knobs := gatetest.Knobs{"GATE_SDK_MSG_PATTERN_FILES": "p.list"}
	for _, tc := range []struct {
		name, msg, editor, cleanup string
		code                       int
		out                        string
	}{
		{"CRLF meets an anchored pattern", "fix: x\r\n\r\nWIP\r\n", ":", "", 1, "M:3: matches banned pattern ^WIP$"},
		{"trailing blanks meet an anchored pattern", "fix: x\n\nWIP  \t\n", ":", "", 1, "M:3: matches banned pattern ^WIP$"},
		// verbatim records the CR, but a line is matched without it (the
		// tree scan's rule too: issue 42, item 11).
		{"verbatim keeps the CR, the match drops it", "fix: x\r\n\r\nWIP\r\n", ":", "verbatim", 1, "M:3: matches banned pattern ^WIP$"},
		{"a stripped comment is not recorded", "fix: x\n# see " + homeA + "notes\n", "", "", 0, ""},
		{"a comment is recorded without an editor", "fix: x\n# see " + homeA + "notes\n", ":", "", 1, "M:2: matches banned pattern /home/[a-z]+/"},
		{"a custom comment char", "fix: x\n; see " + homeA + "notes\n# kept " + homeA + "\n", "", "", 1, "M:3:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := scratchRepo(t, nil, map[string]string{"p.list": pats, "M": tc.msg})
			if tc.cleanup != "" {
				git(t, dir, "config", "commit.cleanup", tc.cleanup)
			}
			if strings.Contains(tc.name, "custom comment") {
				git(t, dir, "config", "core.commentChar", ";")
			}
			env := map[string]string{}
			if tc.editor != "" {
				env["GIT_EDITOR"] = tc.editor
			}
			got := run{rule: checkCommitMsg, name: "check-commit-msg", dir: dir, tree: memTree(nil), env: env, knobs: knobs, args: []string{"M"}}.exec()
			wantCode(t, got, tc.code)
			if tc.out != "" {
				wantOut(t, got, tc.out)
			}
			if strings.Contains(tc.name, "custom comment") {
				wantNotOut(t, got, "M:2:")
			}
		})
	}
}
