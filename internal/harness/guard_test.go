package harness

import (
	"reflect"
	"strings"
	"testing"
)

func TestInspectBypasses(t *testing.T) {
	blocked := []string{
		`git commit --no-verify -m "feat: x"`,
		`git commit -n -m "feat: x"`,
		`git commit -nm "feat: x"`,
		`git commit -anm "feat: x"`,
		`git commit -am "feat: x" -n`,
		`git commit --no-veri -m "feat: x"`,
		`git commit -m "feat: x" --no-verify`,
		`git push --no-verify origin main`,
		`git -c core.hooksPath=/dev/null commit -m "feat: x"`,
		`git -c core.HOOKSPATH=/tmp/none commit -m "feat: x"`,
		`git -ccore.hooksPath=x commit`,
		`git --config-env core.hooksPath=EMPTY commit`,
		`git config core.hooksPath /dev/null`,
		`git config --global core.hooksPath .nohooks`,
		`git config --unset core.hooksPath`,
		`git config --local --unset-all core.hooksPath`,
		`git config unset core.hooksPath`,
		`git config set core.hooksPath x`,
		`git config --remove-section core`,
		`cd sub && git commit --no-verify -m "feat: x"`,
		`make build; git commit --no-verify -m "feat: x"`,
		`echo start | git commit -n -F -`,
		`sudo -E git commit --no-verify -m x`,
		`env -u HOME GIT_EDITOR=true git commit -n -m x`,
		`timeout 60 git push --no-verify`,
		`/usr/bin/git commit --no-verify -m x`,
		`"git" commit --no-verify -m x`,
		`\git commit --no-verify -m x`,
		`command git commit --no-verify -m x`,
		`bash -c 'git commit --no-verify -m x'`,
		`sh -ec "git commit -n -m x"`,
		`eval "git commit --no-verify -m x"`,
		`out=$(git commit --no-verify -m x)`,
		"echo `git commit -n -m x`",
		`( git commit --no-verify -m x )`,
		`if true; then git commit --no-verify -m x; fi`,
		`GIT_CONFIG_PARAMETERS="'core.hooksPath=/dev/null'" git commit -m "feat: x"`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x`,
		`git -C ../other commit --no-verify -m x`,
		"git add . &&\n  git commit --no-verify -m x",
	}
	for _, c := range blocked {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if len(v.Bypass) == 0 {
			t.Errorf("%q: no bypass found", c)
		}
	}
	allowed := []string{
		`git status`,
		`git commit -m "feat: x"`,
		`git commit --verify -m "feat: x"`,
		`git commit --no-verify --verify -m "feat: x"`,
		`git commit -m "--no-verify is a flag"`,
		`git commit -m "feat: x" -- --no-verify`,
		`git push -n origin main`,
		`git push --dry-run`,
		`git config core.hooksPath`,
		`git config --get core.hooksPath`,
		`git config get core.hooksPath`,
		`git config user.email a@b.c`,
		`echo git commit --no-verify`,
		`grep -n no-verify README.md`,
		`git log --no-verify-signatures`,
		`git commit -C HEAD --amend`,
		`# git commit --no-verify`,
		`git commit --author "n <n@x>" -m "feat: x"`,
	}
	for _, c := range allowed {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if len(v.Bypass) != 0 {
			t.Errorf("%q: blocked as %v", c, v.Bypass)
		}
	}
}

func TestInspectMessages(t *testing.T) {
	cases := map[string][]string{
		`git commit -m "feat: x"`:                    {"feat: x\n"},
		`git commit -m wip`:                          {"wip\n"},
		`git commit -am "fix: y"`:                    {"fix: y\n"},
		`git commit -m'docs: z'`:                     {"docs: z\n"},
		`git commit --message="feat: a" -m "body"`:   {"feat: a\n\nbody\n"},
		`git commit --message "feat: b"`:             {"feat: b\n"},
		`git add -A && git commit -m "feat: c"`:      {"feat: c\n"},
		`git commit -m "$msg"`:                       nil,
		`git commit -F msg.txt`:                      nil,
		`git commit -C HEAD -m "x"`:                  nil,
		`git commit`:                                 nil,
		`git commit --amend --no-edit`:               nil,
		`git commit -m "feat: d" && git commit -m e`: {"feat: d\n", "e\n"},
		"git commit -m \"feat: e\n\nbody line\"":     {"feat: e\n\nbody line\n"},
		`git commit --author "A <a@b>" -m "feat: f"`: {"feat: f\n"},
		`git commit --template t.txt -m "feat: g"`:   {"feat: g\n"},
		`git -C sub commit -m "feat: h"`:             {"feat: h\n"},
		`git commit -m "feat: i" -- path/with-m.txt`: {"feat: i\n"},
		`bash -c "git commit -m 'feat: j'"`:          {"feat: j\n"},
		`git commit --cleanup=verbatim -m "feat: k"`: {"feat: k\n"},
	}
	for c, want := range cases {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if !reflect.DeepEqual(v.Messages, want) {
			t.Errorf("%q: messages %q, want %q", c, v.Messages, want)
		}
	}
}

func TestInspectRefusesWhatItCannotRead(t *testing.T) {
	for _, c := range []string{`git commit -m "unterminated`, `echo $(git commit -n`} {
		if _, err := Inspect(c); err == nil {
			t.Errorf("%q: read without complaint", c)
		}
	}
	deep := "git commit -n -m x"
	for i := 0; i < maxNesting+2; i++ {
		deep = "sh -c " + shellQuote(deep)
	}
	if _, err := Inspect(deep); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("deep nesting: %v", err)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
