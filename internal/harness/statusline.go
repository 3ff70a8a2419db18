package harness

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// LastVerdictName is the file, under the result cache's directory, that a
// battery over the whole configured registry leaves its verdict in: what
// the status line shows without running anything.
const LastVerdictName = "last-verdict"

// LastVerdict is a battery's outcome as the status line reads it.
type LastVerdict struct {
	At  time.Time
	Ran int
	Red []string
}

// FormatLastVerdict is the file's bytes: a version line, then one field a
// line, so a reader needs no parser beyond a split.
func FormatLastVerdict(v LastVerdict) []byte {
	var b strings.Builder
	b.WriteString("gates-last-verdict 1\n")
	fmt.Fprintf(&b, "at %d\n", v.At.Unix())
	fmt.Fprintf(&b, "ran %d\n", v.Ran)
	for _, r := range v.Red {
		fmt.Fprintf(&b, "red %s\n", r)
	}
	return []byte(b.String())
}

// ParseLastVerdict reads FormatLastVerdict's bytes; false for anything
// else, which the status line shows as no verdict.
func ParseLastVerdict(data []byte) (LastVerdict, bool) {
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) < 3 || lines[0] != "gates-last-verdict 1" {
		return LastVerdict{}, false
	}
	var v LastVerdict
	for _, l := range lines[1:] {
		key, val, ok := strings.Cut(l, " ")
		if !ok {
			return LastVerdict{}, false
		}
		switch key {
		case "at":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return LastVerdict{}, false
			}
			v.At = time.Unix(n, 0)
		case "ran":
			n, err := strconv.Atoi(val)
			if err != nil {
				return LastVerdict{}, false
			}
			v.Ran = n
		case "red":
			v.Red = append(v.Red, val)
		default:
			return LastVerdict{}, false
		}
	}
	return v, true
}

// Status is what the status line shows.
type Status struct {
	// Repo is false outside a repository git answers; nothing else is
	// then known.
	Repo bool
	// Lost says why a tree whose settings register the gates has no
	// repository git opens ("" when there is no such tree).
	Lost string
	// Hooks reports the placed git hooks are what git runs here, on the
	// recorded binary.
	Hooks bool
	// Broken says why the footing an opted-in clone stands on is not
	// whole ("" when it is, or the clone never opted in).
	Broken string
	// Unjudged counts the commits the agent hook left unjudged at its
	// last look; JudgeBroken says why it could not keep its state.
	Unjudged    int
	JudgeBroken string
	// Verdict is the last whole battery's, when one was recorded.
	Verdict *LastVerdict
	// Accepted counts the findings the baseline accepts; -1 when there is
	// no baseline, -2 when it does not parse.
	Accepted int
	// RedCommits are the short ids of this session's commits the agent
	// hook judged red.
	RedCommits []string
	// Now is the render time, for the verdict's age.
	Now time.Time
}

const (
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiDim   = "\x1b[2m"
	ansiReset = "\x1b[0m"
)

// StatusLine renders s as one line for the harness's status bar.
func StatusLine(s Status) string {
	if !s.Repo {
		if s.Lost != "" {
			// assertion E: a tree that lost its repository has no
			// footing; it is not merely outside one.
			return "gates: " + ansiRed + "hooks broken" + ansiReset + " (" + s.Lost + ")"
		}
		return "gates: " + ansiDim + "no repository here" + ansiReset
	}
	parts := []string{}
	switch {
	case s.Broken != "":
		parts = append(parts, ansiRed+"hooks broken"+ansiReset+" ("+s.Broken+")")
	case s.Hooks:
		parts = append(parts, ansiGreen+"hooks on"+ansiReset)
	default:
		parts = append(parts, ansiRed+"hooks off"+ansiReset)
	}
	switch v := s.Verdict; {
	case v == nil:
		parts = append(parts, ansiDim+"no battery run yet"+ansiReset)
	case len(v.Red) == 0:
		parts = append(parts, fmt.Sprintf("%s%d green%s %s", ansiGreen, v.Ran, ansiReset, age(s.Now, v.At)))
	default:
		names := v.Red
		more := ""
		if len(names) > 3 {
			names, more = names[:3], fmt.Sprintf(" +%d", len(v.Red)-3)
		}
		parts = append(parts, fmt.Sprintf("%s%d red%s (%s%s) %s", ansiRed, len(v.Red), ansiReset, strings.Join(names, ", "), more, age(s.Now, v.At)))
	}
	switch {
	case s.Accepted >= 0:
		parts = append(parts, fmt.Sprintf("%d accepted", s.Accepted))
	case s.Accepted == -2:
		parts = append(parts, ansiRed+"baseline unreadable"+ansiReset)
	}
	if n := len(s.RedCommits); n > 0 {
		noun := "red commits"
		if n == 1 {
			noun = "red commit"
		}
		parts = append(parts, fmt.Sprintf("%s%d %s this session%s (%s)", ansiRed, n, noun, ansiReset, strings.Join(s.RedCommits, ", ")))
	}
	if s.Unjudged > 0 {
		parts = append(parts, fmt.Sprintf("%s%d commits not judged%s", ansiRed, s.Unjudged, ansiReset))
	}
	if s.JudgeBroken != "" {
		parts = append(parts, ansiRed+"commit judge broken"+ansiReset+" ("+s.JudgeBroken+")")
	}
	return "gates: " + strings.Join(parts, " · ")
}

// age renders how long ago t was, coarsely.
func age(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
}
