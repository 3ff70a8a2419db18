package fmap

import (
	"testing"
	"time"
)

func TestStampBefore(t *testing.T) {
	limit := time.Unix(100, 0)
	for _, tc := range []struct {
		stamp string
		want  bool
	}{
		{"12 34 5 644 90.5 99.999999999", true},
		{"12 34 5 644 90.5 100.0", false}, // the change time not before
		{"12 34 5 644 100.1 90.0", false}, // the modification time not before
		{"90.5", false},
		{"", false},
		{"1 2 x.1 90.0", false},
		{"1 2 90 90.0", false}, // a time with no nanoseconds
	} {
		if got := StampBefore(tc.stamp, limit); got != tc.want {
			t.Errorf("StampBefore(%q) = %v, want %v", tc.stamp, got, tc.want)
		}
	}
}
