//go:build !linux

package walk

import "time"

// dirStamp offers no stat data here, so Find never keeps a listing and
// walks every time.
func dirStamp(string) (stamp, bool) { return stamp{}, false }

// ChangedBefore cannot read a change time here: nothing is known to be
// older.
func ChangedBefore(string, time.Time) bool { return false }
