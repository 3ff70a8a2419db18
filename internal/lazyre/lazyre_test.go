package lazyre

import "testing"

func TestCompiledOnceOnFirstUse(t *testing.T) {
	r := New(`^a+b$`)
	if r.re != nil {
		t.Fatal("compiled before use")
	}
	if !r.Get().MatchString("aab") || r.Get() != r.Get() {
		t.Fatal("not one compiled expression")
	}
	found := false
	for _, x := range All() {
		found = found || x == r
	}
	if !found {
		t.Fatal("All misses an expression")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad expression compiled")
		}
	}()
	New(`(`).Get()
}
