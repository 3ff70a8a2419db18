package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// isTerminal reports whether w is a character device: a terminal a person
// reads, not a pipe, a file or a test's buffer.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// colourWanted decides colour: a terminal only, never under NO_COLOR (any
// non-empty value, https://no-color.org) or TERM=dumb.
//
// assertion G: colour on a terminal only, never under NO_COLOR or TERM=dumb.
func colourWanted(tty bool, env func(string) (string, bool)) bool {
	if !tty {
		return false
	}
	if v, ok := env("NO_COLOR"); ok && v != "" {
		return false
	}
	if v, _ := env("TERM"); v == "dumb" {
		return false
	}
	return true
}

// ANSI styles of the transcript's line kinds.
const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiAmber = "\x1b[33m"
)

// lineStyle answers the style of one transcript line, "" for none. It
// reads the contract's own line shapes, so a colour never changes what a
// line says: the bytes between the escapes are the text transcript's.
func lineStyle(line string) string {
	switch {
	case strings.HasPrefix(line, "===== ") && strings.HasSuffix(line, " ====="):
		return ansiBold
	case strings.HasPrefix(line, "  FAIL: "), strings.Contains(line, " FAILED: "):
		return ansiRed
	case strings.HasPrefix(line, "help: "):
		return ansiAmber
	case strings.HasPrefix(line, "All ") && strings.Contains(line, " gates passed") && strings.HasSuffix(line, "."),
		strings.HasPrefix(line, "The 1 gate passed") && strings.HasSuffix(line, "."),
		strings.HasPrefix(line, "  PASS: "), strings.Contains(line, ": clean ("):
		return ansiGreen
	}
	return ""
}

// colourWriter styles whole lines as they pass; a partial line waits for
// its newline or for Flush.
type colourWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func (c *colourWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = append(c.buf, p...)
	for {
		i := bytes.IndexByte(c.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if err := c.emit(string(c.buf[:i]), "\n"); err != nil {
			return len(p), err
		}
		c.buf = c.buf[i+1:]
	}
}

func (c *colourWriter) emit(line, end string) error {
	style := lineStyle(line)
	if style == "" {
		_, err := io.WriteString(c.w, line+end)
		return err
	}
	_, err := io.WriteString(c.w, style+line+ansiReset+end)
	return err
}

// Flush writes a trailing partial line.
func (c *colourWriter) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.buf) > 0 {
		_ = c.emit(string(c.buf), "")
		c.buf = nil
	}
}

// progressWanted decides the live progress line: stderr a terminal and
// not under CI (which sets CI in every runner this audience uses).
//
// assertion H: progress on a terminal stderr outside CI, never on stdout.
func progressWanted(tty bool, env func(string) (string, bool)) bool {
	if !tty {
		return false
	}
	if v, ok := env("CI"); ok && v != "" && v != "false" {
		return false
	}
	return true
}

// progress is the battery's live line on stderr: members done of total and
// the slowest still running. It appears only once the run has lasted a
// second, redraws in place and is erased before the run returns, so it
// leaves nothing behind on the terminal and never touches stdout.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	names   []string
	started map[int]time.Time
	done    int
	shown   bool
	stop    chan struct{}
	stopped chan struct{}
}

// progressDelay is how long a battery runs before its progress shows.
const progressDelay = time.Second

func newProgress(w io.Writer, names []string) *progress {
	return &progress{w: w, names: names, started: map[int]time.Time{}, stop: make(chan struct{}), stopped: make(chan struct{})}
}

func (p *progress) Start(i int) {
	p.mu.Lock()
	p.started[i] = time.Now()
	p.mu.Unlock()
}

func (p *progress) Done(i int) {
	p.mu.Lock()
	delete(p.started, i)
	p.done++
	p.mu.Unlock()
}

// run redraws until Stop; it starts drawing after progressDelay.
func (p *progress) run() {
	defer close(p.stopped)
	select {
	case <-p.stop:
		return
	case <-time.After(progressDelay):
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		p.draw(time.Now())
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
	}
}

func (p *progress) draw(now time.Time) {
	p.mu.Lock()
	line := renderProgress(p.done, len(p.names), p.running(now))
	p.shown = true
	p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
}

// running answers the running members, slowest first, with their ages.
func (p *progress) running(now time.Time) []runningMember {
	var out []runningMember
	for i, t := range p.started {
		out = append(out, runningMember{p.names[i], now.Sub(t)})
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].age != out[b].age {
			return out[a].age > out[b].age
		}
		return out[a].name < out[b].name
	})
	return out
}

type runningMember struct {
	name string
	age  time.Duration
}

// renderProgress is the progress line's text.
func renderProgress(done, total int, running []runningMember) string {
	line := fmt.Sprintf("gates: %d of %d done", done, total)
	if len(running) > 0 {
		line += fmt.Sprintf(", %d running; slowest %s (%.1fs)", len(running), running[0].name, running[0].age.Seconds())
	}
	return line
}

// Stop ends the redraws and erases the line if it was drawn.
func (p *progress) Stop() {
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
