// Package gates is a fixture's stand-in for a compiled gate's module.
package gates

type report struct{}

func (report) Done(string) int { return 0 }

type ctx struct{}

func (ctx) NewReport(map[string]string) report { return report{} }

func checkGoValved(c ctx) int {
	r := c.NewReport(map[string]string{"moved": "commit or stash the change"})
	return r.Done("the worktree matches HEAD")
}
