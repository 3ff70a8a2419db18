package gates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

type idCase struct {
	disk  map[string]string
	knobs gatetest.Knobs
	env   map[string]string
	dir   string
}

func (ic idCase) run(t *testing.T) gatetest.Run {
	t.Helper()
	dir := ic.dir
	if dir == "" {
		dir = t.TempDir()
	}
	writeFiles(t, dir, ic.disk)
	k := gatetest.Knobs{
		"GATE_SDK_IDENTITY_FILE":    "scripts/identity.conf",
		"GATE_SDK_GIT_EMAIL_FILE":   "email.txt",
		"GATE_SDK_GIT_REMOTES_FILE": "remotes.txt",
		"GATE_SDK_GH_HOSTS_FILE":    "hosts.yml",
		"GATE_SDK_GH_HOST":          "github.com",
	}
	for n, v := range ic.knobs {
		k[n] = v
	}
	return run{rule: checkIdentity, name: "check-identity", dir: dir, tree: memTree(nil), knobs: k, env: ic.env}.exec()
}

const hostsOK = `github.com:
    users:
        user:
            oauth_token: x
        Alice-W:
            oauth_token: y
    git_protocol: ssh
    user: Alice-W
other.example:
    user: someone-else
`

func TestIdentityMatches(t *testing.T) {
	got := idCase{disk: map[string]string{
		"scripts/identity.conf": "# who this clone is\nemail alice@example.org\n\nremote-host origin gh-work\nremote-host upstream github.com\ngh-account Alice-W\n",
		"email.txt":             "alice@example.org\nignored second line\n",
		"remotes.txt":           "origin git@gh-work:org/repo.git\nupstream https://bot@github.com:443/org/repo.git\n",
		"hosts.yml":             hostsOK,
	}}.run(t)
	wantCode(t, got, 0)
	wantOut(t, got, "IDENTITY: clean (4 identity expectations matched)")
}

func TestIdentityFindings(t *testing.T) {
	got := idCase{disk: map[string]string{
		"scripts/identity.conf": "email alice@example.org\nremote-host origin gh-work\nremote-host backup gh-work\ngh-account Bob\n",
		"email.txt":             "bob@example.org\n",
		"remotes.txt":           "origin git@github.com:org/repo.git\n",
		"hosts.yml":             hostsOK,
	}}.run(t)
	wantCode(t, got, 1)
	wantOut(t, got,
		"scripts/identity.conf:1: email: expected alice@example.org, this clone commits as bob@example.org",
		"scripts/identity.conf:2: remote-host: remote origin points at host github.com (git@github.com:org/repo.git), expected gh-work",
		"scripts/identity.conf:3: remote-host: remote backup is absent from this clone",
		"scripts/identity.conf:4: gh-account: the GitHub CLI's active account for github.com is Alice-W, expected Bob",
		"help: map this clone", "help: point the remote", "help: switch the GitHub CLI")
	// An unset email is a mismatch, not a skip.
	got = idCase{disk: map[string]string{"scripts/identity.conf": "email a@b\n", "email.txt": ""}}.run(t)
	wantCode(t, got, 1)
	wantOut(t, got, "this clone commits as (unset)")
}

// TestIdentityGHAbsence pins the graded postures of the hosts file: absent
// is clean with the caveat named and the expectation left out of the
// count; present but unreadable or unparseable is exit 2; present with no
// block for the host is a finding.
func TestIdentityGHAbsence(t *testing.T) {
	conf := map[string]string{"scripts/identity.conf": "email a@b\ngh-account Alice-W\n", "email.txt": "a@b\n"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range conf {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	// Missing.
	got := idCase{disk: conf}.run(t)
	wantCode(t, got, 0)
	wantOut(t, got, "IDENTITY: clean (1 identity expectations matched; gh-account unverified: no GitHub CLI hosts file at hosts.yml")
	// Unreadable.
	got = idCase{disk: with(map[string]string{"hosts.yml/x": ""})}.run(t)
	wantCode(t, got, 2)
	if !strings.Contains(got.Stderr, "hosts.yml") {
		t.Errorf("refusal does not name the file: %q", got.Stderr)
	}
	// No block for the host.
	got = idCase{disk: with(map[string]string{"hosts.yml": "gitlab.example:\n    user: Alice-W\n"})}.run(t)
	wantCode(t, got, 1)
	wantOut(t, got, "gh-account: hosts.yml has no block for host github.com, so the CLI is not logged in there (expected Alice-W)")
	// A block with no user key, and an unparseable shape: exit 2.
	for _, body := range []string{
		"github.com:\n    users:\n        user:\n            oauth_token: x\n    git_protocol: ssh\n",
		"github.com:\n    git_protocol: ssh\n  user: Alice-W\n",
		"github.com: {}\n",
		"github.com:\n    user:\n",
	} {
		got = idCase{disk: with(map[string]string{"hosts.yml": body})}.run(t)
		if got.Code != 2 {
			t.Errorf("hosts %q: exit %d, want 2\n%s%s", body, got.Code, got.Stdout, got.Stderr)
		}
	}
	// The host knob selects the block.
	got = idCase{disk: with(map[string]string{"hosts.yml": hostsOK}), knobs: gatetest.Knobs{"GATE_SDK_GH_HOST": "other.example"}}.run(t)
	wantCode(t, got, 1)
	wantOut(t, got, "active account for other.example is someone-else")
}

func TestIdentityGHDerivation(t *testing.T) {
	conf := map[string]string{"scripts/identity.conf": "gh-account Alice-W\n"}
	noKnob := gatetest.Knobs{"GATE_SDK_GH_HOSTS_FILE": ""}
	// With nothing to derive from: exit 2, never a clean read of an absent path.
	got := idCase{disk: conf, knobs: noKnob, env: map[string]string{}}.run(t)
	wantCode(t, got, 2)

	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"cfg/hosts.yml":             "github.com:\n    user: from-gh-config-dir\n",
		"xdg/gh/hosts.yml":          "github.com:\n    user: from-xdg\n",
		"home/.config/gh/hosts.yml": "github.com:\n    user: Alice-W\n",
	})
	env := map[string]string{"GH_CONFIG_DIR": filepath.Join(dir, "cfg"), "XDG_CONFIG_HOME": filepath.Join(dir, "xdg"), "HOME": filepath.Join(dir, "home")}
	got = idCase{disk: conf, knobs: noKnob, env: env}.run(t)
	wantOut(t, got, "is from-gh-config-dir, expected Alice-W")
	delete(env, "GH_CONFIG_DIR")
	got = idCase{disk: conf, knobs: noKnob, env: env}.run(t)
	wantOut(t, got, "is from-xdg, expected Alice-W")
	delete(env, "XDG_CONFIG_HOME")
	got = idCase{disk: conf, knobs: noKnob, env: env}.run(t)
	wantCode(t, got, 0)

	c := &gate.Context{Env: func(k string) (string, bool) {
		v, ok := map[string]string{"AppData": `C:\A`, "HOME": "/h"}[k]
		return v, ok
	}}
	if p, _ := ghHostsFile(c, "", "windows"); p != `C:\A/GitHub CLI/hosts.yml` {
		t.Errorf("windows derivation = %q", p)
	}
	if p, _ := ghHostsFile(c, "", "linux"); p != "/h/.config/gh/hosts.yml" {
		t.Errorf("linux derivation = %q", p)
	}
}

func TestIdentityPosturesAndRefusals(t *testing.T) {
	got := idCase{}.run(t)
	wantCode(t, got, 0)
	wantOut(t, got, "IDENTITY: clean (no manifest at scripts/identity.conf: no identity expected)")
	got = idCase{disk: map[string]string{"scripts/identity.conf": "# nothing\n"}}.run(t)
	wantCode(t, got, 0)
	wantOut(t, got, "expects nothing")
	wantCode(t, idCase{disk: map[string]string{"scripts/identity.conf/x": ""}}.run(t), 2)
	for _, bad := range []string{"name alice\n", "email\n", "email a b\n", "remote-host origin\n", "gh-account github.com Alice-W\n", "gh-account\n"} {
		got := idCase{disk: map[string]string{"scripts/identity.conf": bad}}.run(t)
		if got.Code != 2 || !strings.Contains(got.Stderr, "scripts/identity.conf:1") {
			t.Errorf("manifest %q: exit %d stderr %q, want 2 naming the line", bad, got.Code, got.Stderr)
		}
	}
	// A named stand-in file that is missing refuses.
	wantCode(t, idCase{disk: map[string]string{"scripts/identity.conf": "email a@b\n"}}.run(t), 2)
	got = idCase{disk: map[string]string{"scripts/identity.conf": "remote-host origin h\n", "remotes.txt": "origin\n"}}.run(t)
	wantCode(t, got, 2)
}

func TestIdentityCIStepAside(t *testing.T) {
	conf := map[string]string{"scripts/identity.conf": "email a@b\n", "email.txt": "other@b\n", "remotes.txt": ""}
	// Under CI with a live read still owed: clean skip before any read.
	got := idCase{disk: map[string]string{"scripts/identity.conf": "not even parsed\n"}, knobs: gatetest.Knobs{"GATE_SDK_GIT_REMOTES_FILE": ""}, env: map[string]string{"CI": "true"}}.run(t)
	wantCode(t, got, 0)
	wantOut(t, got, "IDENTITY: clean (CI run:")
	// Both actuals configured: the run proceeds under CI.
	got = idCase{disk: conf, env: map[string]string{"CI": "1"}}.run(t)
	wantCode(t, got, 1)
	// An empty CI is no CI.
	got = idCase{disk: conf, knobs: gatetest.Knobs{"GATE_SDK_GIT_REMOTES_FILE": ""}, env: map[string]string{"CI": ""}}.run(t)
	wantCode(t, got, 1)
}

func TestIdentityLiveGit(t *testing.T) {
	dir := scratchRepo(t, nil, map[string]string{"scripts/identity.conf": "email live@example.org\nremote-host origin gh-work\nremote-host gone x\n"})
	git(t, dir, "config", "user.email", "live@example.org")
	git(t, dir, "remote", "add", "origin", "git@gh-work:o/r.git")
	live := gatetest.Knobs{"GATE_SDK_GIT_EMAIL_FILE": "", "GATE_SDK_GIT_REMOTES_FILE": ""}
	got := idCase{dir: dir, knobs: live}.run(t)
	wantCode(t, got, 1)
	wantOut(t, got, "remote gone is absent from this clone")
	wantNotOut(t, got, "email:", "remote origin")

	// Outside a repository, a live read refuses.
	out := t.TempDir()
	got = idCase{dir: out, disk: map[string]string{"scripts/identity.conf": "email a@b\n"}, knobs: live, env: map[string]string{"GIT_CEILING_DIRECTORIES": filepath.Dir(out)}}.run(t)
	wantCode(t, got, 2)
}

func TestRemoteHost(t *testing.T) {
	cases := map[string]string{
		"git@gh-work:org/repo.git":               "gh-work",
		"gh-work:org/repo.git":                   "gh-work",
		"ssh://git@github.com:22/org/repo.git":   "github.com",
		"https://github.com/org/repo":            "github.com",
		"https://user:pw@example.org:8443/r.git": "example.org",
		"ssh://[::1]:22/r.git":                   "::1",
		"/srv/git/repo.git":                      "",
		"./rel/path:with-colon":                  "",
		"file:///srv/repo.git":                   "",
	}
	for url, want := range cases {
		if got := remoteHost(url); got != want {
			t.Errorf("remoteHost(%q) = %q, want %q", url, got, want)
		}
	}
}

func TestGHActiveUser(t *testing.T) {
	cases := []struct {
		body, host, user string
		found, err       bool
	}{
		{hostsOK, "github.com", "Alice-W", true, false},
		{"# c\n---\n\"github.com\":\n  user: \"Q\" # note\n", "github.com", "Q", true, false},
		{"github.com:\n  user: 'single'\n", "github.com", "single", true, false},
		{"ghe.local:8443:\n  user: p\n", "ghe.local:8443", "p", true, false},
		{"other:\n  user: x\n", "github.com", "", false, false},
		{"github.com:\n  users:\n    user: trap\n", "github.com", "", true, true},
		{"github.com:\n  user: a\n  user: b\n", "github.com", "", true, true},
		{"github.com:\n\tuser: a\n", "github.com", "", false, true},                          // a tab indent does not parse
		{"github.com:\n    users:\n      x: {}\n  user: a\n", "github.com", "", false, true}, // does not parse
		// A byte-order mark is the file's encoding signature, as gh's YAML
		// parser reads it, not part of the first host's name.
		{"\ufeffgithub.com:\n  user: bom\n", "github.com", "bom", true, false},
		// Every form YAML allows is read: flow style, anchors.
		{"{github.com: {user: alice}}\n", "github.com", "alice", true, false},
		{"base: &b {user: carol}\ngithub.com: *b\n", "github.com", "carol", true, false},
		{"github.com: {user: [a, b]}\n", "github.com", "", true, true},
		{"[]\n", "github.com", "", false, true},
		{"", "github.com", "", false, false},
	}
	for _, c := range cases {
		user, found, err := ghActiveUser([]byte(c.body), c.host)
		if user != c.user || found != c.found || (err != nil) != c.err {
			t.Errorf("%q: got (%q, %v, %v), want (%q, %v, err=%v)", c.body, user, found, err, c.user, c.found, c.err)
		}
	}
}

func FuzzGHActiveUser(f *testing.F) {
	f.Add([]byte(hostsOK), "github.com")
	f.Add([]byte("a:\n b: c\n"), "a")
	f.Fuzz(func(t *testing.T, data []byte, host string) {
		user, found, err := ghActiveUser(data, host)
		if err == nil && found && user == "" {
			t.Fatalf("found block with empty user and no error")
		}
		if !found && user != "" {
			t.Fatalf("no block but user %q err %v", user, err)
		}
	})
}

// TestIdentityReadsWhatGitUses pins that the email is the one git records
// (committer.email and author.email over user.email, the identity
// variables over config) and that the remote's host is checked where the
// clone pushes (pushurl, pushInsteadOf) as well as where it fetches.
func TestIdentityReadsWhatGitUses(t *testing.T) {
	live := gatetest.Knobs{"GATE_SDK_GIT_EMAIL_FILE": "", "GATE_SDK_GIT_REMOTES_FILE": ""}
	// The gate hands git its own environment's identity variables, so this
	// one decides what git sees, whatever the test process inherited.
	hermetic := func(extra ...string) map[string]string {
		env := map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.DevNull}
		for i := 0; i+1 < len(extra); i += 2 {
			env[extra[i]] = extra[i+1]
		}
		return env
	}
	newRepo := func() string {
		dir := scratchRepo(t, nil, map[string]string{"scripts/identity.conf": "email me@work.example\nremote-host origin gh-work\n"})
		git(t, dir, "config", "user.name", "Me")
		git(t, dir, "config", "user.email", "me@work.example")
		git(t, dir, "remote", "add", "origin", "git@gh-work:o/r.git")
		return dir
	}
	dir := newRepo()
	got := idCase{dir: dir, knobs: live, env: hermetic()}.run(t)
	wantCode(t, got, 0)

	for _, c := range []struct {
		config []string // a key and value set in the clone
		env    string   // GIT_AUTHOR_EMAIL for the run, "" none
		want   string
	}{
		{config: []string{"committer.email", "me@home.example"}, want: "email: expected me@work.example, this clone commits as me@home.example"},
		{config: []string{"author.email", "me@home.example"}, want: "this clone authors commits as me@home.example"},
		{env: "env@home.example", want: "this clone authors commits as env@home.example"},
		{config: []string{"remote.origin.pushurl", "git@gh-home:o/r.git"}, want: "remote-host: remote origin pushes to host gh-home (git@gh-home:o/r.git), expected gh-work"},
		{config: []string{"url.git@gh-home:.pushInsteadOf", "git@gh-work:"}, want: "remote origin pushes to host gh-home"},
		{config: []string{"url.https://elsewhere.example/.insteadOf", "git@gh-work:"}, want: "remote origin points at host elsewhere.example"},
	} {
		dir := newRepo()
		if c.config != nil {
			git(t, dir, append([]string{"config"}, c.config...)...)
		}
		env := hermetic()
		if c.env != "" {
			env = hermetic("GIT_AUTHOR_EMAIL", c.env)
		}
		got := idCase{dir: dir, knobs: live, env: env}.run(t)
		wantCode(t, got, 1)
		wantOut(t, got, c.want)
	}
}
