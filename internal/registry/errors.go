package registry

import (
	"errors"
	"fmt"
)

// ErrKind classifies a refusal so each reader can decide what it becomes:
// the hook, the battery and --for exit 2 on any of them, while check-graph
// and the parity gate report the manifest kinds as findings.
type ErrKind string

// The refusal kinds.
const (
	KindIO             ErrKind = "io"                // a file could not be read or statted
	KindNoRegistry     ErrKind = "no-registry"       // gates.list is absent
	KindListLine       ErrKind = "list-line"         // a gates.list line is not a member name
	KindUnresolved     ErrKind = "unresolved"        // a member resolves in no search dir
	KindAmbiguous      ErrKind = "ambiguous"         // one dir carries both <name>.sh and <name>.gate
	KindNoManifest     ErrKind = "no-manifest"       // a declaration carries no # graph: line
	KindUnknownField   ErrKind = "unknown-field"     // an unknown # graph: key, or an unknown descriptor directive
	KindMissingField   ErrKind = "missing-field"     // a required # graph: key is absent
	KindBadValue       ErrKind = "bad-value"         // a field's value is outside its vocabulary or grammar
	KindRetiredGen     ErrKind = "retired-gen"       // a # graph: line carries gen=
	KindDuplicate      ErrKind = "duplicate"         // a key or a one-per-file directive given twice
	KindRefused        ErrKind = "refused-directive" // # reads: or # needs:
	KindShellOnly      ErrKind = "shell-only"        // # no-port: or # port-until: on a descriptor
	KindNotComment     ErrKind = "not-comment"       // a descriptor line that is not a comment
	KindBadToken       ErrKind = "bad-token"         // a couples=/trigger=/projection member the grammar refuses
	KindDuplicateToken ErrKind = "duplicate-token"   // a token repeated within one authored field
	KindKnobLine       ErrKind = "knob-line"         // a # knob: line the grammar refuses
	KindKnobConflict   ErrKind = "knob-conflict"     // one GATE_LOCAL_ name declared by two descriptors
	KindExpansion      ErrKind = "expansion"         // a knob: or kit: token that cannot be expanded
	KindStagedStatic   ErrKind = "staged-static-kit" // a mode=staged member reaching a static kit
	KindNoKitTable     ErrKind = "no-kit-table"      // knob files asked for with no kit table to answer
)

// Error is a refusal naming the file, and the line where one applies, it
// was read from.
type Error struct {
	File string
	Line int // 0 when the refusal is about the file as a whole
	Kind ErrKind
	Msg  string
	Err  error // an underlying cause, if any
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if loc == "" {
		return e.Msg
	}
	return loc + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Problems flattens err into the registry refusals it carries, in order. A
// parse can report several problems of one file at once.
func Problems(err error) []*Error {
	if err == nil {
		return nil
	}
	var out []*Error
	var walk func(error)
	walk = func(e error) {
		if re, ok := e.(*Error); ok {
			out = append(out, re)
			return
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var re *Error
		if errors.As(e, &re) {
			out = append(out, re)
		}
	}
	walk(err)
	return out
}

// IsKind reports whether err carries a registry refusal of kind k.
func IsKind(err error, k ErrKind) bool {
	for _, p := range Problems(err) {
		if p.Kind == k {
			return true
		}
	}
	return false
}

func refusal(file string, line int, kind ErrKind, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
