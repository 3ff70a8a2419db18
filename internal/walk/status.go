package walk

import (
	"strings"

	"github.com/gate-sdk/gates/internal/spawn"
)

// StatusPlace is what a status line needs to know of the repository at a
// directory, answered by one git spawn: the toplevel, the common git
// directory and the hooks directory git would run (core.hooksPath
// resolved as git resolves it, else <git-dir>/hooks), each absolute in
// the module's dialect.
type StatusPlace struct {
	Top, CommonDir, HooksDir, GitDir string
}

// LocateStatus asks git, once, for dir's StatusPlace. It is soft by
// design: false for anything git does not answer cleanly (no repository,
// one it refuses, a git that does not start), since its one caller is a
// status line that must render regardless. It does not tell a skipped
// nested repository from its parent; Locate does.
func LocateStatus(dir string, env []string) (StatusPlace, bool) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: gitArgs(dir, "rev-parse", "--show-toplevel", "--path-format=absolute", "--git-common-dir", "--git-path", "hooks", "--git-dir"), Env: env})
	if err != nil {
		return StatusPlace{}, false
	}
	out, ok := c.Stdout()
	if !ok {
		return StatusPlace{}, false
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 4 || lines[0] == "" {
		return StatusPlace{}, false
	}
	top := NormalizeAbs(lines[0])
	return StatusPlace{Top: top, CommonDir: AbsAgainst(top, lines[1]), HooksDir: AbsAgainst(top, lines[2]), GitDir: AbsAgainst(top, lines[3])}, true
}
