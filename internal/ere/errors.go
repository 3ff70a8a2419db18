package ere

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrorKind classifies why a pattern was not compiled.
type ErrorKind uint8

// Compile refusals. Every one is fail-closed: the pattern is rejected
// rather than read under some dialect's guess.
const (
	// KindSyntax: the pattern is malformed or uses a form POSIX leaves
	// undefined (unbalanced parenthesis, dangling or doubled quantifier,
	// empty alternative, bad interval or bracket range, trailing backslash).
	KindSyntax ErrorKind = iota + 1
	// KindGNUExtension: a GNU or Perl operator escape such as \y \< \> \B
	// \w \s, or the {,n} interval.
	KindGNUExtension
	// KindBackreference: \1 to \9, which ERE does not have.
	KindBackreference
	// KindBracketBackslash: a backslash inside a bracket expression, a
	// literal in POSIX and an escape in GNU tools.
	KindBracketBackslash
	// KindCollating: a collating symbol [[.x.]] or an equivalence class
	// [[=x=]].
	KindCollating
	// KindEscape: a backslash before a character that is not special.
	KindEscape
	// KindTooLarge: an interval bound above RE_DUP_MAX or a program over
	// the instruction cap.
	KindTooLarge

	// The five one-group capture shape errors, from CompileCapture only.

	// KindNoGroup: the pattern holds no group.
	KindNoGroup
	// KindSecondGroup: the pattern holds more than one group.
	KindSecondGroup
	// KindQuantifiedGroup: the group is the operand of * + ? or an interval.
	KindQuantifiedGroup
	// KindGroupInAlternation: the group sits in a branch of a top-level
	// alternation.
	KindGroupInAlternation
	// KindAlternationInGroup: the group's body is an alternation.
	KindAlternationInGroup
)

var kindText = [...]string{
	KindSyntax:             "malformed pattern",
	KindGNUExtension:       "GNU extension, not POSIX ERE",
	KindBackreference:      "backreference, not POSIX ERE",
	KindBracketBackslash:   "backslash inside a bracket expression",
	KindCollating:          "collating or equivalence bracket",
	KindEscape:             "escape of a character that is not special",
	KindTooLarge:           "pattern too large",
	KindNoGroup:            "capture pattern has no group",
	KindSecondGroup:        "capture pattern has a second group",
	KindQuantifiedGroup:    "capture group is quantified",
	KindGroupInAlternation: "capture group is inside an alternation",
	KindAlternationInGroup: "capture group body is an alternation",
}

// String names the kind.
func (k ErrorKind) String() string {
	if int(k) < len(kindText) && kindText[k] != "" {
		return kindText[k]
	}
	return "ErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// Error is every error Compile and CompileCapture return. Construct is the
// offending text as written (for example `\y`, `[[.a.]]`, `a**`), Detail
// says what is wrong with it, and Offset is its byte offset in the pattern.
type Error struct {
	Kind      ErrorKind
	Construct string
	Detail    string
	Offset    int
}

func (e *Error) Error() string {
	return "ere: " + e.describe() + " at offset " + strconv.Itoa(e.Offset)
}

// describe says what is refused: the construct, what it is, and why.
func (e *Error) describe() string {
	msg := ""
	if e.Construct != "" {
		msg = show(e.Construct) + " "
	}
	if e.Detail != "" {
		msg += "(" + e.Detail + ") "
	}
	if msg != "" {
		msg = strings.TrimSuffix(msg, " ") + ": "
	}
	return msg + e.Kind.String()
}

// Is reports whether target is an *Error of the same Kind, so the capture
// sentinels below work with errors.Is whatever the offset.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind
}

// Sentinels for the capture shape errors, for use with errors.Is.
var (
	ErrNoGroup            error = &Error{Kind: KindNoGroup}
	ErrSecondGroup        error = &Error{Kind: KindSecondGroup}
	ErrQuantifiedGroup    error = &Error{Kind: KindQuantifiedGroup}
	ErrGroupInAlternation error = &Error{Kind: KindGroupInAlternation}
	ErrAlternationInGroup error = &Error{Kind: KindAlternationInGroup}
)

// RefusalMessage renders a compile error as the one-line diagnostic a gate
// prints before exiting 2: the pattern, where it came from (a knob name or
// a file, with a line if the caller has one) and the refused construct.
// The gate's own name is left to the caller's refusal printer.
func RefusalMessage(source, pattern string, err error) string {
	what := "unusable"
	var e *Error
	switch {
	case errors.As(err, &e):
		what = e.describe()
	case err != nil:
		what = err.Error()
	}
	return fmt.Sprintf("pattern %s from %s refused: %s", show(pattern), source, what)
}

// show quotes s with single quotes when it is printable ASCII, which keeps
// backslashes readable, and in Go syntax otherwise.
func show(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f || s[i] == '\'' {
			return strconv.Quote(s)
		}
	}
	return "'" + s + "'"
}
