// Package crate is a stand-in module carrying one vet finding and one
// failing test.
package crate

import "fmt"

// Sum adds two numbers, and reports it with a verb go vet refuses.
func Sum(a, b int) int {
	fmt.Printf("%d\n", "sum")
	return a - b
}
