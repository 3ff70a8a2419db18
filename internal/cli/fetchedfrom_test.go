package cli

import "testing"

// A remote-tracking tip counts as the remote's work only when the fetch
// that wrote it named no repository or a configured remote: a fetch by
// path into refs/remotes/origin/ is the agent's.
func TestFetchedFromRemoteReadsTheSource(t *testing.T) {
	remotes := map[string]string{"origin": "/srv/up", "mirror": "https://example.invalid/team/repo"}
	for _, c := range []struct {
		msg  string
		want bool
	}{
		{"fetch -q: fast-forward", true},
		{"fetch -q origin: fast-forward", true},
		{"fetch origin main: storing head", true},
		{"pull -q --ff-only: fast-forward", true},
		{"pull -q origin main: fast-forward", true},
		{"fetch --multiple --all: fast-forward", true},
		{"fetch --multiple origin mirror: fast-forward", true},
		{"fetch --depth 1 origin: fast-forward", true},
		{"fetch /srv/up.git main:refs/remotes/origin/main: fast-forward", true},
		{"fetch https://example.invalid/team/repo/: fast-forward", true},
		{"clone: from /srv/up", true},
		{"fetch -q ../s main:refs/remotes/origin/main: fast-forward", false},
		{"fetch -q /tmp/scratch main:refs/remotes/origin/main: fast-forward", false},
		{"pull ../s main: fast-forward", false},
		{"fetch --multiple origin ../s: fast-forward", false},
		{"fetch other: fast-forward", false},
	} {
		if got := fetchedFromRemote(c.msg, remotes); got != c.want {
			t.Errorf("%q: got %v, want %v", c.msg, got, c.want)
		}
	}
}
