package repo

import (
	"errors"
	"runtime/debug"
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
