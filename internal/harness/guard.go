package harness

import (
	"path/filepath"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// Verdict is what commit-guard read off one shell command.
type Verdict struct {
	// Bypass names each way the command would get past the git hooks.
	Bypass []string
	// Messages are the messages of each `git commit` whose message the
	// command spells out (-m, --message, a quoted here-document behind
	// `$(cat <<'EOF' …)`, or `-F -` fed a here-document), as git would
	// assemble them.
	Messages []string
	// Files are the message files of each `git commit -F <file>` the
	// guard may read before the command runs: none of the command's own
	// redirections writes them and no `cd` stands before them.
	Files []MessageFile
	// Unread names each command whose program is an expansion the guard
	// cannot resolve: the rule is not enforced on it, and the member says
	// so.
	Unread []string
	// Commits reports a `git commit` among the commands.
	Commits bool
	// Cleans are the `git clean` runs that remove ignored files (-x or
	// -X), and the `git stash --all` runs that put them away, either of
	// which may take the gates binary with them.
	Cleans []Clean
	// Away holds what a git aimed at a named directory other than the
	// command's own (`git -C <dir>`, or after `cd <dir>`) would do there;
	// Here folds in the ones that are this repository after all.
	Away []Away
}

// Away is the verdict of the git commands aimed at Dir (as written,
// relative to the command's own directory).
type Away struct {
	Dir string
	V   Verdict
}

// Here folds into v every Away entry whose directory elsewhere does not
// place in another repository, and drops the others: a commit there is
// that repository's business.
func (v Verdict) Here(elsewhere func(dir string) bool) Verdict {
	out := v
	out.Away = nil
	for _, a := range v.Away {
		if elsewhere(a.Dir) {
			continue
		}
		w := a.V.Here(elsewhere)
		out.Bypass = append(out.Bypass, w.Bypass...)
		out.Messages = append(out.Messages, w.Messages...)
		out.Files = append(out.Files, w.Files...)
		out.Unread = append(out.Unread, w.Unread...)
		out.Commits = out.Commits || w.Commits
		for _, c := range w.Cleans {
			c.Dir = a.Dir // where the cd and the -C operands put git
			out.Cleans = append(out.Cleans, c)
		}
	}
	return out
}

// Clean is one `git clean` that removes ignored files: the directory git
// stands in (as written, "" for the command's own), its -e patterns and
// its pathspecs. Only marks -X (ignored files only), under which an -e
// pattern adds to the ignore rules; Stash marks a `git stash --all`,
// which takes ignored files off the disk into the stash.
type Clean struct {
	Dir      string
	Excludes []string
	Paths    []string
	Only     bool
	Stash    bool
}

// clean reads `git clean`'s operands: it matters only when it removes
// ignored files for real (-x or -X, no -n).
func (v *Verdict) clean(args []string, dir string) {
	var c Clean
	x, dry := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			c.Paths = append(c.Paths, args[i+1:]...)
			i = len(args)
		case a == "--dry-run":
			dry = true
		case a == "--exclude" && i+1 < len(args):
			c.Excludes = append(c.Excludes, args[i+1])
			i++
		case strings.HasPrefix(a, "--exclude="):
			c.Excludes = append(c.Excludes, strings.TrimPrefix(a, "--exclude="))
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'x':
					x = true
				case 'X':
					x, c.Only = true, true
				case 'n':
					dry = true
				case 'e':
					if rest := a[j+1:]; rest != "" {
						c.Excludes = append(c.Excludes, rest)
					} else if i+1 < len(args) {
						c.Excludes = append(c.Excludes, args[i+1])
						i++
					}
					j = len(a)
				}
			}
		default:
			c.Paths = append(c.Paths, a)
		}
	}
	if x && !dry {
		c.Dir = dir
		v.Cleans = append(v.Cleans, c)
	}
}

// stash reads `git stash`'s operands: it matters only when a push (or
// save, or no subcommand) takes ignored files too (-a, --all).
func (v *Verdict) stash(args []string, dir string) {
	sub := "push"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	if sub != "push" && sub != "save" {
		return
	}
	c := Clean{Stash: true}
	all := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			c.Paths = append(c.Paths, args[i+1:]...)
			i = len(args)
		case a == "--all":
			all = true
		case a == "--message" || a == "--pathspec-from-file":
			i++
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'a':
					all = true
				case 'm':
					if a[j+1:] == "" {
						i++
					}
					j = len(a)
				}
			}
		default:
			if sub == "push" {
				c.Paths = append(c.Paths, a)
			}
		}
	}
	if all {
		c.Dir = dir
		v.Cleans = append(v.Cleans, c)
	}
}

// MessageFile is a `git commit -F` operand: Path as written, Dir the
// directory git would stand in relative to the command's own (the joined
// `-C` operands), "" for the command's own.
type MessageFile struct {
	Path string
	Dir  string
}

// maxNesting bounds how deep `sh -c '…'` and `eval` strings are re-read.
const maxNesting = 4

// word is one shell word with its quoting removed; dyn marks a word that
// holds an expansion, whose value is known only when the shell runs,
// unless static resolved it (a quoted here-document read by cat).
type word struct {
	s   string
	dyn bool
}

// simple is one simple command as the guard judges it: its words, what
// feeds its stdin when the command line says (a here-document or
// here-string), and whether a `cd` ran before it on the line.
type simple struct {
	ws []word
	// stdin is the text a here-document or here-string hands the command;
	// stdinKnown is false when nothing the guard can read does.
	stdin      string
	stdinKnown bool
	afterCd    bool
	// cdDir is where the `cd`s before the command went, when each was
	// to a directory the line names ("" with afterCd false: nowhere).
	cdDir   string
	cdKnown bool
	// fresh: after a `cd` the guard cannot follow, a `git init` made a
	// repository where the line now stands.
	fresh bool
	// made are the directories (as written, against the line's place) a
	// `git init` earlier on the line made below where the line stands.
	made   []string
	writes map[string]bool // paths the line's redirections write
}

// inMade reports a directory, as written, that is one a `git init` on the
// line made, or lies under one.
func inMade(dir string, made []string) bool {
	d := filepath.ToSlash(filepath.Clean(dir))
	for _, m := range made {
		if d == m || strings.HasPrefix(d, m+"/") {
			return true
		}
	}
	return false
}

// joinDir answers dir taken against base, both as written.
func joinDir(base, dir string) string {
	if base == "" || walk.PathRoot(dir) {
		return dir
	}
	return base + "/" + dir
}

// judge reads one simple command's words into v. depth counts the shell
// strings already re-read to reach it.
func (v *Verdict) judge(sc simple, depth int, reread func(string, int) error) error {
	ws := unwrapWords(sc.ws)
	if len(ws) == 0 {
		return nil
	}
	if ws[0].dyn {
		// assertion E: a program named by an expansion is not judged; the
		// member says the rule was not enforced on it.
		v.Unread = append(v.Unread, ws[0].s)
		return nil
	}
	words := make([]string, len(ws))
	for i, w := range ws {
		words[i] = w.s
	}
	prog := filepath.Base(words[0])
	switch prog {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "busybox":
		// assertion D: a shell string is read as the command it runs.
		if s, ok := shellString(words[1:]); ok {
			return reread(s, depth+1)
		}
		return nil
	case "eval":
		return reread(strings.Join(words[1:], " "), depth+1)
	case "git", "git.exe":
		sc.ws = ws
		v.git(words[1:], ws[1:], sc)
	}
	return nil
}

// reservedLead are the reserved words that may stand before a simple
// command's name: a brace group's `{` (a function body among them), `!`,
// the `time` keyword, and the compound-command heads. `coproc` and
// `function` are read by lead.
var reservedLead = map[string]bool{
	"{": true, "}": true, "!": true, "if": true, "then": true, "elif": true, "else": true,
	"do": true, "while": true, "until": true,
}

// lead drops what stands before a simple command's program: the `)` a
// function's `()` leaves in front, reserved words, the `time` keyword with
// its -p, `coproc` (with the name of a named coprocess), `function NAME`,
// and assignments, which environment has already read.
func lead(ws []word) []word {
	for len(ws) > 0 {
		w := ws[0]
		switch {
		case isAssignment(w.s):
			ws = ws[1:]
		case w.dyn:
			return ws
		case w.s == ")" || w.s == "(" || reservedLead[w.s]:
			ws = ws[1:]
		case w.s == "time":
			ws = ws[1:]
			for len(ws) > 0 && (ws[0].s == "-p" || ws[0].s == "--") {
				ws = ws[1:]
			}
		case w.s == "coproc":
			ws = ws[1:]
			// coproc NAME { …; } and coproc NAME ( … ) name the coprocess.
			if len(ws) > 1 && (ws[1].s == "{" || ws[1].s == "(") {
				ws = ws[1:]
			}
		case w.s == "function":
			ws = ws[1:]
			if len(ws) > 0 {
				ws = ws[1:] // the function's name
			}
		default:
			return ws
		}
	}
	return ws
}

// wrappers are programs that run their operand as a command: what follows
// them (after their own options) is judged as the command.
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "env": true, "command": true, "exec": true, "nice": true,
	"nohup": true, "time": true, "timeout": true, "xargs": true, "stdbuf": true, "ionice": true,
	"chronic": true, "caffeinate": true, "builtin": true, "setsid": true,
}

// unwrapWords drops variable assignments and wrapper programs in front of
// the command, with the options of each wrapper. Options are skipped
// leaning toward finding: any dash word, and for the wrappers whose first
// operand is a value (timeout's duration), that value. `env -S <string>`
// (--split-string) splits its string into the words that follow.
func unwrapWords(words []word) []word {
	words = lead(words)
	for len(words) > 0 {
		w := words[0]
		if isAssignment(w.s) {
			words = words[1:]
			continue
		}
		if w.dyn {
			return words
		}
		base := filepath.Base(w.s)
		if !wrappers[base] {
			return words
		}
		words = words[1:]
		for len(words) > 0 {
			o := words[0].s
			if words[0].dyn {
				break
			}
			if o == "--" {
				words = words[1:]
				break
			}
			if base == "env" {
				if split, ok := envSplit(words); ok {
					words = split
					continue
				}
			}
			if strings.HasPrefix(o, "-") && o != "-" {
				words = words[1:]
				// Options whose value is the next word.
				if optionTakesValue(base, o) && len(words) > 0 {
					words = words[1:]
				}
				continue
			}
			if base == "env" && (isAssignment(o) || o == "-") {
				words = words[1:]
				continue
			}
			break
		}
		if base == "timeout" && len(words) > 0 {
			words = words[1:] // the duration
		}
	}
	return words
}

// envSplit reads env's -S/--split-string at words[0]: its string becomes
// words in place of the option and its value, as env splits it (quotes
// honoured). ok is false when words[0] is not that option.
func envSplit(words []word) ([]word, bool) {
	o := words[0].s
	var val string
	rest := words[1:]
	switch {
	case o == "-S" || o == "--split-string":
		if len(rest) == 0 {
			return nil, false
		}
		val, rest = rest[0].s, rest[1:]
	case strings.HasPrefix(o, "--split-string="):
		val = strings.TrimPrefix(o, "--split-string=")
	case strings.HasPrefix(o, "-S") && len(o) > 2:
		val = o[2:]
	default:
		return nil, false
	}
	split, err := shellWords(val)
	if err != nil {
		// Unsplittable: keep the string as one word, the program unknown.
		return append([]word{{s: val, dyn: true}}, rest...), true
	}
	out := make([]word, 0, len(split)+len(rest))
	for _, s := range split {
		out = append(out, word{s: s, dyn: strings.ContainsAny(s, "$`")})
	}
	return append(out, rest...), true
}

func optionTakesValue(wrapper, opt string) bool {
	if strings.Contains(opt, "=") {
		return false
	}
	switch wrapper {
	case "env":
		return opt == "-u" || opt == "--unset" || opt == "-C" || opt == "--chdir"
	case "sudo", "doas":
		return opt == "-u" || opt == "-g" || opt == "-C" || opt == "-D" || opt == "-p" || opt == "-r" || opt == "-t" || opt == "-U"
	case "timeout":
		return opt == "-s" || opt == "--signal" || opt == "-k" || opt == "--kill-after"
	case "nice":
		return opt == "-n" || opt == "--adjustment"
	case "xargs":
		return opt == "-I" || opt == "-L" || opt == "-n" || opt == "-P" || opt == "-s" || opt == "-d" || opt == "-E" || opt == "-a"
	case "ionice":
		return opt == "-c" || opt == "-n" || opt == "-p"
	case "stdbuf":
		return opt == "-i" || opt == "-o" || opt == "-e"
	case "time":
		return opt == "-f" || opt == "--format" || opt == "-o" || opt == "--output"
	case "exec":
		return opt == "-a"
	}
	return false
}

// isAssignment reports a NAME=value word.
func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := w[j]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// shellString finds the string of `sh -c <string>` among a shell's
// operands: -c, alone or in a cluster of short options.
func shellString(args []string) (string, bool) {
	for i, a := range args {
		if a == "--" {
			return "", false
		}
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
			if strings.HasPrefix(a, "--") {
				continue
			}
			return "", false
		}
		if strings.Contains(a[1:], "c") {
			// The first operand after the options is the string.
			for _, b := range args[i+1:] {
				if !strings.HasPrefix(b, "-") {
					return b, true
				}
			}
			return "", false
		}
	}
	return "", false
}

// git judges a git invocation's operands (after the program word).
func (v *Verdict) git(args []string, ws []word, sc simple) {
	// The global options, up to the subcommand.
	i := 0
	dir := "" // the joined -C operands, where git will stand
	dynDir := false
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-c" || a == "--config-env":
			if i+1 < len(args) {
				v.config(args[i+1], a)
			}
			i += 2
			continue
		case strings.HasPrefix(a, "-c") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			v.config(a[2:], "-c")
		case strings.HasPrefix(a, "--config-env="):
			v.config(strings.TrimPrefix(a, "--config-env="), "--config-env")
		case a == "-C" && i+1 < len(args):
			if ws[i+1].dyn {
				sc.afterCd = true // git stands somewhere the guard cannot name
				dynDir = true
			} else if dir == "" || walk.PathRoot(args[i+1]) {
				dir = args[i+1]
			} else {
				dir = dir + "/" + args[i+1]
			}
			i += 2
			continue
		// probe-literal-exempt: git's own global options, read off a command
		// the agent is about to run; nothing here asks git anything.
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--super-prefix" || a == "--list-cmds" || a == "--attr-source":
			i += 2
			continue
		case strings.HasPrefix(a, "-"):
		default:
			// assertion Y: a git aimed at a directory the line names is
			// judged apart; the member asks whether that is this
			// repository.
			if sc.fresh && !dynDir && !walk.PathRoot(dir) {
				// A repository the line itself made, at a place the
				// guard cannot name: its commits are its own business.
				return
			}
			target, known := dir, !sc.afterCd || sc.cdKnown
			if sc.afterCd && sc.cdKnown {
				target = joinDir(sc.cdDir, dir)
			}
			if known && target != "" && !dynDir && inMade(target, sc.made) {
				// A repository the line itself made below its place: its
				// commits are its own business.
				return
			}
			if known && target != "" && !dynDir {
				var w Verdict
				w.subcommand(a, args[i+1:], ws[i+1:], sc, dir)
				if len(w.Bypass)+len(w.Messages)+len(w.Files)+len(w.Unread)+len(w.Cleans) > 0 {
					v.Away = append(v.Away, Away{Dir: target, V: w})
				}
				return
			}
			v.subcommand(a, args[i+1:], ws[i+1:], sc, dir)
			return
		}
		i++
	}
}

// config judges a `-c key=value` (or `--config-env key=ENV`) pair.
func (v *Verdict) config(pair, flag string) {
	key, _, _ := strings.Cut(pair, "=")
	if isHooksPathKey(key) {
		v.Bypass = append(v.Bypass, "git "+flag+" "+pair+" points the hooks elsewhere for this command")
	}
}

// environment judges a NAME=value word anywhere in a command: git reads
// configuration from GIT_CONFIG_PARAMETERS and GIT_CONFIG_KEY_<n>, so
// either naming core.hooksPath repoints the hooks like -c does.
func (v *Verdict) environment(w string) {
	if !isAssignment(w) {
		return
	}
	name, val, _ := strings.Cut(w, "=")
	if name != "GIT_CONFIG_PARAMETERS" && !strings.HasPrefix(name, "GIT_CONFIG_KEY_") {
		return
	}
	if strings.Contains(strings.ToLower(val), "core.hookspath") {
		v.Bypass = append(v.Bypass, name+" sets core.hooksPath for the git it runs")
	}
}

func isHooksPathKey(key string) bool {
	// Section and key names are case-insensitive in git config.
	return strings.EqualFold(strings.TrimSpace(key), "core.hooksPath")
}

func (v *Verdict) subcommand(sub string, args []string, ws []word, sc simple, dir string) {
	switch sub {
	case "commit":
		v.commit(args, ws, sc, dir)
	case "push":
		if noVerify(args, false) {
			v.Bypass = append(v.Bypass, "git push --no-verify skips the pre-push hook")
		}
	case "send-pack":
		// assertion B: send-pack is a push that runs no pre-push hook, so
		// the record of what was sent never hears of it.
		v.Bypass = append(v.Bypass, "git send-pack pushes without the pre-push hook (use git push)")
	case "config":
		v.configCommand(args)
	case "clean":
		v.clean(args, dir)
	case "stash":
		v.stash(args, dir)
	}
}

// noVerify reports whether the last of --no-verify / --verify (or an
// unambiguous abbreviation, as git's option parser accepts) in args, before
// `--`, is --no-verify; shortN also counts -n in a short-option cluster.
func noVerify(args []string, shortN bool) bool {
	on := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		switch {
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a, "=")
			if len(name) >= len("--no-veri") && strings.HasPrefix("--no-verify", name) {
				on = true
			} else if len(name) >= len("--veri") && strings.HasPrefix("--verify", name) {
				on = false
			} else if commitValueOption(name) && !strings.Contains(a, "=") {
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1 && shortN:
			for j := 1; j < len(a); j++ {
				c := a[j]
				if c == 'n' {
					on = true
					continue
				}
				if commitOptionalArg(c) {
					break // the rest of the cluster is its value (-uno)
				}
				if strings.IndexByte("mFCct", c) >= 0 {
					if j == len(a)-1 {
						i++ // the value is the next word
					}
					break
				}
			}
		}
	}
	return on
}

// commitOptionalArg reports a short option of git commit whose value is
// optional and, when given, stuck to it up to the end of the cluster:
// -u[<mode>] and -S[<keyid>] (`-uno` is --untracked-files=no).
func commitOptionalArg(c byte) bool {
	return c == 'u' || c == 'S'
}

// commitValueOption reports a long option of git commit whose value may be
// the next word.
func commitValueOption(name string) bool {
	for _, o := range []string{"--message", "--file", "--reuse-message", "--reedit-message", "--template", "--author", "--date", "--cleanup", "--fixup", "--squash", "--trailer", "--pathspec-from-file"} {
		if name == o {
			return true
		}
	}
	return false
}

// commit judges `git commit`'s operands: the bypass flags, and the
// message assembled as git does (each -m a paragraph; -F a file, `-` its
// stdin).
func (v *Verdict) commit(args []string, ws []word, sc simple, dir string) {
	v.Commits = true
	if noVerify(args, true) {
		v.Bypass = append(v.Bypass, "git commit --no-verify (-n) skips the pre-commit and commit-msg hooks")
		return
	}
	var paras []string
	file, hasFile := "", false
	other := false // the message comes from somewhere the guard does not read
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if ws[i].dyn {
			// An expansion could be any option, the message among them.
			other = true
		}
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				if ws[i].dyn {
					other = true
				}
				return args[i], true
			}
			return "", false
		}
		switch {
		case a == "--message" || a == "-m":
			if m, ok := next(); ok {
				paras = append(paras, m)
			}
		case strings.HasPrefix(a, "--message="):
			paras = append(paras, strings.TrimPrefix(a, "--message="))
		case a == "--file":
			file, hasFile = next()
		case strings.HasPrefix(a, "--file="):
			file, hasFile = strings.TrimPrefix(a, "--file="), true
		case a == "--reuse-message" || a == "--reedit-message" || a == "--fixup" || a == "--squash":
			other = true
			next()
		case strings.HasPrefix(a, "--reuse-message=") || strings.HasPrefix(a, "--reedit-message=") ||
			strings.HasPrefix(a, "--fixup=") || strings.HasPrefix(a, "--squash="):
			other = true
		case commitValueOption(a):
			next()
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				c := a[j]
				if commitOptionalArg(c) {
					break // the rest of the cluster is its value (-Sme@x)
				}
				if strings.IndexByte("mFCct", c) < 0 {
					continue
				}
				val := a[j+1:]
				if val == "" {
					val, _ = next()
				}
				switch c {
				case 'm':
					paras = append(paras, val)
				case 'F':
					file, hasFile = val, true
				default:
					other = true
				}
				break
			}
		}
	}
	if other || hasFile && len(paras) > 0 {
		return // git refuses -m with -F; either way the hook judges it
	}
	if len(paras) > 0 {
		v.Messages = append(v.Messages, strings.Join(paras, "\n\n")+"\n")
		return
	}
	if !hasFile {
		return
	}
	if file == "-" {
		// assertion F: `-F -` reads the here-document or here-string the
		// command line feeds it.
		if sc.stdinKnown {
			v.Messages = append(v.Messages, sc.stdin)
		}
		return
	}
	// assertion F: a message file is read before the commit, unless the
	// line itself writes it or a cd moved where it is looked up.
	rel := !walk.PathRoot(file)
	if rel && (sc.afterCd || sc.writes[file]) || sc.writes[file] || file == "" {
		return
	}
	if !rel {
		dir = ""
	}
	v.Files = append(v.Files, MessageFile{Path: file, Dir: dir})
}

// configCommand judges `git config …`: a write, unset or rename that
// touches core.hooksPath turns the hooks off or repoints them.
func (v *Verdict) configCommand(args []string) {
	read := false
	var operands []string
	for _, a := range args {
		switch {
		case a == "--get" || a == "--get-all" || a == "--get-regexp" || a == "--list" || a == "-l" || a == "--get-urlmatch":
			read = true
		case a == "get" || a == "list":
			if len(operands) == 0 {
				read = true
				continue
			}
			operands = append(operands, a)
		case strings.HasPrefix(a, "-"):
		default:
			operands = append(operands, a)
		}
	}
	if read {
		return
	}
	touches := false
	for _, o := range operands {
		if isHooksPathKey(o) || strings.EqualFold(o, "core") {
			touches = true
		}
	}
	if !touches {
		return
	}
	// `git config core.hooksPath` with the key alone reads it.
	if len(operands) == 1 && isHooksPathKey(operands[0]) && !hasWriteFlag(args) {
		return
	}
	v.Bypass = append(v.Bypass, "git config "+strings.Join(args, " ")+" changes core.hooksPath, which decides whether the hooks run")
}

func hasWriteFlag(args []string) bool {
	for _, a := range args {
		switch a {
		case "--unset", "--unset-all", "--replace-all", "--add", "--remove-section", "--rename-section", "--edit", "-e":
			return true
		}
	}
	return false
}
