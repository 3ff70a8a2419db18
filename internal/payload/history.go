package payload

// What init reads off the commit history before it adopts the
// commit-message gates: the recent messages people wrote (a bot's are
// left out, since a history ninety bumps deep says nothing of the style
// the people keep), and the commit types those subjects use beyond the
// kit's roster.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/gates"
)

// HistoryCommit is one non-merge commit as init reads it: its author and
// its whole message.
type HistoryCommit struct {
	Author, Email, Message string
}

// historyScan bounds how far back init looks for historyDepth messages
// by people.
const historyScan = 1000

// historyTypeFloor is how many of the people's subjects must use a type
// the roster lacks before it joins GATE_SDK_COMMIT_TYPES: one subject may
// be a slip ("fxi:"), two are a habit.
const historyTypeFloor = 2

// botAuthors are author names (lower case, any "[bot]" suffix removed)
// that are automation whatever their address says.
var botAuthors = map[string]bool{
	"dependabot": true, "dependabot-preview": true, "renovate": true, "renovate-bot": true,
	"github-actions": true, "greenkeeper": true, "snyk-bot": true, "pre-commit-ci": true,
	"allcontributors": true, "mergify": true, "imgbot": true, "web-flow": true,
}

// IsBotAuthor reports whether a commit's author is automation: a GitHub
// App's "<name>[bot]" identity, or one of the well-known bots by name or
// by the local part of its address.
func IsBotAuthor(name, email string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	e := strings.ToLower(strings.TrimSpace(email))
	if strings.HasSuffix(n, "[bot]") || strings.Contains(e, "[bot]@") {
		return true
	}
	if botAuthors[n] {
		return true
	}
	local, _, _ := strings.Cut(e, "@")
	if i := strings.IndexByte(local, '+'); i >= 0 {
		local = local[i+1:] // 12345+name@users.noreply.github.com
	}
	return botAuthors[strings.TrimSuffix(local, "[bot]")]
}

// history is the people's recent messages and what init learned of them.
type history struct {
	messages []string // newest first, at most historyDepth
	bots     int      // bot commits passed over on the way
	// roster is GATE_SDK_COMMIT_TYPES as it resolves before init; extra
	// the types the people's subjects use beyond it, most used first.
	roster []string
	extra  []typeUse
	// admitted: the knob file on disk sets the roster with extra, so the
	// subjects are judged with it.
	admitted bool
}

type typeUse struct {
	name  string
	count int
}

// readHistory reads the people's last historyDepth messages and the types
// their subjects add to roster. nil when init has no history reader.
func readHistory(w *InitWorld, roster []string) (*history, error) {
	if w.Messages == nil {
		return nil, nil
	}
	commits, err := w.Messages(historyScan)
	if err != nil {
		return nil, err
	}
	h := &history{roster: roster}
	for _, c := range commits {
		if len(h.messages) == historyDepth {
			break
		}
		if IsBotAuthor(c.Author, c.Email) {
			h.bots++
			continue
		}
		h.messages = append(h.messages, c.Message)
	}
	h.extra = historyTypes(h.messages, roster)
	return h, nil
}

// types answers the roster with the history's own types added.
func (h *history) types() []string {
	out := append([]string(nil), h.roster...)
	for _, t := range h.extra {
		out = append(out, t.name)
	}
	return out
}

// extraNames answers the added types, as init names them.
func (h *history) extraNames() string {
	var parts []string
	for _, t := range h.extra {
		parts = append(parts, fmt.Sprintf("%s (%d subjects)", t.name, t.count))
	}
	return strings.Join(parts, ", ")
}

// historyTypes answers each type that at least historyTypeFloor subjects
// use, is not in roster, and whose subjects hold the rest of the rule
// (<type>(<scope>)?!?: <summary>): adding it admits them.
func historyTypes(msgs, roster []string) []typeUse {
	in := map[string]bool{}
	for _, t := range roster {
		in[t] = true
	}
	count := map[string]int{}
	for _, m := range msgs {
		if t := subjectType(messageSubject(m)); t != "" && !in[t] {
			count[t]++
		}
	}
	var out []typeUse
	for t, n := range count {
		if n >= historyTypeFloor {
			out = append(out, typeUse{t, n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].count != out[j].count {
			return out[i].count > out[j].count
		}
		return out[i].name < out[j].name
	})
	return out
}

// messageSubject is a message's first line that is neither blank nor a
// comment, without a carriage return.
func messageSubject(m string) string {
	for _, l := range strings.Split(m, "\n") {
		l = strings.TrimRight(l, "\r \t")
		if l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

// subjectType answers the type of a subject shaped
// <type>(<scope>)?!?: <summary>, the type a lower-case word
// ([a-z][a-z0-9-]*) and the scope check-commit-subject's; "" otherwise.
func subjectType(s string) string {
	t, ok := gates.SubjectType(s)
	if !ok || t == "" {
		return ""
	}
	for i := 0; i < len(t); i++ {
		b := t[i]
		if !('a' <= b && b <= 'z' || i > 0 && ('0' <= b && b <= '9' || b == '-')) {
			return ""
		}
	}
	return t
}

// shellDirs answers the directories holding the *.sh the repository
// tracks of its own, each once, sorted: outside the vendored kit root and
// the gates dir (which check-shellcheck reads anyway), and outside test
// data, vendored code and dependency trees, whose shell is not the
// repository's to lint. A directory whose name holds a blank is left out:
// the knob is a word list.
func shellDirs(tracked []string, gatesDir, kitRoot string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tracked {
		if !strings.HasSuffix(t, ".sh") {
			continue
		}
		dir := "."
		if i := strings.LastIndexByte(t, '/'); i >= 0 {
			dir = t[:i]
		}
		if dir == gatesDir || dir == kitRoot || strings.HasPrefix(dir, kitRoot+"/") || strings.ContainsAny(dir, " \t") || seen[dir] {
			continue
		}
		skip := false
		for _, seg := range strings.Split(dir, "/") {
			switch seg {
			case "testdata", "vendor", "node_modules", "third_party", "fixtures":
				skip = true
			}
		}
		if skip {
			continue
		}
		seen[dir] = true
		out = append(out, dir)
	}
	sort.Strings(out)
	return out
}
