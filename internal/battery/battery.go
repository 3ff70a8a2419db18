// Package battery runs a selected set of registry members and renders the
// battery's verdict: quiet on green, the whole captured block of every red
// member, a summary line whose count is the number of members executed.
//
// Members run on a bounded worker pool; each member's stdout and stderr are
// captured into one buffer and flushed in registry order, so the transcript
// is byte-identical for every worker count. A member's own exit status shows
// only on its FAIL line: the battery answers 1 for any red, whatever code the
// member returned.
package battery

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/gate"
	"golang.org/x/sync/errgroup"
)

// Outcome is what one member produced.
type Outcome struct {
	Code   int
	Output []byte // stdout and stderr, merged in write order
	// Structured is set for a member that reported its findings as data
	// (an in-process rule); Findings are then the lines Output printed,
	// and the findings the baseline accepted, marked.
	Structured bool
	Findings   []Finding
	// Nothing marks a clean member that reported, as data, that it checked
	// nothing (disarmed, dormant, no input): an in-process rule's
	// Report.Nothing or Report.Disarmed. A shell member has no such channel.
	Nothing bool
}

// Finding is one violation as a structured report carries it. Text is the
// line the text transcript prints for it.
type Finding struct {
	Path    string
	Line    int
	Column  int
	Class   string
	Message string
	Help    string
	Text    string
	// Accepted marks a finding the baseline accepted: kept for SARIF and
	// JSON, absent from the text and from the verdict.
	Accepted bool
	// Identity and About are the rule's (gate.Finding); Identity may hold
	// the finding's own text and is never rendered. Fingerprint is the
	// digest the baseline keys it by, which SARIF carries.
	Identity    string
	About       string
	Fingerprint string
}

// Member is one selected registry entry.
type Member struct {
	Name string
	// Line is the 1-based gates.list line naming the member; 0 when the
	// member was selected by a sole --only name the registry does not hold.
	Line int
	// Spec is the descriptor's `# spec:` value, printed beneath a red verdict.
	Spec string
	// Unresolved marks a name no resolve directory declares; its Exec, if
	// any, only reports where the name stands.
	Unresolved bool
	// Harness, when non-empty, is a dispatch failure decided before the
	// member could run (an ambiguous declaration, an unreadable manifest).
	Harness string
	// First asks the pool to start the member before every member not so
	// marked (a scan of the whole tree, so such scans overlap and share
	// their reads). Verdicts stay in member order.
	First bool
	// Exec runs the member with a private scratch directory. It must not
	// panic; RunIsolated wraps an in-process rule so that it cannot. ctx
	// ends when the member's budget runs out: a child process started
	// under it is killed with its group.
	Exec func(ctx context.Context, scratch string) Outcome
	// InProcess marks a member that runs in this process (a compiled
	// rule): past its budget it cannot be stopped, only left behind.
	InProcess bool
}

// Verdict is a member's result.
type Verdict struct {
	Member
	Outcome
	Elapsed time.Duration
}

// Passed reports whether the member passed.
func (v Verdict) Passed() bool { return !v.Unresolved && v.Harness == "" && v.Code == 0 }

// Options configure a run.
type Options struct {
	Jobs    int                               // worker count; <1 means 1
	Scratch func(name string) (string, error) // makes a member's private scratch dir
	// Started and Finished, when set, are told each member's index as it
	// starts and ends on the pool (a live progress display); they are
	// called from the workers and must be safe for concurrent use.
	Started, Finished func(i int)
	// Budget bounds each member's run (GATE_SDK_GATE_TIMEOUT); zero runs
	// every member to its end.
	Budget time.Duration
	// Grace is how long a member past its budget is waited for after its
	// processes were killed, to keep what it printed; zero means 5 s.
	Grace time.Duration
}

// Run executes every member and answers the verdicts in member order.
func Run(members []Member, opts Options) []Verdict {
	verdicts := make([]Verdict, len(members))
	jobs := opts.Jobs
	if jobs < 1 {
		jobs = 1
	}
	// assertion B: a bounded pool; verdicts land in member order whatever finishes first.
	var g errgroup.Group
	g.SetLimit(jobs)
	for _, i := range startOrder(members) {
		m := members[i]
		verdicts[i].Member = m
		if m.Exec == nil || m.Harness != "" {
			if m.Harness != "" {
				verdicts[i].Outcome = Outcome{Code: 2, Output: []byte(strings.TrimRight(m.Harness, "\n") + "\n")}
			}
			continue
		}
		g.Go(func() error {
			if opts.Started != nil {
				opts.Started(i)
			}
			if opts.Finished != nil {
				defer opts.Finished(i)
			}
			start := time.Now()
			scratch := ""
			if opts.Scratch != nil {
				dir, err := opts.Scratch(m.Name)
				if err != nil {
					verdicts[i].Outcome = Outcome{Code: 2, Output: []byte(fmt.Sprintf("run-gates: cannot make scratch for %s: %v\n", m.Name, err))}
					verdicts[i].Elapsed = time.Since(start)
					return nil
				}
				scratch = dir
			}
			verdicts[i].Outcome = budgeted(m, scratch, opts)
			verdicts[i].Elapsed = time.Since(start)
			return nil
		})
	}
	_ = g.Wait() // members report through their verdicts, never through the group
	return verdicts
}

// startOrder answers the member indexes in the order the pool starts
// them: the First members, then the rest, each group in member order.
func startOrder(members []Member) []int {
	order := make([]int, 0, len(members))
	for _, first := range []bool{true, false} {
		for i, m := range members {
			if m.First == first {
				order = append(order, i)
			}
		}
	}
	return order
}

// budgeted runs a member under opts.Budget (see Bounded).
func budgeted(m Member, scratch string, opts Options) Outcome {
	return Bounded(m.Name, m.InProcess, opts.Budget, opts.Grace, func(ctx context.Context) Outcome {
		return guarded(m, ctx, scratch)
	})
}

// Bounded runs exec under budget, the one budget rule the battery and the
// git hooks share. Past the budget exec's context ends, which kills a
// shell member's process group; the member is then waited for a grace
// period (zero means 5 s) to keep what it printed, and read as exit 2
// "timed out". An in-process member cannot be killed (a goroutine has no
// handle to stop it): the caller stops waiting for it and reads it the
// same way, and the rule runs on unobserved until the process exits. A
// zero budget runs exec to its end.
func Bounded(name string, inProcess bool, budget, grace time.Duration, exec func(ctx context.Context) Outcome) Outcome {
	if budget <= 0 {
		return exec(context.Background())
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	done := make(chan Outcome, 1)
	go func() { done <- exec(ctx) }()
	select {
	case out := <-done:
		if ctx.Err() == nil {
			return out
		}
		// It ended as the budget ran out: a kill is a timeout.
		return timedOut(name, inProcess, budget, out.Output, true)
	case <-ctx.Done():
	}
	if grace <= 0 {
		grace = 5 * time.Second
	}
	if inProcess {
		return timedOut(name, inProcess, budget, nil, false)
	}
	select {
	case out := <-done:
		return timedOut(name, inProcess, budget, out.Output, true)
	case <-time.After(grace):
		return timedOut(name, inProcess, budget, nil, false)
	}
}

// timedOut is a member's exit 2 past its budget, after whatever it printed.
func timedOut(name string, inProcess bool, budget time.Duration, printed []byte, stopped bool) Outcome {
	// assertion Q: a member past its budget is exit 2 naming it and the budget.
	how := "stopped with its child processes"
	if !stopped {
		how = "no longer waited for"
		if inProcess {
			how += " (an in-process gate cannot be stopped)"
		}
	}
	out := append([]byte(nil), printed...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, fmt.Sprintf("%s: timed out after %s (GATE_SDK_GATE_TIMEOUT); %s\n", name, seconds(budget), how)...)
	return Outcome{Code: 2, Output: out}
}

// seconds spells a budget the way the knob is written: "600 s", or
// "0.5 s" for a budget a test set below a second.
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return fmt.Sprintf("%g s", d.Seconds())
}

// guarded runs a member and turns an escaped panic into that member's exit 2.
func guarded(m Member, ctx context.Context, scratch string) (out Outcome) {
	// assertion E: a panic reds its member, never the battery.
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Code: 2, Output: append(out.Output, []byte(fmt.Sprintf("%s: internal error: %v\n%s", m.Name, r, debug.Stack()))...)}
		}
	}()
	return m.Exec(ctx, scratch)
}

// Report renders the verdicts. verbose restores every member's banner and
// output. omissions holds the counts of `# omitted:` lines by reason token,
// in first-appearance order. It answers the number of red members.
func Report(w io.Writer, verdicts []Verdict, verbose bool, specLine func(Member) string, omissions []Omission) int {
	var failed []string
	for _, v := range verdicts {
		if v.Passed() {
			// assertion C: green is silent unless GATE_SDK_VERBOSE asks.
			if verbose {
				fmt.Fprintf(w, "===== %s =====\n", v.Name)
				w.Write(v.Output)
				fmt.Fprintf(w, "  PASS: %s\n", v.Name)
			}
			continue
		}
		failed = append(failed, v.Name)
		// assertion D: a red member's whole block, its verdict tail and its invariant.
		fmt.Fprintf(w, "===== %s =====\n", v.Name)
		w.Write(v.Output)
		if len(v.Output) > 0 && v.Output[len(v.Output)-1] != '\n' {
			fmt.Fprintln(w)
		}
		switch {
		case v.Unresolved:
			fmt.Fprintf(w, "  FAIL: %s (unresolved)\n", v.Name)
		case v.Harness != "":
			fmt.Fprintf(w, "  FAIL: %s (dispatch harness error, exit 2)\n", v.Name)
		default:
			fmt.Fprintf(w, "  FAIL: %s (exit %d)\n", v.Name, v.Code)
		}
		if specLine != nil {
			if s := specLine(v.Member); s != "" {
				fmt.Fprintf(w, "    spec: %s\n", s)
			}
		}
	}
	fmt.Fprintln(w, Summary(verdicts))
	for _, o := range omissions {
		fmt.Fprintf(w, "%d gate(s) omitted from the registry for %q; restore them by deleting their `# omitted:` lines when the reason no longer holds.\n", o.Count, o.Reason)
	}
	return len(failed)
}

// Summary is the battery's closing line: every member passed, or which
// of them failed.
func Summary(verdicts []Verdict) string {
	var failed []string
	for _, v := range verdicts {
		if !v.Passed() {
			failed = append(failed, v.Name)
		}
	}
	if len(failed) == 0 {
		// assertion C: the green line counts and names the members that
		// checked nothing, so a clean battery never reads as coverage it
		// did not give.
		var idle []string
		for _, v := range verdicts {
			if v.Nothing {
				idle = append(idle, v.Name)
			}
		}
		note := ""
		if len(idle) > 0 {
			note = fmt.Sprintf(" (%d checked nothing: %s)", len(idle), strings.Join(idle, ", "))
		}
		if len(verdicts) == 1 {
			return "The 1 gate passed" + note + "."
		}
		return fmt.Sprintf("All %d gates passed%s.", len(verdicts), note)
	}
	return fmt.Sprintf("%d of %s FAILED: %s", len(failed), gate.Count(len(verdicts), "gate", "gates"), strings.Join(failed, " "))
}

// Omission counts the `# omitted:` registry lines carrying one reason token.
type Omission struct {
	Reason string
	Count  int
}

// Timings renders the timings file: one `<gate> <ms>` line per executed
// member in registry order, then TOTAL, the sum of member times.
func Timings(verdicts []Verdict) string {
	var b strings.Builder
	var total int64
	for _, v := range verdicts {
		ms := v.Elapsed.Milliseconds()
		total += ms
		fmt.Fprintf(&b, "%s %d\n", v.Name, ms)
	}
	fmt.Fprintf(&b, "TOTAL %d\n", total)
	return b.String()
}
