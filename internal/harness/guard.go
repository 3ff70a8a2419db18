package harness

import (
	"path/filepath"
	"strings"
)

// Verdict is what commit-guard read off one shell command.
type Verdict struct {
	// Bypass names each way the command would get past the git hooks.
	Bypass []string
	// Messages are the messages of each `git commit` that gives its
	// message inline (-m, --message), as git would assemble them.
	Messages []string
}

// maxNesting bounds how deep `sh -c '…'` and `eval` strings are re-read.
const maxNesting = 4

// word is one shell word with its quoting removed; dyn marks a word that
// holds an expansion, whose value is known only when the shell runs.
type word struct {
	s   string
	dyn bool
}

// judge reads one simple command's words into v. depth counts the shell
// strings already re-read to reach it.
func (v *Verdict) judge(ws []word, depth int, reread func(string, int) error) error {
	ws = unwrapWords(ws)
	words := make([]string, len(ws))
	for i, w := range ws {
		words[i] = w.s
	}
	if len(words) == 0 {
		return nil
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
		v.git(words[1:], ws[1:])
	}
	return nil
}

// unwrapWords is unwrap over words, keeping each word's expansion flag.
func unwrapWords(ws []word) []word {
	plain := make([]string, len(ws))
	for i, w := range ws {
		plain[i] = w.s
	}
	rest := unwrap(plain)
	return ws[len(ws)-len(rest):]
}

// wrappers are programs that run their operand as a command: what follows
// them (after their own options) is judged as the command.
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "env": true, "command": true, "exec": true, "nice": true,
	"nohup": true, "time": true, "timeout": true, "xargs": true, "stdbuf": true, "ionice": true,
	"chronic": true, "caffeinate": true,
}

// unwrap drops variable assignments and wrapper programs in front of the
// command, with the options of each wrapper. Options are skipped leaning
// toward finding: any dash word, and for the wrappers whose first operand
// is a value (timeout's duration), that value.
func unwrap(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		if isAssignment(w) {
			words = words[1:]
			continue
		}
		base := filepath.Base(w)
		if !wrappers[base] {
			return words
		}
		words = words[1:]
		for len(words) > 0 {
			o := words[0]
			if o == "--" {
				words = words[1:]
				break
			}
			if strings.HasPrefix(o, "-") {
				words = words[1:]
				// Options whose value is the next word.
				if optionTakesValue(base, o) && len(words) > 0 {
					words = words[1:]
				}
				continue
			}
			if base == "env" && isAssignment(o) {
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

func optionTakesValue(wrapper, opt string) bool {
	if strings.Contains(opt, "=") {
		return false
	}
	switch wrapper {
	case "env":
		return opt == "-u" || opt == "--unset" || opt == "-C" || opt == "--chdir" || opt == "-S" || opt == "--split-string"
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
func (v *Verdict) git(args []string, ws []word) {
	// The global options, up to the subcommand.
	i := 0
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
		// probe-literal-exempt: git's own global options, read off a command
		// the agent is about to run; nothing here asks git anything.
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--super-prefix" || a == "--list-cmds" || a == "--attr-source":
			i += 2
			continue
		case strings.HasPrefix(a, "-"):
		default:
			v.subcommand(a, args[i+1:], ws[i+1:])
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

func (v *Verdict) subcommand(sub string, args []string, ws []word) {
	switch sub {
	case "commit":
		v.commit(args, ws)
	case "push":
		if noVerify(args, false) {
			v.Bypass = append(v.Bypass, "git push --no-verify skips the pre-push hook")
		}
	case "config":
		v.configCommand(args)
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

// commit judges `git commit`'s operands: the bypass flags, and the inline
// message assembled as git does (each -m a paragraph).
func (v *Verdict) commit(args []string, ws []word) {
	if noVerify(args, true) {
		v.Bypass = append(v.Bypass, "git commit --no-verify (-n) skips the pre-commit and commit-msg hooks")
		return
	}
	var paras []string
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
		case a == "--file" || a == "--reuse-message" || a == "--reedit-message" || a == "--fixup" || a == "--squash":
			other = true
			next()
		case strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--reuse-message=") || strings.HasPrefix(a, "--reedit-message=") ||
			strings.HasPrefix(a, "--fixup=") || strings.HasPrefix(a, "--squash="):
			other = true
		case commitValueOption(a):
			next()
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				c := a[j]
				if strings.IndexByte("mFCct", c) < 0 {
					continue
				}
				val := a[j+1:]
				if val == "" {
					val, _ = next()
				}
				if c == 'm' {
					paras = append(paras, val)
				} else {
					other = true
				}
				break
			}
		}
	}
	if len(paras) == 0 || other {
		return
	}
	v.Messages = append(v.Messages, strings.Join(paras, "\n\n")+"\n")
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
