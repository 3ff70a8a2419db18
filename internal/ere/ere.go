// Package ere is the project's POSIX extended regular expression matcher.
//
// The contract:
//
//   - The whole POSIX ERE grammar is accepted: alternation, concatenation,
//     the * + ? operators, intervals {n} {n,} {n,m} with bounds up to
//     RE_DUP_MAX (255), grouping, the . wildcard, the ^ and $ anchors
//     (meaningful anywhere in the pattern), bracket expressions with
//     ranges, negation and the twelve POSIX character classes, and a
//     backslash before any of ^ . [ $ ( ) | * + ? { \ for the literal.
//   - Matching is byte-wise with the C locale's meaning of every class and
//     range, so every offset reported is a byte offset into the subject.
//     ^ holds only at subject offset 0 and $ only at the subject's end; a
//     newline is an ordinary byte.
//   - A match is POSIX leftmost-longest, the span awk reports as RSTART and
//     RLENGTH, not the leftmost-first span of backtracking engines.
//   - Whatever POSIX does not define is refused at compile time with an
//     *Error naming the construct, never guessed at: GNU and Perl escapes
//     (\y \< \> \b \B \w \W \s \S \` \'), backreferences, any escape of a
//     character that is not special, a backslash inside brackets,
//     collating symbols and equivalence classes, the {,n} interval, a
//     quantifier with no operand or following another quantifier or ^, an
//     empty pattern, group or alternative, and an unmatched parenthesis.
//     RefusalMessage renders such an error for a gate's exit-2 line.
//   - Searching never backtracks. A pattern compiles to a Thompson NFA
//     (capped in size) that is run as a lazily built, size-bounded DFA, so
//     a search takes memory linear in the pattern and time at most the
//     program size times the subject length.
//   - Compiled values are immutable apart from internal caches and safe
//     for concurrent use. The package starts no process and keeps no
//     package-level mutable state.
//
// The surface is Compile with IsMatch, Find and FindFrom, and the
// one-group capture CompileCapture with Capture and CaptureFrom. There is
// deliberately no replace: a substituting caller loops over FindFrom.
package ere

import (
	"strings"
	"unsafe"
)

// Span is a half-open byte range [Start, End) of a subject.
type Span struct {
	Start, End int
}

// Ere is a compiled pattern.
type Ere struct {
	literal string // non-empty: the pattern's language is exactly this string
	req     string // non-empty: every match contains it
	fwd     *dfa   // unanchored, forward: does a match end here?
	rev     *dfa   // unanchored, reverse: does a match start here?
	fwdA    *dfa   // anchored, forward: longest match from a start
}

// Compile parses a POSIX ERE, refusing anything outside the grammar with
// an *Error.
func Compile(pattern string) (*Ere, error) {
	n, _, err := parse(pattern)
	if err != nil {
		return nil, err
	}
	return build(pattern, n)
}

// Check answers the error Compile would answer for pattern, nil when it
// compiles, without building the automaton when the parsed pattern's size
// bound already proves it fits: a caller that must refuse a bad pattern at
// once can then compile it only when it is first needed.
func Check(pattern string) error {
	n, _, err := parse(pattern)
	if err != nil {
		return err
	}
	// The program is at most progSize(n) instructions and the match
	// instruction; below the cap both directions compile. At or above it
	// only building tells.
	if progSize(n) < maxInsts {
		return nil
	}
	_, err = build(pattern, n)
	return err
}

func build(pattern string, n *node) (*Ere, error) {
	fp := compileProg(n, false)
	rp := compileProg(n, true)
	if fp == nil || rp == nil {
		return nil, &Error{Kind: KindTooLarge, Construct: truncate(pattern), Detail: "compiled program exceeds the instruction cap"}
	}
	li := analyze(n)
	re := &Ere{literal: pureLiteral(li)}
	if li.req != li.prefix {
		re.req = li.req
	}
	re.fwd = newDFA(fp, true, li.prefix)
	re.rev = newDFA(rp, true, "")
	re.fwdA = newDFA(fp, false, "")
	return re, nil
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// IsMatch reports whether the pattern matches anywhere in hay, as awk's
// hay ~ pattern does.
func (re *Ere) IsMatch(hay string) bool {
	if re.literal != "" {
		return strings.Contains(hay, re.literal)
	}
	if re.req != "" && !strings.Contains(hay, re.req) {
		return false
	}
	return re.fwd.firstEnd(hay, 0) >= 0
}

// IsMatchBytes is IsMatch over a byte subject, without copying it: the
// engine reads the bytes in place and keeps no reference once it answers,
// so the caller's buffer is never retained. The caller must not modify hay
// while the call runs.
func (re *Ere) IsMatchBytes(hay []byte) bool { return re.IsMatch(view(hay)) }

// view answers b's bytes as a string sharing its memory: the search never
// writes, and no string it builds outlives the call.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Find answers the leftmost-longest match in hay; it is FindFrom(hay, 0).
func (re *Ere) Find(hay string) (Span, bool) { return re.FindFrom(hay, 0) }

// FindFrom answers the leftmost-longest match that starts at or after from.
// The search still sees the whole subject, so ^ holds only at offset 0,
// never at from. A from outside [0, len(hay)] finds nothing.
func (re *Ere) FindFrom(hay string, from int) (Span, bool) {
	if from < 0 || from > len(hay) {
		return Span{}, false
	}
	if re.literal != "" {
		k := strings.Index(hay[from:], re.literal)
		if k < 0 {
			return Span{}, false
		}
		return Span{from + k, from + k + len(re.literal)}, true
	}
	if re.req != "" && !strings.Contains(hay[from:], re.req) {
		return Span{}, false
	}
	if re.fwd.firstEnd(hay, from) < 0 {
		return Span{}, false
	}
	s := re.rev.leftmostStart(hay, from)
	e := re.fwdA.longestEnd(hay, s)
	return Span{s, e}, true
}
