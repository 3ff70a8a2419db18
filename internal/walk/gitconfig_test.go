//go:build linux

package walk

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/spawn"
)

// gitConfigValues is git's own answer to what ConfigValues answers.
func gitConfigValues(t *testing.T, dir string, env []string) map[string][]string {
	t.Helper()
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"config", "-z", "--get-regexp", `^core\.(autocrlf|attributesfile)$`}, Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	if c.Code() == 1 {
		return out
	}
	data, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		t.Fatalf("git config: %s", rep)
	}
	for _, rec := range strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00") {
		key, val, _ := strings.Cut(rec, "\n")
		out[key] = append(out[key], val)
	}
	return out
}

// TestConfigValuesAgreeWithGit holds the in-process reader to git config
// over every file git reads, and checks it declines where it cannot be
// sure.
func TestConfigValuesAgreeWithGit(t *testing.T) {
	base := physTemp(t)
	repo := filepath.Join(base, "repo")
	mkdirs(t, repo)
	home := filepath.Join(base, "home")
	xdg := filepath.Join(base, "xdg")
	mkdirs(t, home, filepath.Join(xdg, "git"))
	sys := filepath.Join(base, "system.cfg")
	envWith := func(extra ...string) []string {
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
				env = append(env, kv)
			}
		}
		return append(append(env, "HOME="+home), extra...)
	}
	runGit(t, repo, envWith("GIT_CONFIG_NOSYSTEM=1"), "init", "-q")
	common := filepath.Join(repo, ".git")
	local := filepath.Join(common, "config")
	base0, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	type files struct{ sys, xdg, home, local string }
	write := func(f files) {
		writeFile(t, sys, f.sys)
		writeFile(t, filepath.Join(xdg, "git", "config"), f.xdg)
		writeFile(t, filepath.Join(home, ".config", "git", "config"), f.xdg)
		writeFile(t, filepath.Join(home, ".gitconfig"), f.home)
		writeFile(t, local, string(base0)+f.local)
	}
	cases := []struct {
		name    string
		f       files
		env     []string
		answers bool
	}{
		{"nothing set", files{}, envWith("GIT_CONFIG_SYSTEM=" + sys), true},
		{"every file sets one", files{"[core]\n\tautocrlf = true\n", "[core]\n\tautocrlf = input\n", "[core]\n\tattributesFile = /x\n", "[core]\n\tautocrlf = false\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), true},
		{"case and spacing", files{local: "[CORE]\n  AutoCRLF=TRUE\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), true},
		{"a bare key", files{home: "[core]\n\tautocrlf\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), true},
		{"a core subsection is left to git", files{local: "[core \"x\"]\n\tautocrlf = true\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"XDG_CONFIG_HOME", files{xdg: "[core]\n\tautocrlf = true\n"}, envWith("GIT_CONFIG_SYSTEM="+sys, "XDG_CONFIG_HOME="+xdg), true},
		{"GIT_CONFIG_GLOBAL", files{home: "[core]\n\tautocrlf = true\n"}, envWith("GIT_CONFIG_SYSTEM="+sys, "GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig")), true},
		{"no system", files{sys: "[core]\n\tautocrlf = true\n"}, envWith("GIT_CONFIG_NOSYSTEM=1"), true},
		{"an include", files{local: "[include]\n\tpath = /nonexistent\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"an includeIf", files{home: "[includeIf \"gitdir:/\"]\n\tpath = /nonexistent\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"a worktree config", files{local: "[extensions]\n\tworktreeConfig = true\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"a command-line setting", files{}, envWith("GIT_CONFIG_SYSTEM="+sys, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.autocrlf", "GIT_CONFIG_VALUE_0=true"), false},
		{"a file git cannot parse", files{home: "[core\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"a git whose system file is unknown", files{}, envWith("PATH=" + gitElsewhere(t, base)), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			write(tc.f)
			got, ok := ConfigValues(common, tc.env, "core.autocrlf", "core.attributesfile")
			if ok != tc.answers {
				t.Fatalf("ConfigValues answered %v, want %v (%v)", ok, tc.answers, got)
			}
			if !ok {
				return
			}
			if want := gitConfigValues(t, repo, tc.env); !reflect.DeepEqual(got, want) {
				t.Fatalf("in process %q, git %q", got, want)
			}
		})
	}
}

// gitElsewhere answers a PATH whose git is a link to the real one from
// another directory, so its system file cannot be named.
func gitElsewhere(t *testing.T, base string) string {
	t.Helper()
	real, ok := spawn.Where("git", nil)
	if !ok {
		t.Skip("no git on PATH")
	}
	dir := filepath.Join(base, "bin")
	mkdirs(t, dir)
	if err := os.Symlink(real, filepath.Join(dir, "git")); err != nil {
		t.Fatal(err)
	}
	// A copy, not a link: EvalSymlinks would find /usr/bin/git again.
	data, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "git"))
	if err := os.WriteFile(filepath.Join(dir, "git"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir + string(os.PathListSeparator) + os.Getenv("PATH")
}
