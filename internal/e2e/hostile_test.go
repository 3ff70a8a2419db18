package e2e

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runBounded runs the binary under a 2 GiB address-space limit and a
// deadline, so a reader that would grow without end or block fails the
// test instead of the machine.
func runBounded(t *testing.T, dir string, env []string, bin string, args ...string) (result, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{"-c", `ulimit -v 2097152 && exec "$0" "$@"`, bin}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code: code, stdout: o.String(), stderr: e.String()}, ctx.Err() == nil
}

// Issue 42 item 4: a configuration file linked to /dev/zero (or naming a
// pipe) is refused, named, exit 2; nothing reads it without end.
func TestConfigFileLinkedToADeviceIsRefused(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Fatalf("this test needs /dev/zero: %v", err)
	}
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"scripts/gates.list", []string{"--run"}},
		{"scripts/gate-sdk-config.knobs", []string{"--run"}},
		{"scripts/gates.baseline", []string{"--run"}},
		{"scripts/root-allowlist.list", []string{"check-root-tiering"}},
		{"scripts/msg-patterns.list", []string{"check-tree-terms"}},
		{"scripts/gate-sdk-config.local.knobs", []string{"--git-hook", "pre-commit"}},
		{"scripts/gate-sdk-config.local.knobs", []string{"doctor"}},
	} {
		t.Run(filepath.Base(tc.file)+" "+tc.args[len(tc.args)-1], func(t *testing.T) {
			t.Parallel()
			c := newConsumer(t)
			c.gate("check-md", "couples=*.md dir=one valve=none tier=precommit", "", 0)
			c.registry("check-md")
			write(t, filepath.Join(c.dir, "doc.md"), "hello\n", 0o644)
			c.git("add", "-A")
			c.git("commit", "-q", "--no-verify", "-m", "seed")
			write(t, filepath.Join(c.dir, "doc.md"), "staged\n", 0o644)
			c.git("add", "doc.md")
			p := filepath.Join(c.dir, tc.file)
			os.Remove(p)
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
			r, finished := runBounded(t, c.dir, c.env, filepath.Join(c.dir, "bin/gates"), tc.args...)
			if !finished {
				t.Fatalf("gates %v with %s -> /dev/zero did not finish in 20 s", tc.args, tc.file)
			}
			if r.code != 2 || !strings.Contains(r.stdout+r.stderr, filepath.Base(tc.file)) || !strings.Contains(r.stdout+r.stderr, "not a regular file") {
				t.Fatalf("gates %v with %s -> /dev/zero: exit %d, want 2 naming the file as not a regular file\n%s%s", tc.args, tc.file, r.code, r.stdout, r.stderr)
			}
		})
	}
}

// Issue 42 item 8: a tracked path that is a FIFO on disk (or a link to a
// device) is refused, named, by the tree readers; nothing blocks on it.
func TestTrackedPathThatIsAPipeIsRefused(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"fifo", "device link"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			c := newConsumer(t)
			c.registry("check-tree-terms")
			c.declareShipped("check-tree-terms")
			write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), "forbidden-word\n", 0o644)
			write(t, filepath.Join(c.dir, "doc.md"), "hello\n", 0o644)
			c.git("add", "-A")
			c.git("commit", "-q", "--no-verify", "-m", "seed")
			p := filepath.Join(c.dir, "doc.md")
			os.Remove(p)
			var err error
			if kind == "fifo" {
				err = exec.Command("mkfifo", p).Run()
			} else {
				err = os.Symlink("/dev/zero", p)
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, args := range [][]string{{"check-tree-terms"}, {"--run"}} {
				r, finished := runBounded(t, c.dir, c.env, filepath.Join(c.dir, "bin/gates"), args...)
				if !finished {
					t.Fatalf("gates %v over a tracked %s did not finish in 20 s", args, kind)
				}
				// The gate refuses (2); the battery is red (1) on a member's refusal.
				if r.code != 2-i || !strings.Contains(r.stdout+r.stderr, "doc.md") || !strings.Contains(r.stdout+r.stderr, "not a regular file") {
					t.Errorf("gates %v over a tracked %s: exit %d, want a refusal naming doc.md as not a regular file\n%s%s", args, kind, r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}

// setIndexMode rewrites the mode of the index entry named path to mode,
// byte for byte, as a foreign tool might write it (git's own update-index
// would canonicalize it), and seals the index again. Version 2 only.
func setIndexMode(t *testing.T, dir, path string, mode uint32) {
	t.Helper()
	file := filepath.Join(dir, ".git", "index")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(data[:4]) != "DIRC" || binary.BigEndian.Uint32(data[4:8]) != 2 {
		t.Fatalf("%s is not a version 2 index", file)
	}
	count := binary.BigEndian.Uint32(data[8:12])
	pos := 12
	for i := uint32(0); i < count; i++ {
		nameLen := int(binary.BigEndian.Uint16(data[pos+60:pos+62]) & 0xfff)
		name := string(data[pos+62 : pos+62+nameLen])
		if name == path {
			binary.BigEndian.PutUint32(data[pos+24:pos+28], mode)
			body := data[:len(data)-sha1.Size]
			sum := sha1.Sum(body)
			if err := os.WriteFile(file, append(body, sum[:]...), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		pos += (62 + nameLen + 8) &^ 7
	}
	t.Fatalf("%s holds no entry %s", file, path)
}

// Issue 42 item 10: an index entry whose mode is a regular file's with
// odd permission bits (100604, from a foreign tool) is read as git reads
// it, a regular file, by the tree scan and the staged hook alike.
func TestNonCanonicalIndexModeIsARegularFile(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.registry("check-tree-terms")
	c.declareShipped("check-tree-terms")
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), "forbidden-word\n", 0o644)
	write(t, filepath.Join(c.dir, "leak.md"), "a forbidden-word here\n", 0o644)
	c.git("add", "-A")
	c.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "--no-verify", "-m", "seed")
	setIndexMode(t, c.dir, "leak.md", 0o100604)
	if got := c.git("ls-files", "-z", "-s", "leak.md").stdout; !strings.HasPrefix(got, "100604 ") {
		t.Fatalf("the index was not rewritten: %q", got)
	}
	r := c.gates("check-tree-terms")
	if r.code != 1 || !strings.Contains(r.stdout, "leak.md") {
		t.Errorf("check-tree-terms over a 100604 entry: exit %d, want 1 naming leak.md\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Staged: the same entry, edited and staged again by the foreign tool.
	write(t, filepath.Join(c.dir, "leak.md"), "another forbidden-word here\n", 0o644)
	c.git("add", "leak.md")
	setIndexMode(t, c.dir, "leak.md", 0o100604)
	r = c.gates("--git-hook", "pre-commit")
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "leak.md") {
		t.Errorf("the pre-commit hook over a staged 100604 entry: exit %d, want 1 naming leak.md\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// Issue 42 item 2: only a run that judged every owed file settles the
// hook's debt: a green shard (its per-file member judged its share)
// settles nothing; the whole battery does.
func TestOnlyAWholeRunSettlesTheHooksDebt(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	c.registry("check-tree-terms")
	c.declareShipped("check-tree-terms")
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	write(t, filepath.Join(c.dir, "scripts/msg-patterns.list"), "forbidden-word\n", 0o644)
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		write(t, filepath.Join(c.dir, n+".md"), "fine "+n+"\n", 0o644)
	}
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	debt := filepath.Join(c.dir, ".git", "gates-debt")
	record := "gates debt v1\n6 check-tree-terms \"" + c.dir + "\"\n"
	for _, args := range [][]string{{"--run", "--shard", "1/2"}, {"--run", "--shard", "2/2"}} {
		write(t, debt, record, 0o644)
		r := c.gates(args...)
		if r.code != 0 {
			t.Fatalf("gates %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if got, err := os.ReadFile(debt); err != nil || string(got) != record || strings.Contains(r.stderr, "settled") {
			t.Errorf("gates %v settled the debt though it judged only part of the files (record now %q)\n%s", args, got, r.stderr)
		}
	}
	write(t, debt, record, 0o644)
	r := c.gates("--run")
	if r.code != 0 || !strings.Contains(r.stderr, "settled: check-tree-terms") {
		t.Fatalf("the whole battery did not settle the debt: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(debt); !os.IsNotExist(err) {
		t.Errorf("the record survived the whole battery: %v", err)
	}
}

// Issue 42 item 1: the shard placement reads nothing one job can see and
// another cannot: a record restored into GATE_SDK_TMP_DIR (present in one
// matrix job, absent in the next) or left untracked in the gates dir moves
// no member, so the shards' union is every member; a tracked record, the
// same in every checkout of the commit, steers the split.
func TestShardPlacementReadsOnlyWhatEveryJobSees(t *testing.T) {
	t.Parallel()
	c := newConsumer(t)
	for _, g := range []string{"g1", "g2", "g3"} {
		c.gate(g, "couples=*.md dir=one valve=none tier=precommit", "", 0)
	}
	c.registry("g1", "g2", "g3")
	write(t, filepath.Join(c.dir, ".gitignore"), "/bin/\n/.tmp/\n", 0o644)
	write(t, filepath.Join(c.dir, "doc.md"), "hello\n", 0o644)
	c.git("add", "-A")
	c.git("commit", "-q", "--no-verify", "-m", "seed")
	// With this record the greedy split is {g1} and {g2 g3}; without it,
	// by count, {g1 g3} and {g2}: a job with it and one without lose g3.
	skew := "g1 100\ng2 1\ng3 1\nTOTAL 102\n"
	ran := map[string]bool{}
	shard := func(k string, record bool) {
		t.Helper()
		os.RemoveAll(filepath.Join(c.dir, ".tmp"))
		if record {
			write(t, filepath.Join(c.dir, ".tmp/gate-timings.txt"), skew, 0o644)
			write(t, filepath.Join(c.dir, "scripts/gate-timings.txt"), skew, 0o644)
		} else {
			os.Remove(filepath.Join(c.dir, "scripts/gate-timings.txt"))
		}
		r := c.gates("--run", "--shard", k)
		if r.code != 0 {
			t.Fatalf("--shard %s: exit %d\n%s%s", k, r.code, r.stdout, r.stderr)
		}
		for _, g := range []string{"g1", "g2", "g3"} {
			ran[g] = ran[g] || c.ran(g)
		}
	}
	shard("1/2", true)
	shard("2/2", false)
	for _, g := range []string{"g1", "g2", "g3"} {
		if !ran[g] {
			t.Errorf("%s ran in no shard: one job saw an untracked cost record and the other did not", g)
		}
	}
	// A tracked record is every job's, and steers the split.
	write(t, filepath.Join(c.dir, "scripts/gate-timings.txt"), skew, 0o644)
	c.git("add", "scripts/gate-timings.txt")
	c.git("commit", "-q", "--no-verify", "-m", "record")
	os.RemoveAll(filepath.Join(c.dir, ".tmp"))
	r := c.gates("--run", "--shard", "1/2")
	if r.code != 0 || !strings.Contains(r.stdout, "shard 1/2: 1 of 3 gates (split by the cost record scripts/gate-timings.txt)") || !c.ran("g1") || c.ran("g3") {
		t.Errorf("a tracked record did not steer the split:\n%s%s", r.stdout, r.stderr)
	}
}

// Issue 42 item 4: a configuration file of the tree may be a link to a
// regular file inside the tree, never one outside it.
func TestConfigLinkMustStayInTheTree(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "elsewhere.list")
	write(t, outside, "check-md\n", 0o644)
	for _, tc := range []struct {
		file, target string
		args         []string
		code         int
	}{
		{"scripts/gates.list", outside, []string{"--run"}, 2},
		{"scripts/root-allowlist.list", outside, []string{"check-root-tiering"}, 2},
		{"scripts/gates.list", "real-gates.list", []string{"--run"}, 0},
		{"scripts/root-allowlist.list", "real-gates.list", []string{"check-root-tiering"}, 1},
	} {
		c := newConsumer(t)
		c.gate("check-md", "couples=*.md dir=one valve=none tier=precommit", "", 0)
		write(t, filepath.Join(c.dir, "scripts/real-gates.list"), "check-md\n", 0o644)
		write(t, filepath.Join(c.dir, "doc.md"), "hello\n", 0o644)
		p := filepath.Join(c.dir, tc.file)
		os.Remove(p)
		if err := os.Symlink(tc.target, p); err != nil {
			t.Fatal(err)
		}
		c.git("add", "-A")
		c.git("commit", "-q", "--no-verify", "-m", "seed")
		r := c.gates(tc.args...)
		leaves := strings.Contains(r.stdout+r.stderr, "a link that leaves the tree")
		if r.code != tc.code || leaves != (tc.code == 2) {
			t.Errorf("%s -> %s, gates %v: exit %d, want %d (a leaving link refused, naming it)\n%s%s", tc.file, tc.target, tc.args, r.code, tc.code, r.stdout, r.stderr)
		}
	}
}

// Issue 42: the git-dir state the agent hooks and the status line read
// (FETCH_HEAD here) replaced by a pipe blocks nothing: the readers open
// no FIFO. Before, the commit judge opened it and waited for a writer.
func TestAgentHookOverAPipeForFetchHead(t *testing.T) {
	t.Parallel()
	s := agentScratch(t)
	if err := exec.Command("mkfifo", filepath.Join(s.dir, ".git", "FETCH_HEAD")).Run(); err != nil {
		t.Fatal(err)
	}
	payload := func(event string) []byte {
		b, err := json.Marshal(map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": s.dir, "hook_event_name": event,
			"tool_name": "Bash", "tool_input": map[string]any{"command": "git commit"}, "stop_hook_active": false})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	run := func(event string) (int, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, binPath, "--hook", "commit-audit")
		cmd.Dir, cmd.Env, cmd.Stdin = s.dir, s.env, bytes.NewReader(payload(event))
		out, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			t.Fatalf("commit-audit %s with a FIFO for FETCH_HEAD did not finish in 30 s", event)
		}
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, string(out)
	}
	run("PreToolUse")
	s.write("docs/guide.md", "# Guide\n\nsee /ho"+"me/marta/x\n", 0o644)
	s.git("commit", "-q", "--no-verify", "-am", "docs: a path")
	code, out := run("PostToolUse")
	// The red commit is still named: a state file it cannot read costs
	// the judge nothing it needs.
	if code != 0 || !strings.Contains(out, `"decision"`) {
		t.Fatalf("the red commit over a FIFO FETCH_HEAD: exit %d\n%s", code, out)
	}
}
