package harness

import (
	"bytes"
	"path/filepath"
	"testing"
)

// A shell writes the harness's local settings by spellings beyond a
// redirection or an operand that names the file: a copy or a move into
// the .claude directory (its last operand, or -t), dd's of=, and a
// redirection after a cd into .claude. Each is stopped before it runs;
// copies and moves of other files into other directories pass.
func TestSettingsWriteCheckReadsDirectoriesAndDd(t *testing.T) {
	dir := t.TempDir()
	call := func(command string) (int, string) {
		var errb bytes.Buffer
		c := &Call{Member: "commit-guard", Payload: &Payload{Cwd: dir}, Stderr: &errb}
		return settingsWriteCheck(c, command), errb.String()
	}
	for _, cmd := range []string{
		`cp ../settings.local.json .claude/`,
		`cp ../settings.local.json .claude`,
		`cp -t .claude ../settings.local.json`,
		`cp --target-directory=.claude ../settings.local.json`,
		`mv ../settings.local.json .claude`,
		`install -m 644 -t .claude ../settings.json`,
		`ln -s ../x/settings.local.json .claude/`,
		`printf '{}' | dd of=.claude/settings.local.json status=none`,
		`cd .claude && printf '{"disableAllHooks": true}' > settings.local.json`,
		`pushd .claude >/dev/null; rm settings.json`,
		`cd sub && cd ../.claude && tee settings.local.json </dev/null`,
	} {
		if code, errs := call(cmd); code != Block || !bytes.Contains([]byte(errs), []byte(filepath.Join(".claude", "settings"))) {
			t.Errorf("%s: answered %d, said %q; want a block naming the settings file", cmd, code, errs)
		}
	}
	for _, cmd := range []string{
		`cp ../settings.local.json docs/`,
		`cp -t docs ../settings.json`,
		`mv settings.json.bak docs`,
		`dd if=.claude/settings.json of=/tmp/settings.copy status=none`,
		`cd docs && printf 'x' > settings.local.json`,
		`cat .claude/settings.json`,
	} {
		if code, errs := call(cmd); code != Allow {
			t.Errorf("%s: answered %d, said %q; want it let through", cmd, code, errs)
		}
	}
}
