package gates

// check-identity: every expectation in the identity manifest matches this
// clone's identity. Three kinds, all local reads: the committer email, a
// remote's host (an SSH alias compares as the alias) and the GitHub CLI's
// persisted active account. Performing the mapping stays git's and the
// CLI's job; the gate only asserts that it applied here.

import (
	"bytes"
	"fmt"
	"go.yaml.in/yaml/v3"
	"runtime"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/patterns"
	"github.com/gate-sdk/gates/internal/spawn"
)

// expectation is one parsed manifest line.
type expectation struct {
	kind   string   // "email", "remote-host" or "gh-account"
	line   int      // manifest line
	fields []string // the values after the key
}

// identityKinds maps each key to its field count, key included.
var identityKinds = map[string]int{"email": 2, "remote-host": 3, "gh-account": 2}

func checkIdentity(c *gate.Context) int {
	if len(c.Args) > 0 {
		return c.Refuse("usage: check-identity (the manifest is GATE_SDK_IDENTITY_FILE)")
	}
	k := map[string]string{}
	for _, name := range []string{"GATE_SDK_IDENTITY_FILE", "GATE_SDK_GIT_EMAIL_FILE", "GATE_SDK_GIT_REMOTES_FILE", "GATE_SDK_GH_HOSTS_FILE", "GATE_SDK_GH_HOST"} {
		v, err := c.Knobs.Scalar(name)
		if err != nil {
			return c.RefuseErr(err)
		}
		k[name] = v
	}
	emailFile, remotesFile := k["GATE_SDK_GIT_EMAIL_FILE"], k["GATE_SDK_GIT_REMOTES_FILE"]
	// assertion A: a CI run steps aside before any read, unless both clone
	// actuals come from files, which makes the run a configured read.
	if c.Getenv("CI") != "" && (emailFile == "" || remotesFile == "") {
		return c.NewReport(nil).Nothing("CI run: a CI checkout is not a committing clone, identity not checked")
	}

	// assertion B: an absent, empty or comment-only manifest is clean with
	// a note; a malformed line (unknown key, wrong field count) refuses.
	manifest := k["GATE_SDK_IDENTITY_FILE"]
	if manifest == "" {
		return c.NewReport(nil).Nothing("GATE_SDK_IDENTITY_FILE is empty: no identity expected")
	}
	data, present, err := readOptional(c, manifest)
	if err != nil {
		return c.RefuseErr(err)
	}
	if !present {
		return c.NewReport(nil).Nothing("no manifest at " + manifest + ": no identity expected")
	}
	var exps []expectation
	for _, l := range patterns.LiveLines(data) {
		f := strings.Fields(l.Text)
		want, known := identityKinds[f[0]]
		if !known {
			return c.Refuse("%s:%d: unknown key %q (expected email, remote-host or gh-account)", manifest, l.N, f[0])
		}
		if len(f) != want {
			return c.Refuse("%s:%d: %s takes %d field(s) after the key, got %d", manifest, l.N, f[0], want-1, len(f)-1)
		}
		exps = append(exps, expectation{kind: f[0], line: l.N, fields: f[1:]})
	}
	if len(exps) == 0 {
		return c.NewReport(nil).Nothing(manifest + " expects nothing")
	}

	act := &identityActuals{c: c, emailFile: emailFile, remotesFile: remotesFile}
	ghHost := k["GATE_SDK_GH_HOST"]
	r := c.NewReport(map[string]string{
		"email":      "map this clone to the expected committer: git config user.email <expected> (or an includeIf block in your global config)",
		"remote":     "point the remote at the expected host (an SSH alias is compared as written): git remote add|set-url <remote> <url>",
		"gh-account": fmt.Sprintf("switch the GitHub CLI's active account: gh auth login --hostname %s, or gh auth switch --hostname %s --user <login>", ghHost, ghHost),
	})
	verified, unverified := 0, ""
	for _, e := range exps {
		where := fmt.Sprintf("%s:%d", manifest, e.line)
		switch e.kind {
		case "email":
			// assertion C: the committer email equals the expected one.
			got, err := act.email()
			if err != nil {
				return c.RefuseErr(err)
			}
			if got != e.fields[0] {
				r.Add(gate.Finding{Class: "email", Path: manifest, Line: e.line,
					Msg: fmt.Sprintf("email: expected %s, this clone commits as %s", e.fields[0], orUnset(got))})
			} else if au := act.author(); au != e.fields[0] {
				r.Add(gate.Finding{Class: "email", Path: manifest, Line: e.line,
					Msg: fmt.Sprintf("email: expected %s, this clone authors commits as %s (author.email or GIT_AUTHOR_EMAIL overrides the committer's)", e.fields[0], orUnset(au))})
			}
		case "remote-host":
			// assertion D: the named remote exists and its URL's host part
			// equals the expected host; an absent remote is a finding.
			name, want := e.fields[0], e.fields[1]
			urls, ok, err := act.remote(name)
			if err != nil {
				return c.RefuseErr(err)
			}
			if !ok {
				r.Add(gate.Finding{Class: "remote", Path: manifest, Line: e.line,
					Msg: fmt.Sprintf("remote-host: remote %s is absent from this clone (expected host %s)", name, want)})
				break
			}
			for _, u := range urls {
				if remoteHost(u.url) == want {
					continue
				}
				verb := "points at"
				if u.push {
					verb = "pushes to"
				}
				r.Add(gate.Finding{Class: "remote", Path: manifest, Line: e.line,
					Msg: fmt.Sprintf("remote-host: remote %s %s host %s (%s), expected %s", name, verb, orUnset(remoteHost(u.url)), u.url, want)})
			}
		case "gh-account":
			// assertion E: the CLI's persisted active account for the host
			// equals the expected login; absence is graded.
			login := e.fields[0]
			if ghHost == "" {
				return c.Refuse("%s: gh-account: GATE_SDK_GH_HOST is empty, so no host block can be read", where)
			}
			hosts, err := ghHostsFile(c, k["GATE_SDK_GH_HOSTS_FILE"], runtime.GOOS)
			if err != nil {
				return c.Refuse("%s: gh-account: %v", where, err)
			}
			data, present, err := readOptional(c, hosts)
			if err != nil {
				return c.Refuse("%s: gh-account: %v", where, err)
			}
			if !present {
				// No CLI config: nothing can push through the CLI here.
				unverified = fmt.Sprintf("; gh-account unverified: no GitHub CLI hosts file at %s (fail-open: no CLI login here to misuse)", hosts)
				continue
			}
			user, found, err := ghActiveUser(data, ghHost)
			if err != nil {
				return c.Refuse("%s: gh-account: cannot read the active account from %s: %v", where, hosts, err)
			}
			if !found {
				r.Add(gate.Finding{Class: "gh-account", Path: manifest, Line: e.line,
					Msg: fmt.Sprintf("gh-account: %s has no block for host %s, so the CLI is not logged in there (expected %s)", hosts, ghHost, login)})
			} else if user != login {
				r.Add(gate.Finding{Class: "gh-account", Path: manifest, Line: e.line,
					Msg: fmt.Sprintf("gh-account: the GitHub CLI's active account for %s is %s, expected %s", ghHost, user, login)})
			}
		}
		verified++
	}
	return r.Done(fmt.Sprintf("%d identity expectations matched%s", verified, unverified))
}

func orUnset(s string) string {
	if s == "" {
		return "(unset)"
	}
	return s
}

// identityActuals reads the clone's identity once per run, from the
// standing-in files when configured and from git otherwise.
type identityActuals struct {
	c                      *gate.Context
	emailFile, remotesFile string
	probed                 bool

	emailRead bool
	emailVal  string // the committer's
	authorVal string

	remotesRead bool
	remotes     map[string]string // name -> url; from the file
	liveNames   map[string]bool   // names git lists
}

// clone refuses a live read outside a repository.
func (a *identityActuals) clone() error {
	if a.probed {
		return nil
	}
	if err := probeRepo(a.c); err != nil {
		return err
	}
	a.probed = true
	return nil
}

func (a *identityActuals) email() (string, error) {
	if a.emailRead {
		return a.emailVal, nil
	}
	a.emailRead = true
	if a.emailFile != "" {
		data, err := readOperand(a.c, a.emailFile, "GATE_SDK_GIT_EMAIL_FILE")
		if err != nil {
			return "", err
		}
		a.emailVal = strings.TrimSpace(string(firstLine(data)))
		a.authorVal = a.emailVal
		return a.emailVal, nil
	}
	if err := a.clone(); err != nil {
		return "", err
	}
	// assertion C: the emails are the ones git will record, asked of git
	// itself (git var), so every override applies as git applies it:
	// committer.email and author.email over user.email, GIT_COMMITTER_EMAIL
	// and GIT_AUTHOR_EMAIL over both (the hook runs with the commit's
	// --author exported there), EMAIL and auto-detection last.
	var err error
	if a.emailVal, err = gitIdentEmail(a.c, "GIT_COMMITTER_IDENT"); err != nil {
		return "", err
	}
	if a.authorVal, err = gitIdentEmail(a.c, "GIT_AUTHOR_IDENT"); err != nil {
		return "", err
	}
	return a.emailVal, nil
}

// author answers the author email; email must have been read first.
func (a *identityActuals) author() string { return a.authorVal }

// gitIdentEmail answers the email of one of git's identities (git var
// GIT_COMMITTER_IDENT or GIT_AUTHOR_IDENT), "" when git cannot determine
// one (it would refuse to commit).
func gitIdentEmail(c *gate.Context, which string) (string, error) {
	unset, extra := identEnv(c)
	done, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: []string{"var", which}, Dir: c.Dir, Env: c.ChildEnviron(), UnsetEnv: unset, ExtraEnv: extra, Recorder: c.Spawns})
	if err != nil {
		return "", err
	}
	out, ok := done.Stdout()
	if !ok {
		if bytes.Contains(done.Stderr(), []byte("identity unknown")) {
			return "", nil
		}
		report, _ := done.FailureReport()
		return "", fmt.Errorf("git var %s failed: %s", which, report)
	}
	return identEmail(string(out)), nil
}

// identVars are the variables that decide which identity git records:
// the identity overrides themselves and where git finds its global
// config.
var identVars = []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME", "EMAIL",
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM", "HOME", "XDG_CONFIG_HOME"}

// identEnv hands git the identity variables exactly as the gate's own
// environment holds them, absence included (the battery's, the hook's,
// or a test's), rather than whatever this process inherited.
func identEnv(c *gate.Context) (unset, extra []string) {
	if c.Env == nil {
		return nil, nil // no environment of its own: git inherits this process's
	}
	for _, k := range identVars {
		if v, ok := c.Env(k); ok {
			extra = append(extra, k+"="+v)
		}
	}
	return identVars, extra
}

// identEmail reads the email of an ident line "Name <email> <time> <tz>".
func identEmail(ident string) string {
	open := strings.LastIndexByte(ident, '<')
	if open < 0 {
		return ""
	}
	closing := strings.IndexByte(ident[open:], '>')
	if closing < 0 {
		return ""
	}
	return ident[open+1 : open+closing]
}

// remoteURL is one URL a remote uses, as git rewrites it.
type remoteURL struct {
	url  string
	push bool // a push URL (pushurl, pushInsteadOf), not a fetch one
}

// remote answers the URLs a remote uses and whether the clone has that
// remote. Live, they are git's own answers after every rewrite: the fetch
// URLs (insteadOf applied) and, where they differ, the push URLs
// (pushurl, then pushInsteadOf, applied); from the stand-in file, the one
// URL given serves both.
func (a *identityActuals) remote(name string) ([]remoteURL, bool, error) {
	if !a.remotesRead {
		a.remotesRead = true
		if a.remotesFile != "" {
			data, err := readOperand(a.c, a.remotesFile, "GATE_SDK_GIT_REMOTES_FILE")
			if err != nil {
				return nil, false, err
			}
			a.remotes = map[string]string{}
			for _, l := range patterns.LiveLines(data) {
				f := strings.Fields(l.Text)
				if len(f) != 2 {
					return nil, false, fmt.Errorf("%s:%d: expected <remote> <url>, got %q", a.remotesFile, l.N, l.Text)
				}
				if _, dup := a.remotes[f[0]]; !dup {
					a.remotes[f[0]] = f[1]
				}
			}
		} else {
			if err := a.clone(); err != nil {
				return nil, false, err
			}
			out, err := runGit(a.c, "remote")
			if err != nil {
				return nil, false, err
			}
			a.liveNames = map[string]bool{}
			for _, n := range strings.Fields(string(out)) {
				a.liveNames[n] = true
			}
		}
	}
	if a.remotes != nil {
		url, ok := a.remotes[name]
		if !ok {
			return nil, false, nil
		}
		return []remoteURL{{url: url}}, true, nil
	}
	if !a.liveNames[name] {
		return nil, false, nil
	}
	// assertion D: where the clone pushes is git's answer too: pushurl and
	// pushInsteadOf decide it, so a fetch URL on the right host cannot
	// hide a push to the wrong one.
	var urls []remoteURL
	seen := map[string]bool{}
	for _, push := range []bool{false, true} {
		args := []string{"remote", "get-url", "--all", name}
		if push {
			args = []string{"remote", "get-url", "--push", "--all", name}
		}
		out, err := runGit(a.c, args...)
		if err != nil {
			return nil, false, err
		}
		for _, u := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
			if u = strings.TrimSpace(u); u == "" || seen[u] {
				continue
			}
			seen[u] = true
			urls = append(urls, remoteURL{url: u, push: push})
		}
	}
	return urls, true, nil
}

// remoteHost answers the host part of a remote URL as the identity
// selector sees it: scheme://[user@]host[:port]/... answers host, and the
// scp-like [user@]alias:path answers alias. A local path has none.
func remoteHost(url string) string {
	if i := strings.Index(url, "://"); i >= 0 {
		rest := url[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			rest = rest[:j]
		}
		if j := strings.LastIndexByte(rest, '@'); j >= 0 {
			rest = rest[j+1:]
		}
		if strings.HasPrefix(rest, "[") {
			if j := strings.IndexByte(rest, ']'); j >= 0 {
				return rest[1:j]
			}
		}
		if j := strings.IndexByte(rest, ':'); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	colon := strings.IndexByte(url, ':')
	if colon < 0 {
		return ""
	}
	if slash := strings.IndexByte(url, '/'); slash >= 0 && slash < colon {
		return "" // a local path that happens to hold a colon
	}
	host := url[:colon]
	if j := strings.LastIndexByte(host, '@'); j >= 0 {
		host = host[j+1:]
	}
	return host
}

// ghHostsFile answers where the GitHub CLI keeps its hosts file: the
// configured knob, else derived the way the CLI derives its config
// directory. With nothing to derive from, it refuses, since a path
// composed from nothing would read as absent, the one false clean the
// account kind exists to refuse.
func ghHostsFile(c *gate.Context, configured, goos string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	if d := c.Getenv("GH_CONFIG_DIR"); d != "" {
		return strings.TrimRight(d, "/\\") + "/hosts.yml", nil
	}
	if d := c.Getenv("XDG_CONFIG_HOME"); d != "" {
		return strings.TrimRight(d, "/\\") + "/gh/hosts.yml", nil
	}
	if goos == "windows" {
		if d := c.Getenv("AppData"); d != "" {
			return strings.TrimRight(d, "/\\") + "/GitHub CLI/hosts.yml", nil
		}
	}
	if d := c.Getenv("HOME"); d != "" {
		return strings.TrimRight(d, "/\\") + "/.config/gh/hosts.yml", nil
	}
	return "", fmt.Errorf("cannot locate the GitHub CLI hosts file: GATE_SDK_GH_HOSTS_FILE, GH_CONFIG_DIR, XDG_CONFIG_HOME and HOME are all unset")
}

// ghActiveUser reads the GitHub CLI hosts file with the YAML parser, in
// any form YAML allows (block or flow, quoted keys, anchors, a byte-order
// mark): inside the top-level mapping's entry for host, the value of its
// key "user". found is false when the file has no entry for host. A file
// that does not parse, whose top is not a mapping, or whose host entry
// has no user key, two of them or no scalar value, is an error, so a
// format change never silently retires the check.
func ghActiveUser(data []byte, host string) (user string, found bool, err error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return "", false, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return "", false, nil // an empty file: logged in nowhere
	}
	top := deref(doc.Content[0])
	if top.Kind != yaml.MappingNode {
		return "", false, fmt.Errorf("line %d: the file's top is not a mapping of hosts", top.Line)
	}
	var block *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		if deref(top.Content[i]).Value == host {
			if block != nil {
				return "", true, fmt.Errorf("line %d repeats the %s entry", top.Content[i].Line, host)
			}
			block = deref(top.Content[i+1])
		}
	}
	if block == nil {
		return "", false, nil
	}
	if block.Kind != yaml.MappingNode {
		return "", true, fmt.Errorf("line %d: the %s entry is not a mapping", block.Line, host)
	}
	haveUser := false
	for i := 0; i+1 < len(block.Content); i += 2 {
		k, v := deref(block.Content[i]), deref(block.Content[i+1])
		if k.Value != "user" {
			continue
		}
		if haveUser {
			return "", true, fmt.Errorf("line %d repeats the user key of the %s block", k.Line, host)
		}
		if v.Kind != yaml.ScalarNode {
			return "", true, fmt.Errorf("line %d: the %s block's user is not a single value", v.Line, host)
		}
		haveUser, user = true, v.Value
	}
	if !haveUser {
		return "", true, fmt.Errorf("the %s block has no user key", host)
	}
	if user == "" {
		return "", true, fmt.Errorf("the %s block's user key has no value", host)
	}
	return user, true, nil
}

// deref answers the node an alias stands for (the node itself otherwise).
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}
