// Package harness is the coding-agent side of the binary: the members
// `gates --hook <member>` dispatches, the payload they read, the envelopes
// they answer with, and the one parser of a harness registration.
//
// The channels are the harness's, not the gate output contract's: stdin is
// the harness's JSON payload, stdout an envelope (or nothing), stderr the
// block text, and the exit status the harness's protocol (0 allow or
// advise, 2 block). The protocol spoken is Claude Code's.
//
// A member never blocks because something it needs is missing: an absent,
// empty, oversized or malformed payload, a knob that does not resolve or a
// registry that cannot be read takes the member's declined path, which
// allows the call and says why. Failing closed here would wedge every tool
// call of a session over a fault of the adopter's platform.
//
// The members do not run gates themselves: the command line hands them a
// Runner that runs the registered members in process over the tree.
package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Owner is the kit whose SPEC states every member of this table.
const Owner = "gate-sdk"

// MaxPayload bounds the bytes read from stdin. A payload past it is read
// as unreadable, never truncated into something else. The bound is on the
// stream: the bulk text an edit tool carries (a Write's content, an Edit's
// strings) is skipped as it is decoded, never held, so a large Write is
// judged from its file_path like any other.
const MaxPayload = 64 << 20

// PayloadWait bounds how long the payload is waited for. A stdin that never
// closes is read up to the end of its first JSON value; one that has not
// delivered a whole value by then is "no payload".
const PayloadWait = 5 * time.Second

// bulkKeys are tool_input keys holding an edit's text: kept only up to
// maxKept (git-dir-guard reads a small edit of the harness settings; the
// file on disk is what the gates judge).
var bulkKeys = map[string]bool{"content": true, "old_string": true, "new_string": true, "edits": true, "new_source": true}

// maxKept bounds a string kept from tool_response; a longer one is dropped
// as it is decoded.
const maxKept = 64 << 10

// Exit statuses of the harness protocol.
const (
	Allow = 0
	Block = 2
)

// Event names the members read.
const (
	PreToolUse  = "PreToolUse"
	PostToolUse = "PostToolUse"
	// PostToolUseFailure follows a tool call that failed (for Bash, a
	// command that exited non-zero) in place of PostToolUse.
	PostToolUseFailure = "PostToolUseFailure"
	Stop               = "Stop"
	SubagentStop       = "SubagentStop"
	// ConfigChange fires when a settings file changes during a session; a
	// block keeps the change out of the running session.
	ConfigChange = "ConfigChange"
)

// Payload is the part of the harness's stdin document the members read.
// Unknown keys are ignored; a known key of the wrong JSON type makes the
// whole payload unreadable.
type Payload struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	StopHookActive bool            `json:"stop_hook_active"`
	// Source and FilePath are ConfigChange's: which settings changed, and
	// the file.
	Source   string `json:"source"`
	FilePath string `json:"file_path"`
}

// ErrNoPayload is an absent or blank stdin.
var ErrNoPayload = errors.New("no payload on stdin")

// ReadPayload reads one JSON object from r, within PayloadWait and at most
// MaxPayload bytes, keeping every key but the bulk an edit tool carries.
func ReadPayload(r io.Reader) (*Payload, error) {
	return readPayload(r, PayloadWait, MaxPayload)
}

// afterValue is how long a stdin still open after the first whole value
// is watched for a second one.
const afterValue = 50 * time.Millisecond

func readPayload(r io.Reader, wait time.Duration, limit int64) (*Payload, error) {
	if r == nil {
		return nil, ErrNoPayload
	}
	// assertion F: the read is bounded in time and size, and the bulk of an
	// edit is skipped as it streams by.
	tr := &timedReader{ch: make(chan chunk, 4), timer: time.NewTimer(wait)}
	defer tr.timer.Stop()
	go tr.pump(r)
	lr := &limitedReader{r: tr, left: limit}
	dec := json.NewDecoder(lr)
	dec.UseNumber()
	var kept bytes.Buffer
	err := slim(dec, &kept, 0, "")
	switch {
	case lr.over:
		return nil, fmt.Errorf("the payload is larger than %d bytes", limit)
	case errors.Is(err, errWaited):
		return nil, fmt.Errorf("the payload was not complete within %s (stdin did not close)", wait)
	case err == io.EOF && !tr.inked:
		return nil, ErrNoPayload
	case err == io.EOF:
		return nil, fmt.Errorf("the payload is not a JSON object of the hook shape: %v", io.ErrUnexpectedEOF)
	case err != nil:
		if errors.Is(err, errRead) {
			return nil, fmt.Errorf("cannot read the payload: %v", err)
		}
		return nil, fmt.Errorf("the payload is not a JSON object of the hook shape: %v", err)
	}
	// A second value is refused; a stdin held open after the first one is
	// the harness's business, not a second value.
	tr.timer.Stop()
	tr.timer.Reset(afterValue)
	if _, err := dec.Token(); err != io.EOF && !errors.Is(err, errWaited) {
		if lr.over {
			return nil, fmt.Errorf("the payload is larger than %d bytes", limit)
		}
		return nil, errors.New("the payload holds more than one JSON value")
	}
	var p Payload
	if err := json.Unmarshal(kept.Bytes(), &p); err != nil {
		return nil, fmt.Errorf("the payload is not a JSON object of the hook shape: %v", err)
	}
	return &p, nil
}

// errWaited is the deadline passing; errRead wraps a failed read.
var (
	errWaited = errors.New("payload wait elapsed")
	errRead   = errors.New("read")
)

type chunk struct {
	b   []byte
	err error
}

// timedReader hands on what a pump goroutine reads, until its timer fires.
// The goroutine of a stdin that never closes is left blocked: the process
// ends with the member.
type timedReader struct {
	ch    chan chunk
	timer *time.Timer
	buf   []byte
	err   error
	seen  int
	// inked: a byte other than white space was read, which tells a
	// payload cut short from a blank stdin.
	inked bool
}

func (t *timedReader) pump(r io.Reader) {
	for {
		b := make([]byte, 64<<10)
		n, err := r.Read(b)
		if n > 0 {
			t.ch <- chunk{b: b[:n]}
		}
		if err != nil {
			t.ch <- chunk{err: err}
			return
		}
	}
}

func (t *timedReader) Read(p []byte) (int, error) {
	for len(t.buf) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		select {
		case c := <-t.ch:
			t.buf = c.b
			if c.err == io.EOF {
				t.err = io.EOF
			} else if c.err != nil {
				t.err = fmt.Errorf("%w: %v", errRead, c.err)
			}
		case <-t.timer.C:
			t.err = errWaited
		}
	}
	n := copy(p, t.buf)
	if !t.inked && len(bytes.TrimSpace(t.buf[:n])) > 0 {
		t.inked = true
	}
	t.buf = t.buf[n:]
	t.seen += n
	return n, nil
}

// limitedReader stops at left bytes and remembers it did.
type limitedReader struct {
	r    io.Reader
	left int64
	over bool
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		l.over = true
		return 0, errors.New("payload too large")
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// slim copies one JSON value from dec to w, dropping tool_input's bulk keys
// and any long string under tool_response. parent is the key the value
// sits under at depth 1.
func slim(dec *json.Decoder, w *bytes.Buffer, depth int, parent string) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := t.(json.Delim)
	if !ok {
		if depth == 0 {
			return errors.New("not a JSON object")
		}
		writeToken(w, t)
		return nil
	}
	switch d {
	case '{':
		w.WriteByte('{')
		first := true
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := kt.(string)
			under := parent
			if depth == 0 {
				under = k
			}
			var vb bytes.Buffer
			if err := slim(dec, &vb, depth+1, under); err != nil {
				return err
			}
			if depth == 1 && parent == "tool_input" && bulkKeys[k] && vb.Len() > maxKept {
				continue // an edit's bulk: only a small one is kept (git-dir-guard B reads it)
			}
			if under == "tool_response" && depth >= 1 && vb.Len() > maxKept && vb.Bytes()[0] == '"' {
				continue // a tool's bulky output: no member reads it
			}
			if !first {
				w.WriteByte(',')
			}
			first = false
			writeToken(w, k)
			w.WriteByte(':')
			w.Write(vb.Bytes())
		}
		w.WriteByte('}')
	case '[':
		if depth == 0 {
			return errors.New("not a JSON object")
		}
		w.WriteByte('[')
		first := true
		for dec.More() {
			if !first {
				w.WriteByte(',')
			}
			first = false
			if err := slim(dec, w, depth+1, parent); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	default:
		return fmt.Errorf("unexpected %v", d)
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

func writeToken(w *bytes.Buffer, t json.Token) { writeValue(w, t, "") }

// Input decodes tool_input into v; false when it is absent or of another shape.
func (p *Payload) Input(v any) bool {
	if p == nil || len(p.ToolInput) == 0 || string(p.ToolInput) == "null" {
		return false
	}
	return json.Unmarshal(p.ToolInput, v) == nil
}

// Event answers the payload's event name, "" when there is no payload.
func (p *Payload) Event() string {
	if p == nil {
		return ""
	}
	return p.HookEventName
}

// quote serializes s as a JSON string. The envelopes' braces and key order
// are literals; every value inside them goes through here.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		// A Go string always encodes; keep the envelope well-formed anyway.
		return `""`
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Advise is the envelope that tells without deciding: on PreToolUse, and
// after a failed call (whose event reads nothing else), it is context for
// the model; on any other event (or none) a notice for the operator.
func Advise(event, text string) string {
	if event == PreToolUse || event == PostToolUseFailure {
		return `{"hookSpecificOutput": {"hookEventName": "` + event + `", "additionalContext": ` + quote(text) + `}}`
	}
	return `{"systemMessage": ` + quote(text) + `}`
}

// Feedback is the PostToolUse envelope the model is shown after the tool
// ran: the call is not undone, the model is told what to fix.
func Feedback(reason string) string {
	return `{"decision": "block", "reason": ` + quote(reason) + `}`
}

// RefuseStop is the Stop/SubagentStop envelope that keeps the agent
// working, with the reason as its instructions.
func RefuseStop(reason string) string {
	return `{"decision": "block", "reason": ` + quote(reason) + `}`
}

// Call is one member invocation.
type Call struct {
	Member string
	// Payload is nil when PayloadErr says why it could not be read.
	Payload    *Payload
	PayloadErr error
	Stdout     io.Writer
	Stderr     io.Writer
	Gates      Runner
	// Repo reads the repository for the outcome members; nil where the
	// caller offers none (the outcome checks are then skipped).
	Repo Repo
	// JudgeBudget lets one look judge past MaxJudged new commits while it
	// has run for less than this; 0 holds every look to MaxJudged.
	JudgeBudget time.Duration
	// advised, when set, keeps the note that the advice given was given
	// (markAdvised calls it); nil keeps the not-opted-in note.
	advised func()
}

// Decline allows the call and says why the member's rule was not enforced:
// the envelope the firing event reads on stdout, the same text on stderr
// (the harness's debug log at exit 0).
func (c *Call) Decline(reason string) int {
	text := fmt.Sprintf("gate-sdk %s: %s; the rule was not enforced on this call", c.Member, strings.TrimRight(reason, "\n"))
	fmt.Fprintln(c.Stdout, Advise(c.Payload.Event(), text))
	fmt.Fprintln(c.Stderr, text)
	return Allow
}

// Red is one member of a gate run that did not pass.
type Red struct {
	Name   string
	Code   int    // 1 a violation, 2 the gate could not run
	Output string // the member's report: findings and help: lines
	// Hook is the git hook whose run found it, when a landed commit was
	// judged ("commit-msg" or "pre-commit"); "" otherwise.
	Hook string `json:",omitempty"`
}

// Result is what a gate run answers.
type Result struct {
	Ran int
	Red []Red
}

// Text renders the red members' reports for a model or an operator.
func (r Result) Text() string {
	var b strings.Builder
	for i, m := range r.Red {
		if i > 0 {
			b.WriteByte('\n')
		}
		what := "failed"
		if m.Code == 2 {
			what = "could not run"
		}
		fmt.Fprintf(&b, "%s %s:\n%s", m.Name, what, strings.TrimRight(m.Output, "\n"))
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// Runner runs the tree's registered gates in process, at the work-tree top.
// An error means the gates could not be selected or started at all (a knob
// or registry that does not resolve), which a member declines on.
type Runner interface {
	// ForPaths runs the pre-commit tier members whose couples reach any of
	// paths (spelled relative to the top), over the working tree.
	ForPaths(paths []string) (Result, error)
	// CommitMsg runs the commit-msg tier members over msg.
	CommitMsg(msg string) (Result, error)
	// Changed answers the paths of the uncommitted change: staged,
	// unstaged, and untracked files git does not ignore.
	Changed() ([]string, error)
	// Rel spells an absolute path relative to the top; false when it lies
	// outside the work tree.
	Rel(abs string) (string, bool)
}

// Member is one row of the member table.
type Member struct {
	Name string
	// Run is the member's rule.
	Run func(c *Call) int
	// Knobs are the knobs the member reads (the registry's, through its
	// Runner); EVERY_HOOK_KNOB stands for them.
	Knobs []string
	// Owner is the kit whose SPEC states the member's rule.
	Owner string
	// Events are the events the member is registered for, with the matcher.
	Events string
	// Summary is one line for the roster.
	Summary string
}

// registryKnobs are what selecting and running the registered gates reads.
var registryKnobs = []string{"GATE_SDK_GATES_DIR", "GATE_SDK_KIT_DIRS", "EVERY_REGISTERED_KNOB"}

// Members is the closed roster, sorted by name.
func Members() []Member {
	ms := []Member{
		{Name: "commit-guard", Run: commitGuard, Knobs: registryKnobs, Owner: Owner,
			Events:  "PreToolUse on Bash",
			Summary: "block a shell command that would bypass the git hooks, and a git commit -m whose message the commit-msg gates refuse"},
		{Name: "commit-audit", Run: commitAudit, Knobs: registryKnobs, Owner: Owner,
			Events:  "PreToolUse, PostToolUse and PostToolUseFailure on Bash",
			Summary: "record the ref tips before a shell command and judge every commit it made, as the git hooks would have, naming a red one by id"},
		{Name: "git-dir-guard", Run: gitDirGuard, Knobs: nil, Owner: Owner,
			Events:  "PreToolUse on Edit|Write|MultiEdit|NotebookEdit, and ConfigChange",
			Summary: "refuse an edit tool's write into the git directory or the hooks git runs, and keep a settings change that drops the gates' hooks out of the session"},
		{Name: "edit-gates", Run: editGates, Knobs: registryKnobs, Owner: Owner,
			Events:  "PostToolUse on Edit|Write|MultiEdit|NotebookEdit",
			Summary: "run the gates coupled to the edited file and show the model their findings"},
		{Name: "stop-gates", Run: stopGates, Knobs: registryKnobs, Owner: Owner,
			Events:  "Stop and SubagentStop",
			Summary: "refuse to end the turn while a gate coupled to the uncommitted change is red"},
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return ms
}

// Lookup finds a member by name.
func Lookup(name string) (Member, bool) {
	for _, m := range Members() {
		if m.Name == name {
			return m, true
		}
	}
	return Member{}, false
}

// Names answers the roster's names, sorted.
func Names() []string {
	var out []string
	for _, m := range Members() {
		out = append(out, m.Name)
	}
	return out
}

// EveryHookKnob answers what the EVERY_HOOK_KNOB sentinel stands for: one
// member's knobs when member names one, else the union over the table.
func EveryHookKnob(member string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range Members() {
		if member != "" && m.Name != member {
			continue
		}
		for _, k := range m.Knobs {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}
