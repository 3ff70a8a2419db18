package gates

import (
	"reflect"
	"testing"
)

// TestCdParts: a cd after ; or && on a line starts a part of its own; a
// cd after || or a pipe, or inside quotes, does not.
func TestCdParts(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		{"source build.env ; cd examples/backups", []string{"source build.env ", " cd examples/backups"}},
		{"make && cd web && ./run.sh", []string{"make ", " cd web && ./run.sh"}},
		{"cd web; ./run.sh", []string{"cd web; ./run.sh"}},
		{"test -d web || cd other", []string{"test -d web || cd other"}},
		{"ls | cd web", []string{"ls | cd web"}},
		{"echo 'a; cd web'", []string{"echo 'a; cd web'"}},
		{"./a.sh & cd web", []string{"./a.sh & cd web"}},
	}
	for _, tc := range cases {
		if got := cdParts(tc.line); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("cdParts(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
