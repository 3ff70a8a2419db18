package registry

import (
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// ListName is the registry's file name inside the gates directory.
const ListName = "gates.list"

// ListPath spells the registry file of a gates directory.
func ListPath(gatesDir string) string { return Join(gatesDir, ListName) }

// Entry is one member line of gates.list.
type Entry struct {
	Name string
	Line int
}

// Unregistered is one "# unregistered: <name> — <reason>" declaration: a
// member the binary carries that this consumer chose not to register. A
// line without the em dash keeps its first word as the name and an empty
// reason, so the reader holding the declaration can report the missing
// field rather than lose the line.
type Unregistered struct {
	Name   string
	Reason string
	Line   int
}

// Omission is one "# omitted: <name> <reason>" record of a member this
// consumer left out of the live set.
type Omission struct {
	Name   string
	Reason string
	Line   int
}

// List is gates.list as read: the live members in file order (a name
// listed twice stays listed twice) and the two comment forms that are read
// rather than ignored.
type List struct {
	Path         string
	Entries      []Entry
	Unregistered []Unregistered
	Omitted      []Omission
}

// ParseList reads gates.list text. One member name per line; blank lines
// and '#' comments are ignored, except that "# unregistered:" and
// "# omitted:" comments are collected. A line ending in CR reads as if it
// did not. A member line that cannot be a gate name (inner blanks, a path
// separator, a leading '-', "." or "..") is refused with its line. A
// UTF-8 byte-order mark opening the text is its encoding signature, not
// part of the first line.
func ParseList(path string, data []byte) (*List, error) {
	l := &List{Path: path}
	for i, raw := range strings.Split(walk.TrimBOM(string(data)), "\n") {
		line := i + 1
		text := strings.Trim(strings.TrimSuffix(raw, "\r"), " \t")
		if text == "" {
			continue
		}
		if strings.HasPrefix(text, "#") {
			body := strings.TrimLeft(text[1:], " \t")
			switch {
			case strings.HasPrefix(body, "unregistered:"):
				name, reason := ParseUnregistered(body[len("unregistered:"):])
				l.Unregistered = append(l.Unregistered, Unregistered{Name: name, Reason: reason, Line: line})
			case strings.HasPrefix(body, "omitted:"):
				f := strings.Fields(body[len("omitted:"):])
				o := Omission{Line: line}
				if len(f) > 0 {
					o.Name = f[0]
					o.Reason = strings.Join(f[1:], " ")
				}
				l.Omitted = append(l.Omitted, o)
			}
			continue
		}
		// assertion A: a member line is one bare gate name.
		if msg := badName(text); msg != "" {
			return nil, refusal(path, line, KindListLine, "%q is not a gate name: %s", text, msg)
		}
		l.Entries = append(l.Entries, Entry{Name: text, Line: line})
	}
	return l, nil
}

// ParseUnregistered splits the payload of an "# unregistered:" (or a
// smoke script's "# smoke-unregistered:") declaration at its em dash. Both
// halves are trimmed; without an em dash the name is the first word and
// the reason is empty.
func ParseUnregistered(payload string) (name, reason string) {
	if i := strings.Index(payload, "\u2014"); i >= 0 {
		return strings.TrimSpace(payload[:i]), strings.TrimSpace(payload[i+len("\u2014"):])
	}
	f := strings.Fields(payload)
	if len(f) == 0 {
		return "", ""
	}
	return f[0], ""
}

// badName says why text cannot be a member name, or "" when it can.
func badName(text string) string {
	switch {
	case strings.ContainsAny(text, " \t\v\f\r"):
		return "it contains blanks (a trailing comment is not allowed on a member line)"
	case strings.ContainsAny(text, "/\\"):
		return "it contains a path separator; list the gate's name, not its path"
	case strings.HasPrefix(text, "-"):
		return "it starts with '-', which reads as an option"
	case text == "." || text == "..":
		return "it names a directory"
	case strings.ContainsRune(text, 0):
		return "it contains a NUL byte"
	}
	return ""
}
