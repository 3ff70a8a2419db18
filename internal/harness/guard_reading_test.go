package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestInspectHeredocMessages: the message of a commit given as a
// here-document (Claude Code's own `-m "$(cat <<'EOF' … EOF)"`, an
// unquoted delimiter with nothing to expand, `<<-`, and `-F -` fed one) is
// read before the command runs.
func TestInspectHeredocMessages(t *testing.T) {
	cases := map[string][]string{
		"git commit -m \"$(cat <<'EOF'\nwip stuff\n\nbody\nEOF\n)\"":             {"wip stuff\n\nbody\n"},
		"git commit -m \"$(cat <<EOF\nwip stuff\nEOF\n)\"":                       {"wip stuff\n"},
		"git commit -m \"$(cat <<-EOF\n\twip stuff\n\tEOF\n)\"":                  {"wip stuff\n"},
		"git commit -m \"$(cat <<\"EOF\"\nwip $HOME\nEOF\n)\"":                   {"wip $HOME\n"},
		"git add -A && git commit -m \"$(cat <<'EOF'\nwip\nEOF\n)\" && git push": {"wip\n"},
		"git commit -F - <<'EOF'\nwip stuff\nEOF\n":                              {"wip stuff\n"},
		"git commit -F- <<EOF\nwip stuff\nEOF\n":                                 {"wip stuff\n"},
		"git commit --file=- <<< 'wip stuff'":                                    {"wip stuff\n"},
		"git commit --file - <<-'EOF'\n\twip stuff\n\tEOF\n":                     {"wip stuff\n"},
		// An unquoted body that expands is known only when the shell runs.
		"git commit -m \"$(cat <<EOF\nwip $HOME\nEOF\n)\"":   nil,
		"git commit -m \"$(cat <<EOF\nwip $(date)\nEOF\n)\"": nil,
		// Anything but cat reading the document is not read.
		"git commit -m \"$(sed s/a/b/ <<'EOF'\nwip\nEOF\n)\"": nil,
		"git commit -m \"$(cat msg.txt)\"":                    nil,
		// Unquoted: split into words by the shell.
		"git commit -m $(cat <<'EOF'\nwip\nEOF\n)": nil,
		"git commit -F - < msg.txt":                nil,
		"echo wip | git commit -F -":               nil,
	}
	for c, want := range cases {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if !reflect.DeepEqual(v.Messages, want) {
			t.Errorf("%q: messages %q, want %q", c, v.Messages, want)
		}
	}
}

// TestInspectMessageFiles: `-F file` and `--file=file` name a file the
// member reads before the commit, unless the line writes it itself or a
// cd moved where git looks it up.
func TestInspectMessageFiles(t *testing.T) {
	cases := map[string][]MessageFile{
		`git commit -F msg.txt`:                       {{Path: "msg.txt"}},
		`git commit --file=msg.txt`:                   {{Path: "msg.txt"}},
		`git commit --file msg.txt`:                   {{Path: "msg.txt"}},
		`git commit -aF msg.txt`:                      {{Path: "msg.txt"}},
		`git commit -Fmsg.txt`:                        {{Path: "msg.txt"}},
		`git -C sub commit -F msg.txt`:                {{Path: "msg.txt", Dir: "sub"}},
		`git -C sub -C deeper commit -F m`:            {{Path: "m", Dir: "sub/deeper"}},
		`git commit -F /tmp/m`:                        {{Path: "/tmp/m"}},
		`cd sub && git commit -F /tmp/m`:              {{Path: "/tmp/m"}},
		`cd sub && git commit -F msg.txt`:             nil,
		`printf 'feat: x\n' > m && git commit -F m`:   nil,
		`git commit -F "$f"`:                          nil,
		`git commit -F msg.txt -m "feat: x"`:          nil,
		`git commit -C HEAD -F msg.txt`:               nil,
		`echo hi >> /tmp/m; git commit --file=/tmp/m`: nil,
	}
	for c, want := range cases {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if !reflect.DeepEqual(v.Files, want) {
			t.Errorf("%q: files %+v, want %+v", c, v.Files, want)
		}
	}
}

// TestReadMessageFiles: a relative -F file is read against the session's
// directory and git's -C; an absent or oversized one is left to the hook.
func TestReadMessageFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	must := func(p, s string) {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must("m", "wip top\n")
	must("sub/m", "wip sub\n")
	must("big", strings.Repeat("x", maxMessageFile+1))
	got := readMessageFiles([]MessageFile{{Path: "m"}, {Path: "m", Dir: "sub"}, {Path: "absent"}, {Path: "big"}, {Path: filepath.Join(dir, "m")}}, dir)
	want := []string{"wip top\n", "wip sub\n", "wip top\n"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read %q, want %q", got, want)
	}
	if got := readMessageFiles([]MessageFile{{Path: "m"}}, ""); got != nil {
		t.Errorf("no cwd: read %q", got)
	}
	// Issue 42 item 8: a FIFO named as the message is passed over, never
	// opened (its open would wait for a writer that never comes).
	if err := exec.Command("mkfifo", filepath.Join(dir, "fifo")).Run(); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() { done <- readMessageFiles([]MessageFile{{Path: "fifo"}, {Path: "m"}}, dir) }()
	select {
	case got := <-done:
		if !reflect.DeepEqual(got, []string{"wip top\n"}) {
			t.Errorf("with a FIFO: read %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO message file blocked")
	}
}

// TestInspectDifferential: every spelling in a group is the same command
// to the shell, so the guard gives each the same verdict as the group's
// first.
func TestInspectDifferential(t *testing.T) {
	groups := [][]string{
		{ // a bypass
			`git commit -n -m x`,
			`f() { git commit -n -m x; }; f`,
			`function f { git commit -n -m x; }; f`,
			`function f() { git commit -n -m x; }`,
			`{ git commit -n -m x; }`,
			`time git commit -n -m x`,
			`time -p git commit -n -m x`,
			`! git commit -n -m x`,
			`env -S "git commit -n -m x"`,
			`env -S'git commit -n -m x'`,
			`env --split-string="git commit -n -m x"`,
			`env -i git commit -n -m x`,
			`env -i PATH=/usr/bin git commit -n -m x`,
			`env - git commit -n -m x`,
			`nice -n 5 git commit -n -m x`,
			`nice git commit -n -m x`,
			`command -p git commit -n -m x`,
			`builtin exec git commit -n -m x`,
			`builtin command git commit -n -m x`,
			`exec -a name git commit -n -m x`,
			`coproc git commit -n -m x`,
			`coproc NAME { git commit -n -m x; }`,
			`setsid git commit -n -m x`,
			`/usr/bin/time -f %e git commit -n -m x`,
			`g=git; $g commit -n -m x`,
			`g=git; ${g} commit -n -m x`,
			`sudo -u me git commit -n -m x`,
			`if true; then time -p git commit -n -m x; fi`,
		},
		{ // a message to judge
			`git commit -m "wip"`,
			`git commit -m wip`,
			`git commit --message=wip`,
			"git commit -m \"$(cat <<'EOF'\nwip\nEOF\n)\"",
			"git commit -m \"$(cat <<EOF\nwip\nEOF\n)\"",
			"git commit -m \"$(cat <<-'EOF'\n\twip\n\tEOF\n)\"",
			"git commit -m \"$(cat <<'EOF'\nwip\n\n\nEOF\n)\"",
			"f() { git commit -m wip; }; f",
			"time -p git commit -m wip",
			"env -S 'git commit -m wip'",
			"g=git; $g commit -m wip",
			"sh -c \"git commit -m wip\"",
		},
		{ // nothing to judge or block
			`git status`,
			`time -p git status`,
			`f() { git log; }; f`,
			`env -S "git diff"`,
			`g=git; $g status`,
		},
	}
	for _, g := range groups {
		ref, err := Inspect(g[0])
		if err != nil {
			t.Fatalf("%q: %v", g[0], err)
		}
		for _, c := range g[1:] {
			v, err := Inspect(c)
			if err != nil {
				t.Errorf("%q: %v", c, err)
				continue
			}
			if (len(v.Bypass) > 0) != (len(ref.Bypass) > 0) || !reflect.DeepEqual(v.Messages, ref.Messages) || len(v.Unread) != 0 {
				t.Errorf("%q: %+v, but %q reads %+v", c, v, g[0], ref)
			}
		}
	}
}

// TestInspectUnreadProgram: a program named by an expansion the line does
// not assign is named in Unread, for the member's advise.
func TestInspectUnreadProgram(t *testing.T) {
	for c, want := range map[string][]string{
		`$g commit -n -m x`:         {"$g"},
		`"$GIT" commit -m wip`:      {"$GIT"},
		`$(which git) commit -n`:    {"$(which git)"},
		`sudo $g commit -n`:         {"$g"},
		`g=$(which git); $g commit`: {"$g"},
		`git status`:                nil,
		`echo $g`:                   nil,
	} {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if !reflect.DeepEqual(v.Unread, want) {
			t.Errorf("%q: unread %q, want %q", c, v.Unread, want)
		}
	}
}
