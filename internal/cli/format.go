package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/baseline"
	"github.com/gate-sdk/gates/internal/battery"
	"github.com/gate-sdk/gates/internal/gate"
)

// The shapes --format renders. Text is the output contract and the default;
// JSON is one document rendered from the same structured findings SARIF
// places, never by reading the text back.
const (
	formatText = "text"
	formatJSON = "json"
)

// takeFormat removes a `--format <shape>` or `--format=<shape>` option from
// operands (before any --) and answers the shape, text when absent.
func takeFormat(prog string, args []string) (string, []string, error) {
	format := ""
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		var v string
		switch {
		case a == "--format":
			if i+1 >= len(args) {
				return "", nil, usageError{msg: prog + ": --format takes one shape: text or json"}
			}
			i++
			v = args[i]
		case strings.HasPrefix(a, "--format="):
			v = strings.TrimPrefix(a, "--format=")
		default:
			out = append(out, a)
			continue
		}
		if format != "" {
			return "", nil, usageError{msg: prog + ": --format given twice"}
		}
		if v != formatText && v != formatJSON {
			return "", nil, usageError{msg: fmt.Sprintf("%s: --format %q: the shapes are text and json", prog, v)}
		}
		format = v
	}
	if format == "" {
		format = formatText
	}
	return format, out, nil
}

// structured converts a rule's findings into the battery's shape.
func structured(fs []gate.Finding) []battery.Finding {
	out := make([]battery.Finding, 0, len(fs))
	for _, f := range fs {
		msg := f.Msg
		if msg == "" {
			msg = f.String()
		}
		out = append(out, battery.Finding{Path: f.Path, Line: f.Line, Column: f.Column, Class: f.Class,
			Message: msg, Help: f.Help, Text: f.String(), Accepted: f.Accepted,
			Identity: f.Identity, About: f.About, Fingerprint: baseline.Fingerprint(f)})
	}
	return out
}

// runStandaloneJSON runs one gate and prints its --format json document:
// the rule's text goes to a buffer, its stderr still reaches stderr.
func runStandaloneJSON(s *Session, def gate.Def, args []string) int {
	scratch, err := s.scratchDir("gates-" + def.Name + "-")
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: cannot make a scratch directory: %v\n", def.Name, err)
		return 2
	}
	defer os.RemoveAll(scratch)
	var buf bytes.Buffer
	w := &lockedWriter{w: &buf}
	c, err := s.gateContext(def, args, w, io.MultiWriter(w, s.Stderr), scratch)
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: %v\n", def.Name, err)
		return 2
	}
	code := protect(def, c)
	v := battery.Verdict{Member: battery.Member{Name: def.Name},
		Outcome: battery.Outcome{Code: code, Output: buf.Bytes(), Structured: true, Findings: structured(c.Findings())}}
	doc := battery.Document([]battery.Verdict{v}, nil, gate.ID)
	doc.Exit = code
	if code == 2 {
		doc.Verdict = battery.CouldNotRun
	}
	doc.Summary = lastLine(buf.String())
	return s.writeDocument(doc, code)
}

// writeDocument prints a document; a failed write is exit 2.
func (s *Session) writeDocument(doc battery.JSONReport, code int) int {
	data, err := battery.Marshal(doc)
	if err != nil {
		return s.fail(err)
	}
	if _, err := s.Stdout.Write(data); err != nil {
		fmt.Fprintf(s.Stderr, "%s: %v\n", s.prog, err)
		return 2
	}
	return code
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
