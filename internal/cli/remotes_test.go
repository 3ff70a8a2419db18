package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gate-sdk/gates/internal/walk"
)

// TestRemotesInProcessAgreeWithGit holds the remotes the hook reads from
// the config files to what git config lists, over the spellings a clone
// meets, and checks the in-process reading is the one taken where it can
// be.
func TestRemotesInProcessAgreeWithGit(t *testing.T) {
	l, open := packRepo(t)
	cfg := filepath.Join(l.dir, ".git", "config")
	base, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, body string
		inProcess  bool
	}{
		{"no remote", "", true},
		{"origin", "[remote \"origin\"]\n\turl = https://example.com/a.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n", true},
		{"two, one with a path", "[remote \"origin\"]\n\turl = /srv/a.git/\n[remote \"Up\"]\n\turl = git@example.com:b/c.git\n", true},
		{"two urls, the last counts", "[remote \"origin\"]\n\turl = /one\n\turl = /two\n", true},
		{"a push url only", "[remote \"p\"]\n\tpushurl = /push\n", true},
		{"an empty url", "[remote \"e\"]\n\turl =\n", true},
		{"an include is git's", "[include]\n\tpath = other.cfg\n", false},
	}
	if err := os.WriteFile(filepath.Join(l.dir, ".git", "other.cfg"), []byte("[remote \"inc\"]\n\turl = /included\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(cfg, append(append([]byte{}, base...), tc.body...), 0o644); err != nil {
				t.Fatal(err)
			}
			r := open()
			_, common, err := r.gitDirs()
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := walk.ConfigSubsectionValues(common, os.Environ(), "remote", "url"); ok != tc.inProcess {
				t.Fatalf("read in process: %v, want %v", ok, tc.inProcess)
			}
			got, err := r.Remotes()
			if err != nil {
				t.Fatal(err)
			}
			want, err := r.remotesByGit()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Remotes %q, git config %q", got, want)
			}
		})
	}
}
