// Package gates is a fixture's stand-in for a compiled gate's module.
package gates

type ctx struct{}

func (ctx) NewReport(map[string]string) int { return 0 }

// The clean line is only mentioned here: r.Done("...").
func checkGoValved(c ctx) int {
	return c.NewReport(map[string]string{"moved": "commit or stash the change"})
}
