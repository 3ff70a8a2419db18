package gates

import (
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
