package workflow

import "strings"

// callWords splits one call's text, from its gh word on, into its shell
// words up to where the call ends: an unquoted ; & | ( ) or backquote, or
// an unquoted word opening with #. Quotes are read (single, double, and a
// backslash escape), so a pipe inside a --jq program or a $(...) inside a
// --body "..." is part of its word; an unquoted $(...) is kept whole in
// the word it opens. The words come back with their quotes removed.
func callWords(s string) []string { return ShellWords(s) }

// ShellWords is callWords for other readers: one command's shell words,
// quotes read and removed, up to where the command ends.
func ShellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false // inside a word
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isSpace(c):
			flush()
		case c == '#' && !in:
			return words
		case c == '\'':
			in = true
			k := strings.IndexByte(s[i+1:], '\'')
			if k < 0 {
				cur.WriteString(s[i+1:])
				flush()
				return words
			}
			cur.WriteString(s[i+1 : i+1+k])
			i += k + 1
		case c == '"':
			in = true
			k := i + 1
			for k < len(s) && s[k] != '"' {
				if s[k] == '\\' && k+1 < len(s) {
					k++
				}
				k++
			}
			cur.WriteString(s[i+1 : min(k, len(s))])
			i = k
		case c == '\\' && i+1 < len(s):
			in = true
			cur.WriteByte(s[i+1])
			i++
		case c == '$' && i+1 < len(s) && s[i+1] == '(':
			// An unquoted substitution stays in its word, to its close.
			in = true
			depth, k := 0, i+1
			for ; k < len(s); k++ {
				if s[k] == '(' {
					depth++
				} else if s[k] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			cur.WriteString(s[i:min(k+1, len(s))])
			i = k
		case opByte(c) || c == ')':
			flush()
			return words
		default:
			in = true
			cur.WriteByte(c)
		}
	}
	flush()
	return words
}

// noRepoCommands are gh's top-level commands that read no repository:
// an account, the local configuration, gists, extensions, search across
// GitHub, and gh's own help and version.
var noRepoCommands = map[string]bool{
	"auth": true, "config": true, "extension": true, "extensions": true, "ext": true,
	"gist": true, "search": true, "help": true, "version": true, "completion": true,
	"alias": true, "ssh-key": true, "gpg-key": true, "org": true, "status": true,
	"--version": true, "--help": true, "-h": true,
}

// repoOperand are the gh repo subcommands whose operand, when given,
// names the repository they act on; create and list need none at all.
var repoOperand = map[string]bool{
	"view": true, "clone": true, "fork": true, "edit": true, "archive": true,
	"unarchive": true, "delete": true, "sync": true,
}

// boolFlags are the gh flags that take no value, so the word after one is
// not its argument (any other flag spelled without = takes the next word).
var boolFlags = map[string]bool{
	"--clone": true, "--remote": true, "--default-branch-only": true, "--yes": true, "-y": true,
	"--web": true, "-w": true, "--force": true, "--confirm": true, "--private": true,
	"--public": true, "--internal": true, "--paginate": true, "--slurp": true, "--silent": true,
	"--include": true, "-i": true, "--verbose": true,
	"--auto": true, "--disable-auto": true, "--squash": true, "--merge": true,
	"--rebase": true, "--delete-branch": true, "--admin": true,
	"--approve": true, "-a": true, "--request-changes": true, "-r": true,
}

// selectorCommands are gh's commands that act on one issue or pull
// request given as their first operand, a number or a URL.
var selectorCommands = map[string]bool{"issue": true, "pr": true}

// selectorNoOperand are their subcommands that take no such operand.
var selectorNoOperand = map[string]bool{"list": true, "create": true, "status": true}

// urlSelector reports an issue or pull request operand that names its
// repository: a github URL of one (https://<host>/OWNER/REPO/issues/N or
// /pull/N), which gh reads the repository from, or a GitHub expression of
// the event's issue or pull request html_url, which is always one. A
// number, or a variable whose value the tree does not show, is not.
func urlSelector(args []string, urlVars map[string]bool) bool {
	for i := 0; i < len(args); i++ {
		// The call's reader keeps an expression's blanks as byte 1.
		w := strings.ReplaceAll(args[i], "\x01", " ")
		if w == "--" {
			continue
		}
		if strings.HasPrefix(w, "-") {
			if !strings.Contains(w, "=") && !boolFlags[w] {
				i++ // the flag's value
			}
			continue
		}
		if strings.HasPrefix(w, "${{") {
			// An expression split at its blanks is joined again.
			for !strings.Contains(w, "}}") && i+1 < len(args) {
				i++
				w += " " + args[i]
			}
			e := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(w), "${{"), "}}"))
			return e == "github.event.issue.html_url" || e == "github.event.pull_request.html_url"
		}
		if name, ok := VarRef(strings.Trim(w, `"`)); ok {
			// A variable the step's env: sets to such a URL.
			return urlVars[name]
		}
		rest, ok := strings.CutPrefix(w, "https://")
		if !ok {
			return false
		}
		parts := strings.Split(rest, "/")
		return len(parts) >= 5 && parts[1] != "" && parts[2] != "" &&
			(parts[3] == "issues" || parts[3] == "pull") && parts[4] != ""
	}
	return false
}

// namesRepo reports whether a gh call names the repository it acts on, or
// needs none: --repo/-R anywhere in its own extent; gh api with no
// {owner}, {repo} or {branch} placeholder (the only parts gh fills from
// the repository context); a gh repo subcommand with an OWNER/REPO
// operand, or create and list; a command that reads no repository. s
// starts at the gh word.
func namesRepo(s string) bool { return namesRepoIn(s, nil) }

// namesRepoIn is namesRepo where the names in urlVars hold the URL of an
// issue or pull request (the env: in scope sets them so).
func namesRepoIn(s string, urlVars map[string]bool) bool {
	words := callWords(s)
	if len(words) < 2 {
		return false
	}
	args := words[1:]
	for _, w := range args {
		if w == "--" {
			break
		}
		if w == "--repo" || strings.HasPrefix(w, "--repo=") || strings.HasPrefix(w, "-R") {
			return true
		}
	}
	cmd := args[0]
	switch {
	case noRepoCommands[cmd]:
		return true
	case cmd == "api":
		for _, w := range args[1:] {
			if strings.Contains(w, "{owner}") || strings.Contains(w, "{repo}") || strings.Contains(w, "{branch}") {
				return false
			}
		}
		return true
	case selectorCommands[cmd] && len(args) > 1 && !selectorNoOperand[args[1]]:
		return urlSelector(args[2:], urlVars)
	case cmd == "repo" && len(args) > 1:
		sub := args[1]
		if sub == "create" || sub == "list" {
			return true
		}
		if !repoOperand[sub] {
			return false
		}
		for i := 2; i < len(args); i++ {
			w := args[i]
			if w == "--" {
				break
			}
			if strings.HasPrefix(w, "-") {
				if !strings.Contains(w, "=") && !boolFlags[w] {
					i++ // the flag's value
				}
				continue
			}
			return repoShaped(w)
		}
	}
	return false
}

// repoShaped reports an operand naming a repository: OWNER/REPO, a
// github URL of one, or a value that expands to one at run time (a
// variable or an expression).
func repoShaped(w string) bool {
	if strings.Contains(w, "$") {
		return true
	}
	w = strings.TrimSuffix(w, ".git")
	for _, p := range []string{"https://", "http://", "git@"} {
		if rest, ok := strings.CutPrefix(w, p); ok {
			_, w, _ = strings.Cut(strings.Replace(rest, ":", "/", 1), "/")
			break
		}
	}
	owner, name, ok := strings.Cut(w, "/")
	return ok && owner != "" && name != "" && !strings.Contains(name, "/")
}

// VarRef reads a word that is one variable expansion, $NAME or ${NAME},
// and answers the name.
func VarRef(w string) (string, bool) {
	if !strings.HasPrefix(w, "$") {
		return "", false
	}
	n := w[1:]
	if strings.HasPrefix(n, "{") && strings.HasSuffix(n, "}") {
		n = n[1 : len(n)-1]
	}
	if n == "" || !isName(n) {
		return "", false
	}
	return n, true
}

// URLVars answers the names the env: blocks in scope of step s (the
// step's, the job's, the workflow's; the nearest wins) set to the URL of
// an issue or pull request: the event's html_url, or a literal one.
func URLVars(f *File, j *Job, s *Step) map[string]bool {
	out := map[string]bool{}
	seen := map[string]bool{}
	for _, e := range []*Entry{s.Env, j.Env, f.Env} {
		for _, name := range EnvKeys(e) {
			if seen[name] {
				continue
			}
			seen[name] = true
			v, ok := envValue(e, name)
			if ok && urlSelector([]string{strings.ReplaceAll(strings.TrimSpace(v), " ", "\x01")}, nil) {
				out[name] = true
			}
		}
	}
	return out
}
