package battery

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestBudgetStopsAMemberThatHonoursIt: a member past its budget sees its
// context end, and what it printed is kept above the timeout line.
func TestBudgetStopsAMemberThatHonoursIt(t *testing.T) {
	slow := Member{Name: "check-slow", Exec: func(ctx context.Context, _ string) Outcome {
		select {
		case <-ctx.Done():
			return Outcome{Code: 137, Output: []byte("started\n")}
		case <-time.After(30 * time.Second):
			return Outcome{}
		}
	}}
	quick := Member{Name: "check-quick", Exec: func(context.Context, string) Outcome {
		return Outcome{Output: []byte("QUICK: clean (x)\n")}
	}}
	start := time.Now()
	v := Run([]Member{slow, quick}, Options{Jobs: 2, Budget: 200 * time.Millisecond})
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("the battery waited %v", took)
	}
	if v[0].Code != 2 || string(v[0].Output) != "started\ncheck-slow: timed out after 0.2 s (GATE_SDK_GATE_TIMEOUT); stopped with its child processes\n" {
		t.Fatalf("slow: exit %d %q", v[0].Code, v[0].Output)
	}
	if v[1].Code != 0 {
		t.Fatalf("quick: exit %d %q", v[1].Code, v[1].Output)
	}
}

// TestBudgetLeavesAnInProcessMemberBehind: a member that cannot be
// stopped is no longer waited for once its budget is spent.
func TestBudgetLeavesAnInProcessMemberBehind(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	stuck := Member{Name: "check-stuck", InProcess: true, Exec: func(context.Context, string) Outcome {
		<-release
		return Outcome{}
	}}
	start := time.Now()
	v := Run([]Member{stuck}, Options{Jobs: 1, Budget: time.Second})
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("the battery waited %v for an in-process member", took)
	}
	if v[0].Code != 2 || !strings.Contains(string(v[0].Output), "check-stuck: timed out after 1 s (GATE_SDK_GATE_TIMEOUT); no longer waited for (an in-process gate cannot be stopped)") {
		t.Fatalf("exit %d %q", v[0].Code, v[0].Output)
	}
}

// TestNoBudgetRunsToTheEnd: a zero budget never cuts a member short.
func TestNoBudgetRunsToTheEnd(t *testing.T) {
	m := Member{Name: "check-x", Exec: func(ctx context.Context, _ string) Outcome {
		time.Sleep(50 * time.Millisecond)
		if ctx.Err() != nil {
			return Outcome{Code: 1}
		}
		return Outcome{Output: []byte("X: clean (x)\n")}
	}}
	if v := Run([]Member{m}, Options{Jobs: 1}); v[0].Code != 0 {
		t.Fatalf("exit %d %q", v[0].Code, v[0].Output)
	}
}
