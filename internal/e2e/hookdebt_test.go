package e2e

// The pre-commit hook after a rule-input change: it
// judges the staged files against the new rule, leaves the unchanged rest
// to the battery saying so on its clean line, never reports clean for a
// file it did not judge, and records the debt; the next green battery
// settles it, a red one keeps it.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const oldWord = "OLDWORD-91c2"

func TestHookDebtAfterRuleInputChange(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	for i := 0; i < 5; i++ {
		write(t, filepath.Join(c.dir, "docs", "n"+string(rune('0'+i))+".md"), "plain prose\n", 0o644)
	}
	// A committed file holding a word no pattern bans yet.
	write(t, filepath.Join(c.dir, "docs/old.md"), "said "+oldWord+" once\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "files")
	debt := filepath.Join(c.dir, ".git", "gates-debt")
	// The battery judges the whole tree: the rule's latest whole judgement.
	must(t, c.gates("--run"), "first battery")

	// The rule input changes in the commit being made: the word is banned.
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), leak+"\n"+oldWord+"\n", 0o644)
	write(t, filepath.Join(c.dir, "docs/new.md"), "fresh prose\n", 0o644)
	c.git("add", "scripts/msg-patterns.list", "docs/new.md")

	// A staged file is judged against the new rule.
	write(t, filepath.Join(c.dir, "docs/staged.md"), "now "+oldWord+"\n", 0o644)
	c.git("add", "docs/staged.md")
	red := c.gates("--git-hook", "pre-commit")
	if red.code != 1 || !strings.Contains(red.stdout, "docs/staged.md:1:now "+oldWord) {
		t.Fatalf("a staged file was not judged against the new rule: exit %d\n%s%s", red.code, red.stdout, red.stderr)
	}
	if _, err := os.Stat(debt); !os.IsNotExist(err) {
		t.Fatalf("a failed hook recorded a debt: %v", err)
	}
	c.git("rm", "-q", "--cached", "docs/staged.md")
	os.Remove(filepath.Join(c.dir, "docs/staged.md"))

	// The unchanged rest is left to the battery, and the clean line says
	// so: the hook passes without having judged docs/old.md, and claims
	// nothing of it.
	env := append(append([]string{}, c.env...), "GATE_SDK_VERBOSE=1")
	hook := run(t, c.dir, env, filepath.Join(c.dir, "bin/gates"), "--git-hook", "pre-commit")
	if hook.code != 0 {
		t.Fatalf("hook: exit %d\n%s%s", hook.code, hook.stdout, hook.stderr)
	}
	last := lastLine(hook.stdout)
	if !strings.Contains(last, "passed over the staged files; unchanged files were left to the battery (check-tree-terms ") || !strings.Contains(last, "run gates --run to settle") {
		t.Fatalf("the clean line does not say what was left to the battery: %q\n%s", last, hook.stdout)
	}
	if !strings.Contains(hook.stdout, "TREE-TERMS: clean (1 tracked files the commit changes match none of 2 banned patterns; ") || !strings.Contains(hook.stdout, "unchanged files left to the battery") {
		t.Fatalf("the member's clean line claims files it did not judge:\n%s", hook.stdout)
	}
	if strings.Contains(hook.stdout, "docs/old.md") {
		t.Fatalf("the hook printed a verdict on a file it left:\n%s", hook.stdout)
	}
	data, err := os.ReadFile(debt)
	if err != nil {
		t.Fatalf("no debt recorded: %v", err)
	}
	if !strings.Contains(string(data), " check-tree-terms "+quoteGo(c.dir)) {
		t.Fatalf("debt record = %q", data)
	}
	c.git("commit", "-q", "--no-verify", "-m", "ban the word")

	// The next battery judges everything: it finds the file the hook left
	// and, red, keeps the debt.
	bat := c.gates("--run")
	if bat.code != 1 || !strings.Contains(bat.stdout, "docs/old.md:1:said "+oldWord) {
		t.Fatalf("battery: exit %d\n%s%s", bat.code, bat.stdout, bat.stderr)
	}
	if _, err := os.Stat(debt); err != nil {
		t.Fatalf("a red battery settled the debt: %v", err)
	}
	// Fixed and committed, the battery is green and settles the debt.
	write(t, filepath.Join(c.dir, "docs/old.md"), "said nothing\n", 0o644)
	c.git("commit", "-q", "--no-verify", "-am", "fix")
	green := c.gates("--run")
	if green.code != 0 || !strings.Contains(green.stderr, "settled: check-tree-terms judged the ") {
		t.Fatalf("green battery: exit %d\n%s%s", green.code, green.stdout, green.stderr)
	}
	if _, err := os.Stat(debt); !os.IsNotExist(err) {
		t.Fatalf("a green battery left the debt: %v", err)
	}
	// The rule's verdicts are whole again: the next hook leaves nothing.
	write(t, filepath.Join(c.dir, "docs/more.md"), "more prose\n", 0o644)
	c.git("add", "docs/more.md")
	again := c.gates("--git-hook", "pre-commit")
	if again.code != 0 || strings.Contains(again.stdout, "left to the battery") {
		t.Fatalf("hook after the settlement: exit %d\n%s%s", again.code, again.stdout, again.stderr)
	}
}

// A first run with no whole judgement on record (a fresh clone, a cleared
// cache) leaves nothing: the hook judges every file, as it always did.
func TestHookDebtNoneWithoutAnEarlierJudgement(t *testing.T) {
	t.Parallel()
	c := termsConsumer(t)
	write(t, filepath.Join(c.dir, "docs/old.md"), "said "+oldWord+" once\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "files")
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), leak+"\n"+oldWord+"\n", 0o644)
	c.git("add", "scripts/msg-patterns.list")
	hook := c.gates("--git-hook", "pre-commit")
	if hook.code != 1 || !strings.Contains(hook.stdout, "docs/old.md:1:said "+oldWord) {
		t.Fatalf("hook with no earlier judgement: exit %d\n%s%s", hook.code, hook.stdout, hook.stderr)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func quoteGo(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}
