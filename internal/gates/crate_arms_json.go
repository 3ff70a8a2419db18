package gates

// The test arm reads `go test -json`: its events give each package's end
// (the progress line), each test's time (the slowest-tests record) and,
// for a red run, the report a plain `go test` prints, rebuilt from the
// failing tests' output and every package line.

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// SlowestTestsName is the record of the test arm's slowest tests, under
// GATE_SDK_TMP_DIR; `make bench` prints it.
const SlowestTestsName = "go-test-slowest.txt"

// testEvent is one line of `go test -json` (test2json's event).
type testEvent struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
	Time    time.Time // when test2json saw the event (zero when absent)
}

// testJSON folds the event stream as it arrives.
type testJSON struct {
	mu       sync.Mutex
	progress func(string, time.Duration)
	buf      []byte
	report   strings.Builder     // the plain report, as go test prints it
	pending  map[string][]string // a running test's output, by package and name
	order    []string            // pending keys, in first-seen order
	times    []testTime
	spans    map[string]*testSpan // every test's running time, by package and name
	last     time.Time            // when the last progress line was reported
	packages int                  // packages ended so far
}

type testTime struct {
	pkg, name string
	secs      float64 // go test's elapsed figure: paused time included
}

// testSpan is the time one test (or subtest) spent running: from each
// run or cont event to the pause or end that followed it. A parallel
// test's elapsed figure also counts the time it sat paused waiting for a
// slot (and a parent's, the time its subtests waited), which names the
// tests that waited longest, not the ones that cost most.
type testSpan struct {
	since    time.Time // the open span's start (zero: not running)
	running  time.Duration
	timed    bool // at least one span closed with both ends stamped
	children bool // a subtest of it ran
}

func newTestJSON(progress func(string, time.Duration)) *testJSON {
	return &testJSON{progress: progress, pending: map[string][]string{}, spans: map[string]*testSpan{}, last: time.Now()}
}

// span folds one event of a named test into its running time.
func (j *testJSON) span(e testEvent) {
	key := e.Package + "\x00" + e.Test
	sp := j.spans[key]
	if sp == nil {
		sp = &testSpan{}
		j.spans[key] = sp
		for name := e.Test; strings.Contains(name, "/"); {
			name = name[:strings.LastIndex(name, "/")]
			pk := e.Package + "\x00" + name
			if j.spans[pk] == nil {
				j.spans[pk] = &testSpan{}
			}
			j.spans[pk].children = true
		}
	}
	switch e.Action {
	case "run", "cont":
		sp.since = e.Time
	case "pause", "pass", "fail", "skip":
		if !sp.since.IsZero() && !e.Time.IsZero() {
			sp.running += e.Time.Sub(sp.since)
			sp.timed = true
		}
		sp.since = time.Time{}
	}
}

// cost answers a top-level test's seconds: the running time of its leaf
// tests (itself when it has no subtests), or go test's elapsed figure when
// the stream carried no timestamps.
func (j *testJSON) cost(t testTime) float64 {
	prefix := t.pkg + "\x00" + t.name
	var sum time.Duration
	timed := false
	for key, sp := range j.spans {
		if sp.children || !sp.timed || (key != prefix && !strings.HasPrefix(key, prefix+"/")) {
			continue
		}
		sum += sp.running
		timed = true
	}
	if !timed {
		return t.secs
	}
	return sum.Seconds()
}

func (j *testJSON) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf = append(j.buf, p...)
	for {
		i := strings.IndexByte(string(j.buf), '\n')
		if i < 0 {
			return len(p), nil
		}
		j.line(string(j.buf[:i+1]))
		j.buf = j.buf[i+1:]
	}
}

// line folds one line: an event, or text go printed outside the stream
// (a build failure before Go 1.24's build events), kept verbatim.
func (j *testJSON) line(l string) {
	var e testEvent
	if !strings.HasPrefix(l, "{") || json.Unmarshal([]byte(l), &e) != nil {
		j.report.WriteString(l)
		return
	}
	key := e.Package + "\x00" + e.Test
	if e.Test != "" {
		j.span(e)
	}
	switch {
	case e.Action == "build-output":
		j.report.WriteString(e.Output)
	case e.Test == "" && e.Action == "output":
		j.report.WriteString(e.Output)
	case e.Test == "" && (e.Action == "pass" || e.Action == "fail"):
		j.packages++
		j.last = time.Now()
		if j.progress != nil {
			word := map[string]string{"pass": "ok", "fail": "FAIL"}[e.Action]
			j.progress("go test: "+word+" "+e.Package, time.Duration(e.Elapsed*float64(time.Second)))
		}
	case e.Test == "":
	case e.Action == "output":
		if _, ok := j.pending[key]; !ok {
			j.order = append(j.order, key)
		}
		j.pending[key] = append(j.pending[key], e.Output)
	case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
		if e.Action == "fail" {
			j.flush(key)
		}
		delete(j.pending, key)
		if !strings.Contains(e.Test, "/") && e.Action != "skip" {
			j.times = append(j.times, testTime{e.Package, e.Test, e.Elapsed})
		}
	}
}

// flush writes one test's output into the report, less the lines only a
// verbose run prints.
func (j *testJSON) flush(key string) {
	for _, o := range j.pending[key] {
		if t := strings.TrimLeft(o, " "); strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- PASS") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		j.report.WriteString(o)
	}
}

// heartbeat reports `go test: running, <n> packages done` on the
// progress channel after every quiet span with no line of its own, until
// the answered stop is called.
func (j *testJSON) heartbeat(quiet time.Duration) (stop func()) {
	if j.progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	start := time.Now()
	go func() {
		t := time.NewTicker(quiet / 4)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				j.mu.Lock()
				if time.Since(j.last) >= quiet {
					j.last = time.Now()
					j.progress(fmt.Sprintf("go test: running, %d packages done", j.packages), time.Since(start))
				}
				j.mu.Unlock()
			}
		}
	}()
	return func() { close(done) }
}

// Report answers the plain report. Tests that never ended (a panic or a
// timeout killed the binary while they ran) keep their output too.
func (j *testJSON) Report() []byte {
	j.mu.Lock()
	defer j.mu.Unlock()
	var b strings.Builder
	for _, key := range j.order {
		if _, open := j.pending[key]; open {
			for _, o := range j.pending[key] {
				if !strings.HasPrefix(strings.TrimLeft(o, " "), "=== ") {
					b.WriteString(o)
				}
			}
		}
	}
	return []byte(b.String() + j.report.String() + string(j.buf))
}

// Slowest answers the n slowest top-level tests, slowest first (ties by
// package and name), one `<seconds>s <package> <test>` line each. A
// test's seconds are the time its leaves spent running (testSpan), so a
// parallel test that mostly waited for a slot is not named for it.
func (j *testJSON) Slowest(n int) string {
	j.mu.Lock()
	defer j.mu.Unlock()
	ts := append([]testTime(nil), j.times...)
	for i := range ts {
		ts[i].secs = j.cost(ts[i])
	}
	sort.Slice(ts, func(a, b int) bool {
		if ts[a].secs != ts[b].secs {
			return ts[a].secs > ts[b].secs
		}
		return ts[a].pkg+" "+ts[a].name < ts[b].pkg+" "+ts[b].name
	})
	var b strings.Builder
	for i, t := range ts {
		if i == n {
			break
		}
		fmt.Fprintf(&b, "%7.2fs %s %s\n", t.secs, t.pkg, t.name)
	}
	return b.String()
}

// testArm runs go test -json in the module, reports each package on the
// progress channel, writes the slowest-tests record under tmp (when the
// scratch dir can be made) and answers the arm's failure in go test's
// plain words.
func testArm(c *gate.Context, dir string, env []string, progress func(string, time.Duration), tmp string) []gate.Finding {
	const label = "go test -count=1 -vet=off -timeout=60m ./..."
	j := newTestJSON(progress)
	// go test prints packages in order, so one slow package holds back
	// every line after it: a quiet minute gets a line of its own.
	stop := j.heartbeat(time.Minute)
	defer stop()
	cmd := spawn.Cmd{Program: spawn.Go(), Args: []string{"test", "-json", "-count=1", "-vet=off", "-timeout=60m", "./..."}, Dir: dir, Env: env, Recorder: c.Spawns}
	code, err := spawn.RunPassing(cmd, j)
	if err != nil {
		return []gate.Finding{{Class: "arm-go", Msg: fmt.Sprintf("%s could not run: %v", label, err)}}
	}
	if slow := j.Slowest(10); slow != "" && walk.EnsureTmpDir(tmp, c.Dir) == nil {
		head := fmt.Sprintf("# the slowest tests of the last go test arm (%s), seconds each spent running (paused time left out; a test with subtests is the sum of its leaves)\n", time.Now().UTC().Format(time.RFC3339))
		_ = os.WriteFile(walk.Child(runPath(c, tmp), SlowestTestsName), []byte(head+slow), 0o644)
	}
	if code != 0 {
		return []gate.Finding{relay("test", label, code, j.Report())}
	}
	return nil
}
