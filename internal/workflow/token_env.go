package workflow

import (
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/lazyre"
)

// OtherToken reports whether a value hands over a token that is not the
// job's GitHub token: an expression naming a secret or a step's output
// (a personal token, a bot's, one a GitHub App step minted) that spells
// no GitHub token anywhere in it. A literal, an empty value, or anything
// naming the GitHub token (secrets.GITHUB_TOKEN, github.token, a
// fallback such as `secrets.PAT || github.token`) is not another token.
func OtherToken(v string) bool {
	if !strings.Contains(v, "${{") || HasTokenRef(v) {
		return false
	}
	l := strings.ToLower(v)
	return strings.Contains(l, "secrets.") || strings.Contains(l, "secrets[") || strings.Contains(l, "steps.")
}

// envValue answers the value an env: entry gives name, and whether it
// names it at all (a value that is not a scalar answers "", true).
func envValue(e *Entry, name string) (string, bool) {
	if e == nil {
		return "", false
	}
	c := Child(e.Value, name)
	if c == nil {
		return "", false
	}
	v, _ := scalar(c)
	return v, true
}

// ghOnOtherToken reports whether gh, called in step s of job j, runs on a
// token other than the GitHub token. gh reads GH_TOKEN first and
// GITHUB_TOKEN when GH_TOKEN is unset; each resolves the step's env:
// first, then the job's, then the workflow's.
func ghOnOtherToken(f *File, j *Job, s *Step) bool {
	v, _ := ghEnvToken(f, j, s)
	return OtherToken(v)
}

// ghEnvToken answers the value gh's token takes from the env: blocks in
// force for step s (GH_TOKEN over GITHUB_TOKEN, the step's over the job's
// over the workflow's), and whether any of them sets one.
func ghEnvToken(f *File, j *Job, s *Step) (string, bool) {
	for _, name := range []string{"GH_TOKEN", "GITHUB_TOKEN"} {
		for _, e := range []*Entry{s.Env, j.Env, f.Env} {
			if v, ok := envValue(e, name); ok {
				return v, true
			}
		}
	}
	return "", false
}

// loginPat is gh auth login reading its token from standard input: the
// value echoed or printed into it, or the word of a here-string.
var loginPat = lazyre.New(`(?:(?:echo|printf(?:\s+'%s'|\s+"%s")?)\s+("?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"?|"?\$\{\{[^}]*\}\}"?)\s*\|\s*gh\s+auth\s+login\b[^|;&]*--with-token|gh\s+auth\s+login\b[^|;&]*--with-token[^|;&]*<<<\s*("?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"?|"?\$\{\{[^}]*\}\}"?))`)

// loginToken answers the token a body line hands gh auth login
// --with-token, resolved through the step's, job's and workflow's env:
// when it names a variable, and whether the line logs in so.
func loginToken(f *File, j *Job, s *Step, line string) (string, bool) {
	m := loginPat.Get().FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	v := strings.Trim(m[1]+m[2], `"`)
	if strings.HasPrefix(v, "${{") {
		return v, true
	}
	name := strings.Trim(strings.TrimPrefix(v, "$"), "{}")
	for _, e := range []*Entry{s.Env, j.Env, f.Env} {
		if val, ok := envValue(e, name); ok {
			return val, true
		}
	}
	// A name no env: block sets (the body's own, or the runner's): the
	// token it holds is unknown, so it counts as the GitHub token.
	return "${{ github.token }}", true
}

// checkoutOnOtherToken reports whether a checkout step is handed another
// token as its token: input (with no such input it uses the GitHub
// token).
func checkoutOnOtherToken(s *Step) bool {
	with := Child(s.Node, "with")
	if with == nil {
		return false
	}
	v, ok := scalar(Child(with.Value, "token"))
	return ok && OtherToken(v)
}

// exportPat is a body line exporting gh's token: export GH_TOKEN=… or
// export GITHUB_TOKEN=… (the value up to a blank or a separator).
var exportPat = lazyre.New(`(?:^|[;&|]\s*|\s)export\s+(GH_TOKEN|GITHUB_TOKEN)=("[^"]*"|'[^']*'|[^\s;&|]*)`)

// exportedToken answers the token a body line exports for the calls after
// it (GH_TOKEN over GITHUB_TOKEN), and whether it exports one.
func exportedToken(line string) (string, bool) {
	v, found := "", false
	for _, m := range exportPat.Get().FindAllStringSubmatch(line, -1) {
		if m[1] == "GH_TOKEN" || !found {
			v, found = m[2], true
		}
	}
	return v, found
}

// CheckoutPath answers the path: (cleaned, "." for the workspace itself)
// a checkout step places a repository at, and whether that repository is
// this one (no repository: input, or the event's own); ok is false for a
// step that is no actions/checkout, or names its path or repository by an
// expression this reading cannot settle.
func CheckoutPath(s *Step) (at string, own, ok bool) {
	if s == nil || !IsCheckout(UsesRef(s.Uses)) {
		return "", false, false
	}
	with := Child(s.Node, "with")
	if with == nil {
		return ".", true, true
	}
	own = true
	if r, has := scalar(Child(with.Value, "repository")); has {
		r = strings.TrimSpace(r)
		switch {
		case r == "" || strings.Contains(r, "github.repository"):
		case strings.Contains(r, "${{"):
			return "", false, false
		default:
			own = false
		}
	}
	p, has := scalar(Child(with.Value, "path"))
	if !has || strings.TrimSpace(p) == "" {
		return ".", own, true
	}
	p = strings.TrimSpace(p)
	// path-dialect-exempt: a checkout input's text, relative to the runner's workspace, never opened here
	if strings.Contains(p, "${{") || strings.HasPrefix(p, "/") {
		return "", false, false
	}
	return path.Clean(p), own, true
}
