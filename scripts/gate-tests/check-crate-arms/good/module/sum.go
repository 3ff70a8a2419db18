// Package crate is a stand-in module the good case lints and tests green.
package crate

// Sum adds two numbers.
func Sum(a, b int) int { return a + b }
