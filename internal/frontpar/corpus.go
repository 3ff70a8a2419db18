package frontpar

import (
	"os"
	"path/filepath"
)

const (
	runGates = "bin/run-gates.sh"
	install  = "bin/install.sh"
)

// Corpus answers the fixed cases: each exit path of the run-gates stub
// that needs no harness (outside a repository, git refusing one, a nested
// repository git skipped, no binary, a binary that does not answer, a
// binary that runs: argv handed over unchanged, a gates dir typed in a
// subdirectory, forwarded stdin), each under --hook where the fail-open
// status differs; and the installer bootstrap's refusals and help.
func Corpus() []Case {
	return []Case{
		{Name: "run-gates outside a repository", Script: runGates, PS: true, WantCode: 2, WantText: "run-gates: not inside a git repository"},
		{Name: "run-gates --hook outside a repository", Script: runGates, Args: []string{"--hook", "edit-gates"}, PS: true, WantCode: 0, WantText: "systemMessage"},
		{Name: "run-gates where git refuses the repository", Script: runGates, Setup: mkdir(".git"), PS: true, WantCode: 2, WantText: "git refuses the repository here"},
		{Name: "run-gates below a nested repository git skipped", Script: runGates, Repo: true, Sub: "sub/deep", Setup: mkdir("sub/.git"), PS: true, WantCode: 2, WantText: "git skipped the nested repository"},
		{Name: "run-gates with no binary", Script: runGates, Repo: true, Args: []string{"--list"}, PS: true, WantCode: 2, WantText: "the gates binary ./bin/gates is absent or not executable"},
		{Name: "run-gates --hook with no binary", Script: runGates, Repo: true, Args: []string{"--hook", "edit-gates"}, Stdin: "{}", PS: true, WantCode: 0, WantText: "systemMessage"},
		{Name: "run-gates with a binary that does not answer", Script: runGates, Repo: true, Bin: "empty", PS: true, WantCode: 2, WantText: "does not answer as the gates binary"},
		{Name: "run-gates --list", Script: runGates, Repo: true, Bin: "self", Args: []string{"--list"}, PS: true, WantCode: 0, WantText: "check-tree-terms"},
		{Name: "run-gates --emit kit-roots from a subdirectory", Script: runGates, Repo: true, Bin: "self", Sub: "sub/deep", Args: []string{"--emit", "kit-roots"}, PS: true, WantCode: 0, WantText: "gate-sdk"},
		{Name: "run-gates an unknown gate", Script: runGates, Repo: true, Bin: "self", Args: []string{"check-no-such-gate"}, PS: true, WantCode: 2, WantText: "check-no-such-gate"},
		{Name: "run-gates a gates dir typed in a subdirectory", Script: runGates, Repo: true, Bin: "self", Sub: "sub", Args: []string{"nowhere"}, PS: true, WantCode: 2, WantText: "sub/nowhere"},
		{Name: "run-gates --hook forwards stdin", Script: runGates, Repo: true, Bin: "self", Args: []string{"--hook", "commit-guard"}, Stdin: `{"tool_name":"Bash","tool_input":{"command":"git commit --no-verify -m x"}}`, PS: true, WantCode: 2, WantText: "--no-verify"},
		{Name: "install with no operand", Script: install, WantCode: 2, WantText: "install: usage: sh install.sh"},
		{Name: "install with an unknown option", Script: install, Args: []string{"--bogus"}, WantCode: 2, WantText: "unknown option --bogus"},
		{Name: "install --sha256 with no digest", Script: install, Args: []string{"--sha256"}, WantCode: 2, WantText: "--sha256 needs a digest"},
		{Name: "install --help", Script: install, Args: []string{"--help"}, WantCode: 0, WantText: "installer bootstrap"},
		{Name: "install outside a repository", Script: install, Args: []string{"payload"}, WantCode: 2, WantText: "is not inside a git repository"},
		{Name: "install from a payload that is not there", Script: install, Repo: true, Args: []string{"no-such-payload"}, WantCode: 2, WantText: "no-such-payload"},
	}
}

// mkdir answers a Setup making one directory under the scratch.
func mkdir(rel string) func(string) error {
	return func(dir string) error { return os.MkdirAll(filepath.Join(dir, filepath.FromSlash(rel)), 0o755) }
}
