package cli

import (
	"errors"
	"io"
	"sync"
	"syscall"
)

// departedWriter forwards writes until the reader of the stream has gone
// (EPIPE), then drops that write and every later one while reporting
// success, so a closed pipe never changes the process's exit status. Any
// other write error is passed through: a document cut short by a full disk
// must not read as complete.
type departedWriter struct {
	mu   sync.Mutex
	w    io.Writer
	gone bool
}

func (d *departedWriter) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.gone {
		return len(p), nil
	}
	n, err := d.w.Write(p)
	// assertion D: a departed reader drops this write and every later one.
	if err != nil && errors.Is(err, syscall.EPIPE) {
		d.gone = true
		return len(p), nil
	}
	return n, err
}

// writeFailure passes writes through and keeps the first error one
// answered, so an arm whose output is its product can tell a projection
// written whole from one a full disk cut short. A reader that has gone is
// departedWriter's affair below it and answers no error here.
type writeFailure struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (f *writeFailure) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil {
		f.mu.Lock()
		if f.err == nil {
			f.err = err
		}
		f.mu.Unlock()
	}
	return n, err
}

// lockedWriter serialises writes to one buffer shared by a gate's stdout
// and stderr, keeping their interleaving in write order.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
