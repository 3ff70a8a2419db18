package gates

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/repo"
)

// recorded joins cleaned lines as git stores them: each line ends in \n.
func recorded(lines []msgLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestCleanMessageEqualsGit is the differential proof: for each mode, the
// cleaned lines are byte for byte the message git stores in the commit
// (committed with -F, so not edited). The edited arm (the scissors cut) is
// held by TestCleanMessageEditedScissors.
func TestCleanMessageEqualsGit(t *testing.T) {
	dir := scratchRepo(t, nil, nil)
	msgs := []string{
		"feat:   \n",
		"feat: x\r\n\r\nbody\r\n",
		"\n\n  \nfix: y\n\n\n\nbody  \n\n\n",
		"# comment\nfeat: x\n#another\n  # indented is kept\n",
		"feat: x\n\n# ------------------------ >8 ------------------------\ndiff here\n",
		"feat: x\tlast\t\n\v\f\nmore",
		"no newline at end",
		"fixup!feat: x\n",
		"a\n\n\n# c\n\nb\n",
	}
	for _, mode := range []string{cleanupStrip, cleanupWhitespace, cleanupVerbatim, cleanupScissors} {
		for i, msg := range msgs {
			file := filepath.Join(dir, "MSG")
			if err := os.WriteFile(file, []byte(msg), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, dir, "-c", "user.name=T", "-c", "user.email=t@example.invalid", "-c", "core.commentChar=#",
				"commit", "-q", "--allow-empty", "--allow-empty-message", "--no-verify", "--cleanup="+mode, "-F", file)
			raw := git(t, dir, "cat-file", "commit", "HEAD")
			_, body, _ := strings.Cut(raw, "\n\n")
			if mode == cleanupVerbatim && !strings.HasSuffix(body, "\n") {
				body += "\n" // the lines do not say whether the last one ended
			}
			if got := recorded(cleanMessage(msg, mode, "#", false)); got != body {
				t.Errorf("mode %s, message %d %q: cleaned %q, git recorded %q", mode, i, msg, got, body)
			}
		}
	}
}

// FuzzCleanMessage holds the cleanup's own invariants: no recorded line
// carries trailing whitespace or (under strip) the comment lead, no two
// blank lines run together, none leads or ends the message, and line
// numbers rise.
func FuzzCleanMessage(f *testing.F) {
	f.Add("feat:   \n\n\n# c\r\nbody\r\n")
	f.Add("\n\n")
	f.Fuzz(func(t *testing.T, msg string) {
		for _, mode := range []string{cleanupStrip, cleanupWhitespace, cleanupScissors} {
			lines := cleanMessage(msg, mode, "#", true)
			last := 0
			for i, l := range lines {
				if l.N < last {
					t.Fatalf("%s: line numbers fall: %+v", mode, lines)
				}
				last = l.N
				if strings.TrimRight(l.Text, gitSpace) != l.Text {
					t.Fatalf("%s: trailing whitespace kept: %q", mode, l.Text)
				}
				if mode == cleanupStrip && strings.HasPrefix(l.Text, "#") {
					t.Fatalf("strip kept a comment: %q", l.Text)
				}
				if l.Text == "" && (i == 0 || i == len(lines)-1 || lines[i-1].Text == "") {
					t.Fatalf("%s: blank line misplaced at %d: %+v", mode, i, lines)
				}
			}
		}
	})
}

// TestCleanMessageEditedScissors pins the cut an edited message gets: git
// truncates at its scissors line in scissors mode, and in strip mode where
// `commit -v` wrote one; an unedited message keeps the line.
func TestCleanMessageEditedScissors(t *testing.T) {
	msg := "feat: x\n\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n"
	for _, mode := range []string{cleanupStrip, cleanupScissors} {
		if got := recorded(cleanMessage(msg, mode, "#", true)); got != "feat: x\n" {
			t.Errorf("%s, edited: %q", mode, got)
		}
	}
	if got := recorded(cleanMessage(msg, cleanupWhitespace, "#", true)); !strings.Contains(got, "diff --git") {
		t.Errorf("whitespace mode never cuts: %q", got)
	}
}

// The cleanup settings read in process are git's own answer: for each
// spelling git writes, the in-process reader answers (no git child) and
// agrees with `git config --get-regexp`; a config it cannot vouch for (an
// include) goes to git.
func TestCleanupConfigInProcessEqualsGit(t *testing.T) {
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	keys := []string{"commit.cleanup", "core.commentChar", "core.commentString"}
	for _, settings := range [][]string{
		nil,
		{"core.commentChar", ";"},
		{"core.commentChar", "%"},
		{"core.commentChar", "#"},
		{"core.commentChar", "auto"},
		{"core.commentString", "//"},
		{"commit.cleanup", "verbatim"},
		{"commit.cleanup", "SCISSORS"},
		{"commit.cleanup", "strip", "core.commentChar", ";", "core.commentString", "; x"},
	} {
		dir := scratchRepo(t, nil, nil)
		for i := 0; i+1 < len(settings); i += 2 {
			git(t, dir, "config", settings[i], settings[i+1])
		}
		fromGit, err := (repo.Git{Env: env}).ConfigGetEach(dir, keys...)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := configInProcess(dir, env, keys)
		if !ok {
			t.Fatalf("%q: the in-process reader declined a plain repository", settings)
		}
		if !reflect.DeepEqual(got, fromGit) {
			t.Errorf("%q: in process %q, git %q", settings, got, fromGit)
		}
	}
	// Written by hand: a valueless key, mixed case, a repeated key (the
	// last wins), a quoted value with a comment after it.
	dir := scratchRepo(t, nil, nil)
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[Core]\n\tCommentChar\n[COMMIT]\n\tcleanup = strip\n\tCleanup = \"Verbatim\" ; a note\n[core]\n\tcommentString = \";;\"\n")
	f.Close()
	fromGit, err := (repo.Git{Env: env}).ConfigGetEach(dir, keys...)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := configInProcess(dir, env, keys); !ok || !reflect.DeepEqual(got, fromGit) {
		t.Errorf("hand-written config: in process %q (%v), git %q", got, ok, fromGit)
	}
	// An include whose file sets one of the keys is git's to resolve; one
	// whose file sets none of them (init's, for linked worktrees) is read
	// past and the answer still git's.
	dir = scratchRepo(t, nil, nil)
	git(t, dir, "config", "include.path", "other.config")
	if err := os.WriteFile(filepath.Join(dir, ".git", "other.config"), []byte("[commit]\n\tcleanup = verbatim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := configInProcess(dir, env, keys); ok {
		t.Error("a config including a file that sets commit.cleanup was answered in process")
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "other.config"), []byte("[core]\n\thooksPath = /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fromGit, err = (repo.Git{Env: env}).ConfigGetEach(dir, keys...)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := configInProcess(dir, env, keys); !ok || !reflect.DeepEqual(got, fromGit) {
		t.Errorf("an include that sets none of the keys: in process %q (%v), git %q", got, ok, fromGit)
	}
}
