// Package failopen names the fail-open set: the arms whose front-end stub
// exits 0 rather than 2 when the gates binary is absent or will not run,
// because their caller (a coding agent's harness) reads 0 as "let it
// through" and anything else as a wedge. The arm table in internal/cli
// flags the same arms, and its unit test holds the two equal; the rule
// check-front-end-fail-open holds each stub's declaration line to this set.
package failopen

// Arms answers the fail-open arms, sorted.
func Arms() []string { return []string{"--hook", "--statusline"} }
