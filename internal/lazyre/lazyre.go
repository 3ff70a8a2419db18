// Package lazyre holds regular expressions compiled on first use. A
// package-level regexp.MustCompile runs at process start whether or not
// the run ever matches it; the binary declares some sixty, and compiling
// them was about a millisecond of every invocation, the hook's included.
package lazyre

import (
	"regexp"
	"sync"
)

// RE is one expression, compiled the first time Get is called. Safe for
// concurrent use. An expression that does not compile panics there, as
// regexp.MustCompile would at start; every one is compiled by a test
// (TestEveryPatternCompiles in the packages that declare them, through
// CompileAll).
type RE struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

var (
	mu  sync.Mutex
	all []*RE
)

// New answers the expression expr, not yet compiled.
func New(expr string) *RE {
	r := &RE{expr: expr}
	mu.Lock()
	all = append(all, r)
	mu.Unlock()
	return r
}

// All answers every expression made so far: a package's tests compile
// each of its own (and its imports') through it.
func All() []*RE {
	mu.Lock()
	defer mu.Unlock()
	return append([]*RE(nil), all...)
}

// Get answers the compiled expression.
func (r *RE) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// CompileAll compiles every expression made so far and answers how many
// there are: a package's test calls it, and a bad expression panics there.
func CompileAll() int {
	rs := All()
	for _, r := range rs {
		r.Get()
	}
	return len(rs)
}

// String answers the expression's source.
func (r *RE) String() string { return r.expr }
