package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A remote's URL is read as git fetches from it: a url.<base>.insteadOf
// rule rewrites it (the longest prefix wins), in process and through git
// config alike, and agrees with `git ls-remote --get-url`. A rule written
// during the session so repoints a remote as set-url would.
func TestRemotesReadURLsAsGitRewritesThem(t *testing.T) {
	l, open := packRepo(t)
	cfg := filepath.Join(l.dir, ".git", "config")
	base, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	body := "[remote \"origin\"]\n\turl = https://example.invalid/team/p.git\n[remote \"up\"]\n\turl = /srv/up.git\n" +
		"[url \"/srv/scratch\"]\n\tinsteadOf = https://example.invalid/team/p\n[url \"/srv/other\"]\n\tinsteadOf = https://example.invalid/\n"
	if err := os.WriteFile(cfg, append(append([]byte{}, base...), body...), 0o644); err != nil {
		t.Fatal(err)
	}
	r := open()
	got, err := r.Remotes()
	if err != nil {
		t.Fatal(err)
	}
	byGit, err := r.remotesByGit()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", l.dir, "ls-remote", "--get-url", "origin").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := trimURL(strings.TrimSpace(string(out)))
	if got["origin"] != want || byGit["origin"] != want || got["up"] != "/srv/up" {
		t.Fatalf("in process %q, by git %q, want origin %q (git's rewrite) and up /srv/up", got, byGit, want)
	}
}
