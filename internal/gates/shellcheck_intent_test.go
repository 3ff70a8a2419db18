package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ciskip"
)

// TestIdiomsAgainstShellCheck runs the real ShellCheck over scripts shaped
// like the corpus's deliberate idioms and over near misses of each, and
// holds which of its reports the idiom rules leave out: every idiom's
// report goes, every near miss's stays.
func TestIdiomsAgainstShellCheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		ciskip.Missing(t, "shellcheck", "shellcheck is not installed; .ci/tools installs it")
		return
	}
	cases := []struct {
		name, script, code string
		left               bool // the report is left out
	}{
		{"eval agent", "eval $(ssh-agent -s)", "SC2046", true},
		{"go list packages", "go test -race $(go list ./... | grep -v third_party/)", "SC2046", true},
		{"docker ids", "docker kill $(docker ps -q)\ndocker volume rm -f $(docker volume ls -q)", "SC2046", true},
		{"date backticks", "echo `date -Is` done", "SC2046", true},
		{"uname", "dpkg -l | grep -v `uname -r`", "SC2046", true},
		{"rev-parse head", "gh run list -c $(git rev-parse HEAD)", "SC2046", true},
		{"dirname path", "cd $(dirname \"$0\")", "SC2046", false},
		{"pwd path", "docker run -v $(pwd):/src img", "SC2046", false},
		{"toplevel path", "cd $(git rev-parse --show-toplevel)", "SC2046", false},
		{"go list dirs", "ls $(go list -f '{{.Dir}}' ./...)", "SC2046", false},
		{"docker not quiet", "echo $(docker ps)", "SC2046", false},
		{"cat file", "cosign sign $(cat refs.txt)", "SC2046", false},
		{"ifs prefix split", "IFS=: MAIN=($GOPATH)\necho \"${MAIN[@]}\"", "SC2206", true},
		{"local ifs split", "f() {\n  local IFS=.\n  local ver=($1)\n  echo \"${ver[0]}\"\n}\nf 1.2", "SC2206", true},
		{"split without ifs", "arr=($GOPATH)\necho \"${arr[@]}\"", "SC2206", false},
		{"first field of read -ra", "V=1+x\nIFS='+' read -ra V META <<< \"$V\"\necho \"$META\"\necho \"$V\"", "SC2128", true},
		{"array without split", "arr=(a b)\necho \"$arr\"", "SC2128", false},
		{"trap set before", "TMP=$(mktemp)\ntrap \"rm -f $TMP\" EXIT\necho hi", "SC2064", true},
		{"trap set after", "trap \"rm -f $TMP\" EXIT\nTMP=$(mktemp)\necho \"$TMP\"", "SC2064", false},
		{"trap reassigned", "TMP=a\ntrap \"rm -f $TMP\" EXIT\nTMP=b\necho \"$TMP\"", "SC2064", false},
		{"read placeholder", "IFS=. read -r MAJ MIN PATCH <<< \"$1\"\necho \"$MAJ $MIN\"", "SC2034", true},
		{"unused plain", "X=1\necho hi", "SC2034", false},
		{"emptied CDPATH for cd", "root=$(CDPATH= cd -- \"$(dirname -- \"$0\")\" && pwd)\necho \"$root\"", "SC1007", true},
		{"emptied toolchain vars for go", "\tGOOS= GOARCH= CC= go run -tags generate \"$@\"", "SC1007", true},
		{"emptied var before a number", "x= 5", "SC1007", false},
		{"bash source's first element", "d=$(dirname \"${BASH_SOURCE}\")\necho \"$d\"", "SC2128", true},
		{"separator made a blank", "v=1-2\nparts=(${v//-/ })\necho \"${parts[1]}\"", "SC2206", true},
		{"first of a blank-split array", "v=1-2\nparts=(${v//-/ })\necho \"$parts\"", "SC2128", true},
		{"strip is no split", "v=1-2\nparts=(${v//-/})\necho \"${parts[1]}\"", "SC2206", false},
		{"computed source", ". \"$1\"\necho hi", "SC1090", true},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := "#!/bin/bash\n" + c.script + "\n"
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".sh")
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, _ := exec.Command(sc, append(append([]string(nil), scFileFlags...), p)...).Output()
			idioms := readIdioms(text)
			seen := 0
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				m := scFileLine.Get().FindStringSubmatch(l)
				if m == nil || !strings.HasSuffix(m[5], "["+c.code+"]") {
					continue
				}
				seen++
				line, col := atoi(t, m[2]), atoi(t, m[3])
				if got := idiomMayApply(m[5]) && idioms.intended(line, col, m[5]); got != c.left {
					t.Errorf("%s at %d:%d: left out = %v, want %v (line %q)", c.code, line, col, got, c.left, idioms.lines[line-1])
				}
			}
			if seen == 0 {
				t.Fatalf("ShellCheck reported no %s; its output:\n%s", c.code, out)
			}
		})
	}
}

// TestSh3043LeftOutOnlyForLocal: SC3043 (local in sh) is left out; another
// sh-dialect report on the same script stays.
func TestSh3043LeftOutOnlyForLocal(t *testing.T) {
	s := readIdioms("#!/bin/sh\nf() { local x=1; echo \"$x\"; }\n")
	if !s.intended(2, 7, "In POSIX sh, 'local' is undefined. [SC3043]") {
		t.Fatal("SC3043 kept")
	}
	if s.intended(2, 7, "In POSIX sh, [[ ]] is undefined. [SC3010]") {
		t.Fatal("SC3010 left out")
	}
	if s.intended(9, 1, "In POSIX sh, 'local' is undefined. [SC3043]") {
		t.Fatal("a report past the script's end was left out")
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(r-'0')
	}
	return n
}
