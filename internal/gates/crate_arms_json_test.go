package gates

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// assertion J: the events give the package lines, the slowest tests and
// the plain report of a red run (failing tests' output and package lines,
// not the passing tests' nor the verbose-only lines).
func TestTestJSONFoldsTheEvents(t *testing.T) {
	var stages []string
	j := newTestJSON(func(s string, _ time.Duration) { stages = append(stages, s) })
	stream := `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestSlow"}
{"Action":"output","Package":"m/a","Test":"TestSlow","Output":"=== RUN   TestSlow\n"}
{"Action":"output","Package":"m/a","Test":"TestSlow","Output":"    a_test.go:3: chatter of a pass\n"}
{"Action":"output","Package":"m/a","Test":"TestSlow","Output":"--- PASS: TestSlow (2.50s)\n"}
{"Action":"pass","Package":"m/a","Test":"TestSlow","Elapsed":2.5}
{"Action":"output","Package":"m/a","Test":"TestRed","Output":"=== RUN   TestRed\n"}
{"Action":"output","Package":"m/a","Test":"TestRed","Output":"    a_test.go:9: 2+3 is not 5\n"}
{"Action":"output","Package":"m/a","Test":"TestRed","Output":"--- FAIL: TestRed (0.10s)\n"}
{"Action":"fail","Package":"m/a","Test":"TestRed","Elapsed":0.1}
{"Action":"output","Package":"m/a","Test":"TestHung","Output":"panic: test timed out\n"}
{"Action":"output","Package":"m/a","Output":"FAIL\n"}
{"Action":"output","Package":"m/a","Output":"FAIL\tm/a\t2.7s\n"}
{"Action":"fail","Package":"m/a","Elapsed":2.7}
{"Action":"output","Package":"m/b","Output":"ok  \tm/b\t0.3s\n"}
{"Action":"pass","Package":"m/b","Elapsed":0.3}
# m/c
c.go:1: syntax error
`
	for _, chunk := range []string{stream[:100], stream[100:333], stream[333:]} {
		j.Write([]byte(chunk))
	}
	rep := string(j.Report())
	for _, want := range []string{"panic: test timed out\n", "    a_test.go:9: 2+3 is not 5\n--- FAIL: TestRed (0.10s)\n", "FAIL\tm/a\t2.7s\n", "ok  \tm/b\t0.3s\n", "# m/c\nc.go:1: syntax error\n"} {
		if !strings.Contains(rep, want) {
			t.Errorf("the report lacks %q:\n%s", want, rep)
		}
	}
	for _, gone := range []string{"=== RUN", "chatter of a pass", "--- PASS"} {
		if strings.Contains(rep, gone) {
			t.Errorf("the report keeps %q:\n%s", gone, rep)
		}
	}
	if got := strings.Join(stages, "|"); got != "go test: FAIL m/a|go test: ok m/b" {
		t.Errorf("package lines %q", got)
	}
	if got, want := j.Slowest(1), "   2.50s m/a TestSlow\n"; got != want {
		t.Errorf("slowest %q, want %q", got, want)
	}
	if n := strings.Count(j.Slowest(10), "\n"); n != 2 {
		t.Errorf("%d timed tests, want 2 (a hung test has no time)", n)
	}
}

// A quiet span gets a running line; a stopped heartbeat reports no more.
func TestTestJSONHeartbeat(t *testing.T) {
	lines := make(chan string, 8)
	j := newTestJSON(func(s string, _ time.Duration) { lines <- s })
	stop := j.heartbeat(40 * time.Millisecond)
	select {
	case l := <-lines:
		if l != "go test: running, 0 packages done" {
			t.Errorf("heartbeat %q", l)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no heartbeat after a quiet span")
	}
	stop()
}

// assertion J: a test's time in the slowest-tests record is the time it
// spent running. A parallel test paused for a slot is not charged for the
// wait, and a parent is the sum of its leaves' running time, not the span
// its subtests took to get a slot.
func TestSlowestCountsRunningTimeOnly(t *testing.T) {
	j := newTestJSON(nil)
	at := func(s float64) string {
		return time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC).Add(time.Duration(s * float64(time.Second))).Format(time.RFC3339Nano)
	}
	ev := func(action, test string, s, elapsed float64) string {
		return `{"Time":"` + at(s) + `","Action":"` + action + `","Package":"m","Test":"` + test + `","Elapsed":` + strconv.FormatFloat(elapsed, 'f', -1, 64) + "}\n"
	}
	stream := ev("run", "TestBusy", 0, 0) + ev("pass", "TestBusy", 4, 4) +
		ev("run", "TestWaited", 0, 0) + ev("pause", "TestWaited", 0.1, 0) +
		ev("cont", "TestWaited", 10, 0) + ev("pass", "TestWaited", 10.5, 10.5) +
		ev("run", "TestParent", 0, 0) + ev("pause", "TestParent", 0.1, 0) + ev("cont", "TestParent", 5, 0) +
		ev("run", "TestParent/a", 5, 0) + ev("pause", "TestParent/a", 5, 0) +
		ev("run", "TestParent/b", 5, 0) + ev("pause", "TestParent/b", 5, 0) +
		ev("cont", "TestParent/a", 20, 0) + ev("pass", "TestParent/a", 22, 2) +
		ev("cont", "TestParent/b", 22, 0) + ev("pass", "TestParent/b", 23, 1) +
		ev("pass", "TestParent", 23, 23)
	j.Write([]byte(stream))
	want := "   4.00s m TestBusy\n   3.00s m TestParent\n   0.60s m TestWaited\n"
	if got := j.Slowest(10); got != want {
		t.Errorf("slowest\n%s\nwant\n%s", got, want)
	}
}
