package repo

import (
	"errors"
	"runtime/debug"

	"github.com/gate-sdk/gates/internal/fmap"
)

// errMappedFault is a memory fault met reading a mapped file's bytes: the
// file was cut short where it stands while it was read (git never does
// that to an index; see mapFile).
var errMappedFault = errors.New("the file was cut short while it was read (a fault on its mapped bytes)")

// faultGuard runs f on this goroutine with a memory fault answered as
// errMappedFault instead of crashing the process; any other panic goes on.
func faultGuard(f func()) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); fault {
				err = errMappedFault
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// mapFile maps name read-only (see package fmap): the index is written to
// a lock file and renamed into place, never rewritten where it stands, so
// the mapped bytes stay those of the file that was opened. The bytes must
// not be used after release, nor be written.
func mapFile(name string) (data []byte, release func(), err error) { return fmap.Map(name) }
