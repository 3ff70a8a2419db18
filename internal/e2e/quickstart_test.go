package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ciskip"
)

// The README's quick start, followed as written. Each path runs in a fresh
// repository with one commit: the shared opening blocks, then the path's
// own. A ```sh block runs in bash, stopping at its first failing line; one
// whose last line ends `# refused` must have that line fail, leave HEAD
// where it was and print the contract's help: line. A ```yaml block is
// written to the file the paragraph before it names (Write `<file>`:).
//
// What the test changes, and only this: the clone URL points at a local
// clone of this repository at HEAD (with a main branch there, and the tag
// the pre-commit config's rev: names), and lefthook's go install line is
// answered by the lefthook .ci/tools built. The environment adds a GOBIN on
// PATH and -trimpath (so the four builds share the build cache).

const upstream = "https://github.com/gate-sdk/gates"

// quickBlock is one fenced block of the quick start.
type quickBlock struct {
	lang, file, body string
}

// quickStart reads the README's quick start: the opening blocks, and the
// blocks of each ### path by its heading.
func quickStart(t *testing.T) ([]quickBlock, map[string][]quickBlock) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## Quick start\n")
	if start < 0 {
		t.Fatal("README.md has no ## Quick start section")
	}
	text = text[start+1:]
	if end := strings.Index(text[3:], "\n## "); end >= 0 {
		text = text[:end+3]
	}
	writeRe := regexp.MustCompile("(?i)write `([^`]+)`:")
	var opening []quickBlock
	paths := map[string][]quickBlock{}
	path, prose := "", ""
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "### "):
			path, prose = strings.TrimPrefix(line, "### "), ""
		case strings.HasPrefix(line, "```") && len(line) > 3:
			b := quickBlock{lang: strings.TrimPrefix(line, "```")}
			var body []string
			for i++; i < len(lines) && lines[i] != "```"; i++ {
				body = append(body, lines[i])
			}
			b.body = strings.Join(body, "\n") + "\n"
			if b.lang == "yaml" {
				m := writeRe.FindAllStringSubmatch(prose, -1)
				if m == nil {
					t.Fatalf("%s: a yaml block with no Write `<file>`: before it", path)
				}
				b.file = m[len(m)-1][1]
			}
			if path == "" {
				opening = append(opening, b)
			} else {
				paths[path] = append(paths[path], b)
			}
			prose = ""
		default:
			prose += line + "\n"
		}
	}
	return opening, paths
}

// quickStartTag is the release the README's pre-commit config pins rev: to.
const quickStartTag = "v0.1.0"

// localUpstream clones this repository at HEAD, with main and the tag
// the README pins at HEAD, into the test's own temporary directory.
func localUpstream(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "gates")
	for _, args := range [][]string{
		{"clone", "-q", "--no-hardlinks", moduleRoot, dir},
		{"-C", dir, "checkout", "-q", "-B", "main"},
		{"-C", dir, "tag", "-f", quickStartTag},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// followQuickStart runs the opening blocks and the named path's blocks.
func followQuickStart(t *testing.T, path string, extraPath ...string) {
	opening, paths := quickStart(t)
	blocks, ok := paths[path]
	if !ok {
		t.Fatalf("README quick start has no ### %s", path)
	}
	src := localUpstream(t)
	dir := t.TempDir()
	bin := t.TempDir()
	env := []string{}
	for _, kv := range cleanEnv(dir) {
		// The hooks must find the binary the way the README says, not
		// through the test's own pin.
		if !strings.HasPrefix(kv, "GATE_SDK_NATIVE_BIN=") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	gomodcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	env = append(env,
		"PATH="+strings.Join(append(append([]string{bin}, extraPath...), os.Getenv("PATH")), string(os.PathListSeparator)),
		"GOBIN="+bin, "GOFLAGS=-trimpath", "GOTOOLCHAIN=local",
		"GOMODCACHE="+strings.TrimSpace(string(gomodcache)),
		"PRE_COMMIT_HOME="+filepath.Join(t.TempDir(), "pre-commit"))
	s := &scratch{t: t, dir: dir, env: env}
	s.git("init", "-q", "-b", "main")
	s.write("README.md", "a consumer\n", 0o644)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "chore: start")
	for _, b := range append(opening, blocks...) {
		body := strings.ReplaceAll(b.body, upstream, "file://"+src)
		if b.lang == "yaml" {
			s.write(b.file, body, 0o644)
			continue
		}
		body = strings.ReplaceAll(body, "go install github.com/evilmartians/lefthook@", "command -v lefthook # was: go install github.com/evilmartians/lefthook@")
		lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
		last := lines[len(lines)-1]
		if !strings.HasSuffix(last, "# refused") {
			code, out := s.run(nil, "bash", "-e", "-c", body)
			if code != 0 {
				t.Fatalf("%s: block exited %d:\n%s\noutput:\n%s", path, code, body, out)
			}
			t.Logf("%s: ran\n%s\n%s", path, body, out)
			continue
		}
		if len(lines) > 1 {
			pre := strings.Join(lines[:len(lines)-1], "\n")
			if code, out := s.run(nil, "bash", "-e", "-c", pre); code != 0 {
				t.Fatalf("%s: block exited %d:\n%s\noutput:\n%s", path, code, pre, out)
			}
		}
		head := s.git("rev-parse", "HEAD")
		code, out := s.run(nil, "bash", "-c", last)
		if code == 0 || s.git("rev-parse", "HEAD") != head || !strings.Contains(out, "help: ") {
			t.Fatalf("%s: %q must be refused with the contract's help: line and no commit; exit %d:\n%s", path, last, code, out)
		}
		t.Logf("%s: refused as the README says:\n%s", path, out)
	}
}

func TestQuickStartGoUsers(t *testing.T) {
	t.Parallel()
	followQuickStart(t, "Go users")
}

func TestQuickStartCI(t *testing.T) {
	t.Parallel()
	followQuickStart(t, "CI")
}

// The pre-commit path drives Debian's pre-commit over .pre-commit-hooks.yaml:
// a violation refused, a clean commit passed.
func TestQuickStartPreCommit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("pre-commit"); err != nil {
		ciskip.Missing(t, "pre-commit", "pre-commit is not installed; .ci/tools installs Debian's pre-commit package")
	}
	followQuickStart(t, "pre-commit users")
}

// The lefthook path drives lefthook built from its Go module at the
// version .ci/tools pins.
func TestQuickStartLefthook(t *testing.T) {
	t.Parallel()
	tools := filepath.Join(moduleRoot, ".tmp", "tools", "bin")
	if _, err := exec.LookPath("lefthook"); err != nil {
		if _, err := os.Stat(filepath.Join(tools, "lefthook")); err != nil {
			ciskip.Missing(t, "lefthook", "lefthook is not installed; .ci/tools builds it into .tmp/tools/bin")
		}
	}
	followQuickStart(t, "lefthook users", tools)
}
