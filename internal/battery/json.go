package battery

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// JSONFinding is one finding of the --format json document.
type JSONFinding struct {
	Gate    string `json:"gate"`
	ID      string `json:"id"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Class   string `json:"class"`
	Message string `json:"message"`
	Help    string `json:"help"`
	// Text is the line the text transcript prints for the finding.
	Text string `json:"text"`
	// Accepted marks a finding the baseline accepted; it reds nothing.
	Accepted bool `json:"accepted"`
}

// JSONGate is one member's verdict in the document.
type JSONGate struct {
	Gate    string `json:"gate"`
	ID      string `json:"id"`
	Verdict string `json:"verdict"` // "passed", "failed" or "could-not-run"
	Exit    int    `json:"exit"`
	// Spec is the invariant a red member's text block quotes.
	Spec     string `json:"spec,omitempty"`
	Findings int    `json:"findings"`
	// Accepted counts the member's findings the baseline accepted.
	Accepted int `json:"accepted"`
}

// JSONReport is the document `--format json` prints for a gate or a battery.
type JSONReport struct {
	Verdict  string        `json:"verdict"` // "passed", "failed" or "could-not-run"
	Exit     int           `json:"exit"`
	Summary  string        `json:"summary,omitempty"`
	Gates    []JSONGate    `json:"gates"`
	Findings []JSONFinding `json:"findings"`
}

// CouldNotRun is the class of the one finding a member that could not run
// (exit 2, unresolved, a dispatch error) contributes: its whole output.
const CouldNotRun = "could-not-run"

// Verdict names a member's result in the document's words.
func (v Verdict) Verdict() string {
	switch {
	case v.Passed():
		return "passed"
	case v.Unresolved || v.Harness != "" || v.Code == 2:
		return CouldNotRun
	}
	return "failed"
}

// MemberFindings answers a verdict's findings: a structured member's own,
// a shell member's read off its output by the output contract, and for a
// member that could not run one finding carrying its whole output.
//
// assertion F: structured findings as data, a .sh member's read by the contract.
//
// A structured member's accepted findings are answered too, marked, green
// or red.
func MemberFindings(v Verdict) []Finding {
	if v.Passed() {
		if v.Structured {
			return Accepted(v.Findings)
		}
		return nil
	}
	if v.Verdict() == CouldNotRun {
		msg := strings.TrimRight(string(v.Output), "\n")
		if msg == "" {
			msg = v.Name + " could not run"
		}
		return []Finding{{Class: CouldNotRun, Message: msg, Text: msg}}
	}
	if v.Structured {
		return v.Findings
	}
	return ParseContract(v.Output)
}

// Accepted answers the findings the baseline accepted, in order.
func Accepted(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Accepted {
			out = append(out, f)
		}
	}
	return out
}

// contractLine matches a finding line opening `<path>:<line>:` or
// `<path>:<line>:<col>:`. It reads gate output, not user patterns, so Go's
// regexp serves.
func contractLine(line string) (path string, n, col int, rest string, ok bool) {
	m := findingLine.FindStringSubmatch(line)
	if m == nil {
		return "", 0, 0, "", false
	}
	n, _ = strconv.Atoi(m[2])
	if m[3] != "" {
		col, _ = strconv.Atoi(m[3])
	}
	return m[1], n, col, strings.TrimPrefix(line[len(m[0]):], " "), true
}

// ParseContract reads a shell member's findings off its output, which is
// all a program outside the binary can hand over: every line that is not a
// help: line or a clean line is a finding, placed when it opens with
// path:line[:col]:. The help: lines, one per failure class in the
// contract, are joined into each finding's help, since a shell gate does
// not say which class a line belongs to.
func ParseContract(output []byte) []Finding {
	var helps []string
	var out []Finding
	for _, line := range strings.Split(strings.TrimRight(string(output), "\n"), "\n") {
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "help: "):
			helps = append(helps, strings.TrimPrefix(line, "help: "))
			continue
		case isCleanLine(line):
			continue
		}
		f := Finding{Class: "finding", Message: line, Text: line}
		if p, n, col, rest, ok := contractLine(line); ok {
			f.Path, f.Line, f.Column, f.Message = p, n, col, rest
		}
		out = append(out, f)
	}
	help := strings.Join(helps, "; ")
	for i := range out {
		out[i].Help = help
	}
	return out
}

// isCleanLine matches the contract's `ID: clean (...)` line.
func isCleanLine(line string) bool {
	id, rest, ok := strings.Cut(line, ": clean")
	return ok && id != "" && !strings.ContainsAny(id, " \t/") && (rest == "" || strings.HasPrefix(rest, " ("))
}

// Document builds the --format json document of the verdicts; id maps a
// gate name to its stable id. Its Exit is the verdicts' (0 or 1); a caller
// that fails after the run raises it.
func Document(verdicts []Verdict, specLine func(Member) string, id func(string) string) JSONReport {
	rep := JSONReport{Verdict: "passed", Summary: Summary(verdicts), Gates: []JSONGate{}, Findings: []JSONFinding{}}
	for _, v := range verdicts {
		g := JSONGate{Gate: v.Name, ID: id(v.Name), Verdict: v.Verdict(), Exit: v.Code}
		if v.Unresolved || v.Harness != "" {
			g.Exit = 2
		}
		if !v.Passed() {
			rep.Verdict = "failed"
			if specLine != nil {
				g.Spec = specLine(v.Member)
			}
		}
		for _, f := range MemberFindings(v) {
			rep.Findings = append(rep.Findings, JSONFinding{Gate: v.Name, ID: g.ID, Path: f.Path, Line: f.Line, Column: f.Column,
				Class: f.Class, Message: f.Message, Help: f.Help, Text: f.Text, Accepted: f.Accepted})
			// assertion L: an accepted finding is data marked accepted,
			// counted apart from the findings that red.
			if f.Accepted {
				g.Accepted++
			} else {
				g.Findings++
			}
		}
		rep.Gates = append(rep.Gates, g)
	}
	if rep.Verdict == "failed" {
		rep.Exit = 1
	}
	return rep
}

// Marshal renders a document indented, with a closing newline and no HTML
// escaping (findings quote source lines verbatim).
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
