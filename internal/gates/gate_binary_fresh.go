package gates

// check-gate-binary-fresh: whenever a registered member dispatches to the
// binary (it resolves to a .gate descriptor), the binary was built from the
// source now in the tree — its baked source stamp equals the tree's. The
// publisher's own gate: a consumer tree holds no module to hash.

import (
	"fmt"
	"os"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/spawn"
)

// rebuildHint is what a stale or unstamped binary asks for.
const rebuildHint = "rebuild the binary from this tree with make build (it bakes the source stamp in), then re-run the battery; a reading taken while this gate is red came from the stale binary"

func checkGateBinaryFresh(c *gate.Context) int {
	// assertion A: an absent registry is could-not-decide.
	s, code, ok := seamOperands(c, 3, "[gates-dir [tree-stamp-file [binary]]]")
	if !ok {
		return code
	}
	var err error
	r := c.NewReport(map[string]string{"stale": rebuildHint})
	counts := fmt.Sprintf("%d descriptors, %d registered members dispatching", len(s.descriptors), len(s.dispatching))
	// assertion B: nothing dispatching is clean, counted — nothing can run stale.
	if len(s.dispatching) == 0 {
		return r.Nothing(counts + ": no member runs on the binary, so none can run stale")
	}
	// assertion C: with a dispatch, a binary that cannot answer is exit 2.
	bin := ""
	if len(c.Args) > 2 {
		bin = c.Args[2]
	} else if bin, err = c.Knobs.Scalar("GATE_SDK_NATIVE_BIN"); err != nil {
		return c.RefuseErr(err)
	}
	have, err := binaryStamp(c, bin)
	if err != nil {
		return c.RefuseErr(err)
	}
	// assertion D: the tree side is the module's source stamp (or a stamp file).
	var want, from string
	if len(c.Args) > 1 {
		data, err := readOperand(c, c.Args[1], "tree-stamp file")
		if err != nil {
			return c.RefuseErr(err)
		}
		want, from = strings.TrimSpace(string(data)), c.Args[1]
		if want == "" {
			return c.Refuse("tree-stamp file %s is empty", c.Args[1])
		}
	} else {
		crate, abs, err := crateDir(c)
		if err != nil {
			return c.RefuseErr(err)
		}
		if _, err := os.Stat(runPath(c, registry.Join(crate, goModFile))); err != nil {
			return c.Refuse("cannot verify the binary: %s holds no go.mod, so this tree has no module the binary was built from (GATE_SDK_NATIVE_CRATE)", crate)
		}
		if want, err = repo.SourceStamp(abs); err != nil {
			return c.Refuse("cannot compute the tree's source stamp over %s: %v", crate, err)
		}
		from = "git over " + crate
	}
	// assertion E: a mismatch is red, naming both stamps and the dispatchers.
	if have != want {
		r.Add(gate.Finding{Class: "stale", Path: bin, Msg: fmt.Sprintf("binary source stamp %s, tree %s (%s): the binary was not built from this tree, and %s dispatch to it",
			have, want, from, strings.Join(s.dispatchNames(), " "))})
		return r.Done("")
	}
	return r.Done(fmt.Sprintf("%s; %s is built from this tree (stamp %s)", counts, bin, have))
}

// binaryStamp asks the binary at bin for its baked source stamp. An absent
// or non-executable binary, or one that carries no stamp, cannot verify.
func binaryStamp(c *gate.Context, bin string) (string, error) {
	abs := runPath(c, bin)
	st, err := os.Stat(abs)
	if err != nil || st.IsDir() || st.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("cannot verify: the binary %s is absent or not an executable file (GATE_SDK_NATIVE_BIN); build it with make build", bin)
	}
	done, err := spawn.Run(spawn.Cmd{Program: spawn.At(abs), Args: []string{"--source-stamp"}, Dir: c.Dir, Recorder: c.Spawns})
	if err != nil {
		return "", fmt.Errorf("cannot verify: %v", err)
	}
	out, ok := done.Stdout()
	stamp := strings.TrimSpace(string(out))
	if !ok || stamp == "" {
		return "", fmt.Errorf("cannot verify: %s answers no source stamp (exit %d: %s); a plain go build bakes none, so build it with make build",
			bin, done.Code(), strings.TrimSpace(string(done.Stderr())))
	}
	return stamp, nil
}
