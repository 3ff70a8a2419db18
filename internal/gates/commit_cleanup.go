package gates

// The message git records is not the file the commit-msg hook is handed:
// git runs the hook first and cleans the message afterwards
// (commit.cleanup), so both commit-msg-tier gates judge the cleaned text
// through recordedMessage, never the raw file.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// msgLine is one line of the message git will record, with its line number
// in the message file.
type msgLine struct {
	N    int
	Text string
}

// Cleanup modes, as commit.cleanup spells them.
const (
	cleanupStrip      = "strip"
	cleanupWhitespace = "whitespace"
	cleanupVerbatim   = "verbatim"
	cleanupScissors   = "scissors"
	cleanupDefault    = "default"
)

// gitSpace is what git's own isspace admits; a vertical tab or form feed
// is not whitespace to git.
const gitSpace = " \t\n\r"

// scissorsMark is what git's cut line holds after the comment lead.
const scissorsMark = " ------------------------ >8 ------------------------"

// recordedMessage reads the message file and answers the lines git will
// record: cleaned by the mode commit.cleanup names ("default": strip when
// an editor was used, whitespace when not, which git tells its hooks by
// exporting GIT_EDITOR=:), with the comment lead of core.commentChar (or
// core.commentString).
func recordedMessage(c *gate.Context, msgFile string) ([]msgLine, error) {
	data, err := readMessage(c, msgFile)
	if err != nil {
		return nil, err
	}
	mode, comment, err := cleanupConfig(c)
	if err != nil {
		return nil, err
	}
	return cleanMessage(string(data), mode, comment, c.Getenv("GIT_EDITOR") != ":"), nil
}

// cleanupConfig answers the effective cleanup mode and comment lead.
func cleanupConfig(c *gate.Context) (mode, comment string, err error) {
	mode, comment = cleanupDefault, "#"
	// The three settings, each as `git config --get` would answer it:
	// read in process where the config files git reads can be named for
	// sure, else by one git child.
	keys := []string{"commit.cleanup", "core.commentChar", "core.commentString"}
	set, ok := configInProcess(c.Dir, c.ChildEnviron(), keys)
	if !ok {
		if set, err = (repo.Git{Env: c.ChildEnviron()}).ConfigGetEach(c.Dir, keys...); err != nil {
			return "", "", err
		}
	}
	if v, ok := set["commit.cleanup"]; ok {
		mode = strings.ToLower(strings.TrimSpace(v))
	}
	switch mode {
	case cleanupStrip, cleanupWhitespace, cleanupVerbatim, cleanupScissors:
	case cleanupDefault:
		mode = cleanupStrip
		if c.Getenv("GIT_EDITOR") == ":" {
			mode = cleanupWhitespace
		}
	default:
		return "", "", fmt.Errorf("commit.cleanup is %q, which git does not know (strip, whitespace, verbatim, scissors, default), so the recorded message cannot be known", mode)
	}
	for _, key := range []string{"core.commentChar", "core.commentString"} {
		if v, ok := set[key]; ok && v != "" && !strings.EqualFold(v, "auto") {
			comment = v
		}
	}
	return mode, comment, nil
}

// configInProcess answers the last value the config files git reads at
// dir give each of keys, as ConfigGetEach does, without starting git;
// false where the discovery or the config reader cannot be sure of git's
// answer (walk.DiscoverCommonDir, walk.ConfigValues).
func configInProcess(dir string, env []string, keys []string) (map[string]string, bool) {
	common, ok := walk.DiscoverCommonDir(dir, env)
	if !ok {
		return nil, false
	}
	vals, ok := walk.ConfigValues(common, env, keys...)
	if !ok {
		return nil, false
	}
	set := map[string]string{}
	for _, k := range keys {
		if v := vals[k]; len(v) > 0 {
			set[k] = v[len(v)-1]
		}
	}
	return set, true
}

// cleanMessage applies git's cleanup to msg: verbatim keeps every line;
// when the message was edited, scissors and strip first cut it at git's
// scissors line (the one `commit -v` and scissors mode write above the
// diff); whitespace, scissors and strip drop each line's trailing
// whitespace (git's: blank, tab, CR, LF, so a CRLF's carriage return
// goes), leading and trailing blank lines, and fold runs of blank lines
// into one; strip also drops every line opening with the comment lead.
func cleanMessage(msg, mode, comment string, edited bool) []msgLine {
	var raw []msgLine
	for n, rest := 1, msg; rest != ""; n++ {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		raw = append(raw, msgLine{N: n, Text: line})
	}
	if mode == cleanupVerbatim {
		return raw
	}
	if edited && (mode == cleanupStrip || mode == cleanupScissors) {
		for i, l := range raw {
			if strings.TrimSuffix(l.Text, "\r") == comment+scissorsMark {
				raw = raw[:i]
				break
			}
		}
	}
	var out []msgLine
	pendingBlank := false
	for _, l := range raw {
		if mode == cleanupStrip && strings.HasPrefix(l.Text, comment) {
			continue
		}
		text := strings.TrimRight(l.Text, gitSpace)
		if text == "" {
			pendingBlank = len(out) > 0
			continue
		}
		if pendingBlank {
			out = append(out, msgLine{N: l.N - 1, Text: ""})
			pendingBlank = false
		}
		out = append(out, msgLine{N: l.N, Text: text})
	}
	return out
}
