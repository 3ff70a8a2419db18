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
		{"an include of a missing file", files{local: "[include]\n\tpath = /nonexistent\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), true},
		{"an includeIf of a missing file", files{home: "[includeIf \"gitdir:/\"]\n\tpath = /nonexistent\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), true},
		{"an include that sets an asked key", files{local: "[include]\n\tpath = inc.cfg\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"an include by ~/ that sets an asked key", files{local: "[include]\n\tpath = ~/home-inc.cfg\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"an includeIf as init writes it", files{local: "[core]\n\tautocrlf = input\n[includeIf \"gitdir:**/.git/worktrees/**\"]\n\tpath = hooks.cfg\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), true},
		{"an include of a file with an include", files{local: "[include]\n\tpath = nested.cfg\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"an include with no path", files{local: "[include]\n\tpath =\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"a worktree config", files{local: "[extensions]\n\tworktreeConfig = true\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"a command-line setting", files{}, envWith("GIT_CONFIG_SYSTEM="+sys, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.autocrlf", "GIT_CONFIG_VALUE_0=true"), false},
		{"a file git cannot parse", files{home: "[core\n"}, envWith("GIT_CONFIG_SYSTEM=" + sys), false},
		{"a git whose system file is unknown", files{}, envWith("PATH=" + gitElsewhere(t, base)), false},
	}
	// The files the includes above name, beside the clone's config and in
	// HOME.
	writeFile(t, filepath.Join(common, "inc.cfg"), "[core]\n\tautocrlf = true\n")
	writeFile(t, filepath.Join(home, "home-inc.cfg"), "[core]\n\tattributesFile = /from-home\n")
	writeFile(t, filepath.Join(common, "hooks.cfg"), "[core]\n\thooksPath = /somewhere\n")
	writeFile(t, filepath.Join(common, "nested.cfg"), "[include]\n\tpath = /nonexistent\n")
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

// gitRemoteURLs is git's answer to ConfigSubsectionValues(…, "remote",
// "url"): each remote's URLs by its name as written, in git's order.
func gitRemoteURLs(t testing.TB, dir string, env []string) (map[string][]string, bool) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"config", "-z", "--get-regexp", `^remote\..*\.url$`}, Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	if c.Code() == 1 {
		return out, true
	}
	data, ok := c.Stdout()
	if !ok {
		return nil, false // git refuses the file too
	}
	for _, rec := range strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00") {
		key, val, _ := strings.Cut(rec, "\n")
		name, _ := strings.CutSuffix(strings.TrimPrefix(key, "remote."), ".url")
		out[name] = append(out[name], val)
	}
	return out, true
}

// remoteSpellings are config files that name remotes in the ways git's
// format allows, each read in process and by git.
var remoteSpellings = []string{
	"[remote \"origin\"]\n\turl = https://example.com/a.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
	"[remote \"origin\"]\n\turl = /srv/a.git\n[remote \"up\"]\n\turl = git@example.com:b/c.git\n",
	"[remote \"Origin\"]\n\turl = /one\n[remote \"origin\"]\n\turl = /two\n",
	"[REMOTE \"o\"]\n\tURL = /caps\n",
	"[remote \"a\\\"b\"]\n\turl = /escaped-name\n",
	"[remote \"a\\\\b\"]\n\turl = /escaped-backslash\n",
	"[remote \"sp ace\"]\n\turl = \"/quoted value\"\n",
	"[remote \"c\"]\n\turl = /p ; a comment\n\turl = /q # another\n",
	"[remote \"c\"]\n\turl = \"/p;not a comment\"\n",
	"[remote \"d\"]\n\turl = /con\\\ntinued\n",
	"[remote \"e\"]\n\tpushurl = /push-only\n",
	"[remote \"f\"]\n\turl = /first\n[remote \"g\"]\n\turl = /g\n[remote \"f\"]\n\turl = /second\n",
	"[remote \"h\"]\n\turl\n",
	"[remote \"i\"]\n\turl =   /trailing spaces   \n",
	"[remote \"j\"] url = /same-line\n",
	"[remote.k]\n\turl = /old-syntax\n",
	"[remote \"l\"]\n\turl = /tab\\there\n",
	"[remote]\n\turl = /no-subsection\n",
	"[remote \"\"]\n\turl = /empty-name\n",
	"[remote \"m\"]\n\turl = /m\n[include]\n\tpath = x\n",
	"[remote \"n\"]\n\turl = /n\n[includeIf \"gitdir:**/.git/worktrees/**\"]\n\tpath = hooks.cfg\n",
}

// TestRemoteURLsAgreeWithGit holds the in-process reading of every
// remote's URL to git config's, over spellings the format allows; where
// the reader declines it must be because the file is one git would not
// be read the same way (an include) or one the parser cannot take.
func TestRemoteURLsAgreeWithGit(t *testing.T) {
	base := physTemp(t)
	repo := filepath.Join(base, "repo")
	mkdirs(t, repo)
	home := filepath.Join(base, "home")
	mkdirs(t, home)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1"}
	runGit(t, repo, env, "init", "-q")
	common := filepath.Join(repo, ".git")
	base0, err := os.ReadFile(filepath.Join(common, "config"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(common, "hooks.cfg"), "[core]\n\thooksPath = /somewhere\n")
	answered := 0
	for i, body := range remoteSpellings {
		writeFile(t, filepath.Join(common, "config"), string(base0)+body)
		got, ok := ConfigSubsectionValues(common, env, "remote", "url")
		want, gitOK := gitRemoteURLs(t, repo, env)
		if !ok {
			continue
		}
		answered++
		if !gitOK {
			continue // see FuzzRemoteURLs
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("spelling %d %q: in process %q, git %q", i, body, got, want)
		}
	}
	if answered < len(remoteSpellings)/2 {
		t.Fatalf("the reader answered %d of %d spellings: it declines what it should read", answered, len(remoteSpellings))
	}
	// An include that names a remote is git's to take in or not.
	writeFile(t, filepath.Join(common, "remote.cfg"), "[remote \"inc\"]\n\turl = /included\n")
	writeFile(t, filepath.Join(common, "config"), string(base0)+"[include]\n\tpath = remote.cfg\n")
	if got, ok := ConfigSubsectionValues(common, env, "remote", "url"); ok {
		t.Fatalf("an included remote was answered in process: %q", got)
	}
	// Files git reads beside the clone's: a remote in the global file.
	writeFile(t, filepath.Join(common, "config"), string(base0)+"[remote \"x\"]\n\turl = /local\n")
	writeFile(t, filepath.Join(home, ".gitconfig"), "[remote \"x\"]\n\turl = /global\n[remote \"y\"]\n\turl = /y\n")
	got, ok := ConfigSubsectionValues(common, env, "remote", "url")
	want, _ := gitRemoteURLs(t, repo, env)
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("with a global file: in process %q (%v), git %q", got, ok, want)
	}
}

// FuzzRemoteURLs holds the in-process reader to git on arbitrary config
// bodies: whatever it answers, git answers the same.
func FuzzRemoteURLs(f *testing.F) {
	for _, s := range remoteSpellings {
		f.Add(s)
	}
	base := physTemp(f)
	repo := filepath.Join(base, "repo")
	mkdirs(f, repo)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + base, "GIT_CONFIG_NOSYSTEM=1"}
	runGit(f, repo, env, "init", "-q")
	common := filepath.Join(repo, ".git")
	base0, err := os.ReadFile(filepath.Join(common, "config"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if strings.ContainsAny(body, "\x00") {
			return
		}
		writeFile(t, filepath.Join(common, "config"), string(base0)+body)
		got, ok := ConfigSubsectionValues(common, env, "remote", "url")
		if !ok {
			return
		}
		want, gitOK := gitRemoteURLs(t, repo, env)
		if !gitOK {
			// A file git refuses stops every git command in the clone,
			// the hooks' own among them; what the reader makes of it
			// decides nothing.
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: in process %q, git %q", body, got, want)
		}
	})
}
