package gates

// check-smoke-entry-guard: every kit smoke script aborts when run outside
// the consumer-smoke harness that exports SMOKE_KIT_ROOT.

import (
	"fmt"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/registry"
)

// smokeGuard is the entry-point guard every smoke script carries.
const smokeGuard = "${SMOKE_KIT_ROOT:?"

func checkSmokeEntryGuard(c *gate.Context) int {
	roots, code, ok := rootSweep(c)
	if !ok {
		return code
	}
	r := c.NewReport(map[string]string{
		"guard": "open the script with `: \"${SMOKE_KIT_ROOT:?run via --run-consumer-smoke}\"` so a bare run aborts before it writes into the caller's repository",
	})
	scripts, skipped := 0, 0
	for _, kit := range roots {
		if ok, err := isDirAt(c, registry.Join(kit, "smoke")); err != nil {
			return c.RefuseErr(err)
		} else if !ok {
			skipped++
			continue
		}
		for _, name := range []string{"install.sh", "violation.sh"} {
			p := registry.Join(kit, "smoke/"+name)
			data, present, err := readOptional(c, p)
			if err != nil {
				return c.RefuseErr(err)
			}
			if !present {
				continue
			}
			scripts++
			// assertion A: each present smoke script carries the guard expansion.
			if !strings.Contains(string(data), smokeGuard) {
				r.Add(gate.Finding{Class: "guard", Path: p, Msg: "no ${SMOKE_KIT_ROOT:? entry guard: run bare, the script would write into the caller's repository"})
			}
		}
	}
	return r.Done(fmt.Sprintf("%d smoke scripts guarded across %d kit roots, %d without smoke/", scripts, len(roots), skipped))
}
