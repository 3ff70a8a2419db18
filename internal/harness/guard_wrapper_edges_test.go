package harness

import (
	"strings"
	"testing"
)

// bypassed reports whether commit-guard would block c.
func bypassed(t *testing.T, c string) bool {
	t.Helper()
	v, err := Inspect(c)
	if err != nil {
		t.Fatalf("%q: %v", c, err)
	}
	return len(v.Bypass) > 0
}

// TestGuardAssignmentNames: a NAME=value word in front of the program is
// an assignment only when NAME is a shell name (a letter or '_', then
// letters, digits, '_'); the guard looks past it to the git behind. A
// word that is not a name is the program, and the git after it is only
// its operand.
func TestGuardAssignmentNames(t *testing.T) {
	for _, name := range []string{"a", "z", "A", "Z", "_", "aZ", "Za", "a0", "a9", "_0", "Z9_z"} {
		for _, shape := range []string{"%s=1 git commit --no-verify -m x", "env %s=1 git commit --no-verify -m x"} {
			c := sprintf(shape, name)
			if !bypassed(t, c) {
				t.Errorf("%q: the bypass behind the assignment was not found", c)
			}
		}
	}
	for _, name := range []string{"0a", "9a", "0", "9", "@", "[", "{", "a@", "a[", "a{", "a/", "a:", "a-", "a.b"} {
		c := sprintf("%s=1 git commit --no-verify -m x", name)
		if bypassed(t, c) {
			t.Errorf("%q: %q is not a shell name, so the program is that word, not git", c, name+"=1")
		}
	}
	if bypassed(t, "=1 git commit --no-verify -m x") {
		t.Errorf("%q: a word starting with '=' is the program", "=1 git ...")
	}
	// The environment git reads its configuration from: only the exact
	// names, as assignments.
	for c, want := range map[string]bool{
		`GIT_CONFIG_PARAMETERS="'core.hooksPath=x'" git commit -m x`:                    true,
		`GIT_CONFIG_KEY_0=core.HooksPath GIT_CONFIG_VALUE_0=x git commit -m x`:          true,
		`GIT_CONFIG_KEY_9=core.hookspath git commit -m x`:                               true,
		`GIT_CONFIG_PARAMETERZ="'core.hooksPath=x'" git commit -m x`:                    false,
		`XGIT_CONFIG_KEY_0=core.hooksPath git commit -m x`:                              false,
		`GIT_CONFIG_KEY_0=core.editor git commit -m x`:                                  false,
		`0GIT_CONFIG_KEY_0=core.hooksPath git commit -m x`:                              false,
		`GIT_CONFIG_PARAMETERS git commit -m x`:                                         false,
		`export GIT_CONFIG_PARAMETERS="'core.hooksPath=x'"; git commit -m x`:            true,
		`git -c core.editor=vi commit -m x`:                                             false,
		`git -c core.hooksPath commit -m x`:                                             true,
		`git -c`:                                                                        false,
		`git --config-env=core.hooksPath=E commit -m x`:                                 true,
		`git -ccore.editor=vi commit -m x`:                                              false,
		`git --git-dir .git commit --no-verify -m x`:                                    true,
		`git --git-dir commit --no-verify -m x`:                                         false,
		`git --work-tree w --namespace n --super-prefix p --list-cmds l commit -n -m x`: true,
		`git --attr-source s -C d commit -n -m x`:                                       true,
		`git -C commit push --no-verify`:                                                true,
		`git --bare commit -n -m x`:                                                     true,
	} {
		if got := bypassed(t, c); got != want {
			t.Errorf("%q: blocked %v, want %v", c, got, want)
		}
	}
}

// TestGuardWrapperOptions: a wrapper's options are skipped to find the
// command it runs; an option that takes a value skips that value too, and
// one that does not (or carries its value after '=') leaves the next word
// as the command.
func TestGuardWrapperOptions(t *testing.T) {
	valued := map[string][]string{
		"env":     {"-u", "--unset", "-C", "--chdir"},
		"sudo":    {"-u", "-g", "-C", "-D", "-p", "-r", "-t", "-U"},
		"doas":    {"-u", "-g", "-C", "-D", "-p", "-r", "-t", "-U"},
		"timeout": {"-s", "--signal", "-k", "--kill-after"},
		"nice":    {"-n", "--adjustment"},
		"xargs":   {"-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a"},
		"ionice":  {"-c", "-n", "-p"},
		"stdbuf":  {"-i", "-o", "-e"},
		"time":    {"-f", "--format", "-o", "--output"},
		"exec":    {"-a"},
	}
	// A flag of each wrapper that takes no value.
	plain := map[string]string{
		"env": "-i", "sudo": "-E", "doas": "-n", "timeout": "--foreground", "nice": "-5",
		"xargs": "-0", "ionice": "-t", "stdbuf": "-oL", "time": "-v", "exec": "-c",
	}
	dur := func(w string) string {
		if w == "timeout" {
			return " 60"
		}
		return ""
	}
	for w, opts := range valued {
		prog := w
		if w == "time" {
			prog = "/usr/bin/time" // the program; the shell keyword takes -p only
		}
		for _, o := range opts {
			// The value is skipped: git behind it is the command.
			c := prog + " " + o + " v" + dur(w) + " git commit --no-verify -m x"
			if !bypassed(t, c) {
				t.Errorf("%q: %s takes a value; the git after it was not judged", c, o)
			}
			// The value is the word right after: here "git" is the value
			// and the command is `commit`, which is not git.
			c = prog + " " + o + " git" + dur(w) + " commit --no-verify -m x"
			if w != "timeout" && bypassed(t, c) {
				t.Errorf("%q: %s consumes \"git\" as its value; nothing here runs git", c, o)
			}
			// Given with '=', the value is in the option word.
			if len(o) > 2 {
				c = prog + " " + o + "=v" + dur(w) + " git commit --no-verify -m x"
				if !bypassed(t, c) {
					t.Errorf("%q: %s=v carries its value; git is the command", c, o)
				}
			}
		}
		c := prog + " " + plain[w] + dur(w) + " git commit --no-verify -m x"
		if !bypassed(t, c) {
			t.Errorf("%q: %s takes no value; git is the command", c, plain[w])
		}
	}
	for c, want := range map[string]bool{
		// env -S / --split-string splits its string into the command.
		`env -S 'git commit --no-verify -m x'`:                 true,
		`env --split-string 'git commit -n -m x'`:              true,
		`env --split-string='git commit -n -m x'`:              true,
		`env -S'git commit -n -m x'`:                           true,
		`env -S 'A=1 git commit -n -m x'`:                      true,
		`env -S 'echo git commit -n'`:                          false,
		`env -S 'A=1' git push --no-verify`:                    true,
		`env -S x -i git push --no-verify`:                     false,
		`env -S`:                                               false,
		`env -- git commit -n -m x`:                            true,
		`env - git commit -n -m x`:                             true,
		`env -i A=1 - B=2 git commit -n -m x`:                  true,
		`env -u`:                                               false,
		`sudo -u`:                                              false,
		`timeout`:                                              false,
		`timeout 5`:                                            false,
		`nohup chronic setsid caffeinate git push --no-verify`: true,
		`builtin command exec git push --no-verify`:            true,
		`/usr/bin/env git push --no-verify`:                    true,
		`envx git push --no-verify`:                            false,
		`time -p -- git push --no-verify`:                      true,
		`coproc git push --no-verify`:                          true,
		`coproc NAME { git push --no-verify; }`:                true,
		`function f { git push --no-verify; }`:                 true,
		`f() { git push --no-verify; }`:                        true,
		`! git push --no-verify`:                               true,
	} {
		if got := bypassed(t, c); got != want {
			t.Errorf("%q: blocked %v, want %v", c, got, want)
		}
	}
}

func sprintf(shape, s string) string { return strings.ReplaceAll(shape, "%s", s) }

// TestGuardVerifyFlagSpellings: the last of --no-verify / --verify, each
// by its shortest unambiguous abbreviation, decides; a short cluster's
// value option takes the rest of the word, or the next word, as its value,
// so an -n there is a message, not the flag.
func TestGuardVerifyFlagSpellings(t *testing.T) {
	for c, want := range map[string]bool{
		`git commit -n --veri -m x`:           false,
		`git commit -n --verif -m x`:          false,
		`git commit -n --ver -m x`:            true,
		`git commit --no-veri -m x`:           true,
		`git commit --no-ver -m x`:            false,
		`git commit -mn`:                      false,
		`git commit -m -n`:                    false,
		`git commit -Fn`:                      false,
		`git commit -F -n`:                    false,
		`git commit -Cn`:                      false,
		`git commit -cn`:                      false,
		`git commit -tn`:                      false,
		`git commit -an`:                      true,
		`git commit --message -n`:             false,
		`git commit --message=x -n`:           true,
		`git commit --author -n -m x`:         false,
		`git push --no-verify=x`:              true,
		`git push -n`:                         false,
		`git commit -m x -- -n --no-verify`:   false,
		`git commit --trailer --no-verify -n`: true,
	} {
		if got := bypassed(t, c); got != want {
			t.Errorf("%q: blocked %v, want %v", c, got, want)
		}
	}
}
