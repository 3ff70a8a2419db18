package fmap

import (
	"strconv"
	"strings"
	"time"
)

// StampBefore reports whether both times an identity stamp MapStamp spells
// (its last two fields, seconds.nanoseconds) lie before limit: a file
// that old is past the grain in which a rewrite in place could keep its
// stamp. An empty or malformed stamp answers false.
func StampBefore(stamp string, limit time.Time) bool {
	f := strings.Fields(stamp)
	if len(f) < 2 {
		return false
	}
	for _, t := range f[len(f)-2:] {
		sec, nsec, ok := strings.Cut(t, ".")
		s, err1 := strconv.ParseInt(sec, 10, 64)
		ns, err2 := strconv.ParseInt(nsec, 10, 64)
		if !ok || err1 != nil || err2 != nil || !time.Unix(s, ns).Before(limit) {
			return false
		}
	}
	return true
}
