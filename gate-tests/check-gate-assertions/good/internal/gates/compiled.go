// Package gates is a fixture's stand-in for a compiled gate's module.
package gates

// assertion A: at column one.
func plain() int {
	// assertion B: indented.
	return 0
}
