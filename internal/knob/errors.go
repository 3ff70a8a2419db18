package knob

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Finding is one refusal: what is wrong and where. Every refusal the engine
// raises is a *Finding or a *ConfigError collecting several; a caller maps
// either to exit 2 and prints Error() as is.
type Finding struct {
	File string // knob file as spelled, "environment", or "" when no place applies
	Line int    // 1-based line in File, 0 when the finding is about the whole file
	Knob string // knob name the finding is about, when there is one
	Msg  string // what is wrong, in one line
	Err  error  // a sentinel the finding is an instance of (ErrNoMember), or nil
}

// Unwrap exposes the sentinel, so errors.Is(err, ErrNoMember) works.
func (f *Finding) Unwrap() error { return f.Err }

// Error renders "<file>:<line>: <msg>", "<file>: <msg>" or "<msg>".
func (f *Finding) Error() string {
	// assertion R: a refusal leads with the file and line it is about.
	switch {
	case f.File != "" && f.Line > 0:
		return f.File + ":" + strconv.Itoa(f.Line) + ": " + f.Msg
	case f.File != "":
		return f.File + ": " + f.Msg
	}
	return f.Msg
}

// envFile is the File of a finding about an exported variable.
const envFile = "environment"

// ConfigError is a kit's refused configuration: every finding its first
// resolution collected, under one lead line.
type ConfigError struct {
	Kit      string
	Findings []*Finding
}

// Error renders the lead line, then one finding per line.
func (e *ConfigError) Error() string {
	var b strings.Builder
	n := len(e.Findings)
	noun := "findings"
	if n == 1 {
		noun = "finding"
	}
	fmt.Fprintf(&b, "%s: knob configuration refused (%d %s)", e.Kit, n, noun)
	// Findings read in file order: files as they first appear, lines
	// ascending within each.
	order := map[string]int{}
	for _, f := range e.Findings {
		if _, ok := order[f.File]; !ok {
			order[f.File] = len(order)
		}
	}
	sorted := append([]*Finding(nil), e.Findings...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if a, b := order[sorted[i].File], order[sorted[j].File]; a != b {
			return a < b
		}
		return sorted[i].Line < sorted[j].Line
	})
	for _, f := range sorted {
		b.WriteByte('\n')
		b.WriteString(f.Error())
	}
	return b.String()
}

// ErrNoMember reports a family member no layer sets. A reader whose own
// roster named the member refuses, naming it.
var ErrNoMember = errors.New("no such family member")

func refuse(name, format string, args ...any) *Finding {
	return &Finding{Knob: name, Msg: fmt.Sprintf(format, args...)}
}
