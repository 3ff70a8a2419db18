package gates

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

const defaultTypes = "feat fix refactor perf docs test build ci chore style"

func subjectRun(t *testing.T, msg string, types string, args ...string) gatetest.Run {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"COMMIT_EDITMSG": msg})
	if args == nil {
		args = []string{"COMMIT_EDITMSG"}
	}
	return run{rule: checkCommitSubject, name: "check-commit-subject", dir: dir, tree: memTree(nil),
		knobs: gatetest.Knobs{"GATE_SDK_COMMIT_TYPES": types}, args: args}.exec()
}

func TestCommitSubjectAcceptance(t *testing.T) {
	pass := []string{"feat: x", "fix(internal/ere): y", "refactor!: z", "feat(cli)!: z", "Merge branch 'main'",
		`Revert "feat: x"`, `Reapply "feat: x"`, "Squashed 'vendor/lib/' content from commit 55c5935",
		"Squashed 'vendor/lib/' changes from 55c5935..e868363", "Add 'vendor/lib/' from commit '55c593568a4a40b02e2ab5c655d731d0e9fcd428'",
		"Split 'lib/' into commit '55c593568a4a40b02e2ab5c655d731d0e9fcd428'", "fixup! feat: x", "squash! fix: y", "amend! feat: x", "docs(a.b/c-d): e", "feat: x\r"}
	for _, s := range pass {
		got := subjectRun(t, s+"\n\nbody line\n", defaultTypes)
		wantCode(t, got, 0)
		wantOut(t, got, "COMMIT-SUBJECT: clean (")
	}
	fail := []string{"Feat: x", "feature: x", "wip", "feat:x", "feat (cli): x", "feat(CLI): x", "feat(): x",
		"amend!feat: x", "feat: ", "feat(cli: x", "feat!!: x", "", "merge branch 'main'", "feat(cli)x: y", `reapply "feat: x"`, `Reapply"feat: x"`,
		"Squashed 'vendor/lib/' content from the old tree", "Squashed 'vendor/lib' content from commit 55c5935",
		"Add 'vendor/lib/' from commit 55c5935", "Add 'vendor/lib/' from commit 'HEAD'", "Add a page", "Split the guide",
		"Squashed '/' changes from 55c5935..", "Squashed the history"}
	for _, s := range fail {
		got := subjectRun(t, s+"\nbody\n", defaultTypes)
		if got.Code != 1 {
			t.Errorf("subject %q: exit %d, want 1\n%s%s", s, got.Code, got.Stdout, got.Stderr)
			continue
		}
		want := "COMMIT_EDITMSG:1: subject "
		if s == "" {
			// git drops the leading blank line, so the body line is the
			// subject it records.
			want = `COMMIT_EDITMSG:2: subject "body"`
		}
		wantOut(t, got, want, "help: ", "re-issue `git commit`")
	}
}

// TestCommitSubjectAsGitRecordsIt pins that the subject judged is the one
// git records after its cleanup, not the raw line the hook is handed.
func TestCommitSubjectAsGitRecordsIt(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		editor    string // GIT_EDITOR as git exports it to the hook
		cleanup   string // commit.cleanup; "" unset
		code      int
		out       string
	}{
		{"trailing blanks are stripped", "feat:   \n", ":", "", 1, `subject "feat:"`},
		{"trailing blanks under strip", "feat:   \n", "", "", 1, `subject "feat:"`},
		{"verbatim keeps them", "feat:   \n", ":", "verbatim", 0, ""},
		{"CRLF subject", "feat: x\r\n\r\nbody\r\n", ":", "", 0, ""},
		{"fixup without blank", "fixup!feat: x\n", ":", "", 1, `subject "fixup!feat: x"`},
		{"squash without blank", "squash!feat: x\n", ":", "", 1, `subject "squash!feat: x"`},
		{"comment above the subject, editor used", "# Please enter\nfeat: x\n", "", "", 0, ""},
		{"comment kept without an editor", "# Please enter\nfeat: x\n", ":", "", 1, `COMMIT_EDITMSG:1: subject "# Please enter"`},
		{"strip configured", "# note\nfeat: x\n", ":", "strip", 0, ""},
		{"whitespace configured keeps comments", "# note\nfeat: x\n", "", "whitespace", 1, `subject "# note"`},
		{"leading blank lines", "\n\n  \nfix: y\n", ":", "", 0, ""},
		{"scissors cuts", "# ------------------------ >8 ------------------------\nfeat: x\n", "", "scissors", 1, `subject ""`},
		{"unknown cleanup mode", "feat: x\n", ":", "tidy", 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := scratchRepo(t, nil, map[string]string{"COMMIT_EDITMSG": tc.msg})
			if tc.cleanup != "" {
				git(t, dir, "config", "commit.cleanup", tc.cleanup)
			}
			env := map[string]string{}
			if tc.editor != "" {
				env["GIT_EDITOR"] = tc.editor
			}
			got := run{rule: checkCommitSubject, name: "check-commit-subject", dir: dir, tree: memTree(nil), env: env,
				knobs: gatetest.Knobs{"GATE_SDK_COMMIT_TYPES": defaultTypes}, args: []string{"COMMIT_EDITMSG"}}.exec()
			wantCode(t, got, tc.code)
			if tc.out != "" {
				wantOut(t, got, tc.out)
			}
		})
	}
}

func TestCommitSubjectRoster(t *testing.T) {
	got := subjectRun(t, "docs: x\n", "feat fix")
	wantCode(t, got, 1)
	wantOut(t, got, "one of: feat fix")
	wantCode(t, subjectRun(t, "fix: x\n", "feat fix"), 0)
	// A roster nothing can lead with cannot judge a subject.
	wantCode(t, subjectRun(t, "feat: x\n", ""), 2)
	wantCode(t, subjectRun(t, "feat: x\n", "feat bad:type"), 2)
}

func TestCommitSubjectEdges(t *testing.T) {
	got := subjectRun(t, "", defaultTypes, []string{}...)
	wantCode(t, got, 0)
	wantOut(t, got, "COMMIT-SUBJECT: clean (no message file given")

	got = subjectRun(t, "", defaultTypes, "missing-file")
	wantCode(t, got, 2)
	if !strings.Contains(got.Stderr, "missing-file does not exist") {
		t.Errorf("stderr %q does not name the missing file", got.Stderr)
	}
	wantCode(t, subjectRun(t, "", defaultTypes, "a", "b"), 2)

	// An absolute message path (a linked worktree's hook) is read as is.
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"m": "feat: x\n"})
	wantCode(t, subjectRun(t, "", defaultTypes, filepath.Join(dir, "m")), 0)
}

func TestReissueRemedyNeverAmends(t *testing.T) {
	got := subjectRun(t, "wip\n", defaultTypes)
	wantCode(t, got, 1)
	help := got.Stdout[strings.Index(got.Stdout, "help:"):]
	if !strings.Contains(help, "re-issue `git commit`") || !strings.Contains(help, "COMMIT_EDITMSG") {
		t.Errorf("help does not name the re-issue remedy and the kept file: %q", help)
	}
	if strings.Contains(strings.ReplaceAll(help, "Add `--amend` only if your command had it", ""), "--amend") {
		t.Errorf("help recommends --amend: %q", help)
	}
}
