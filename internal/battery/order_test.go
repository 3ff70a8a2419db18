package battery

import (
	"context"
	"reflect"
	"sync"
	"testing"
)

// The First members start before the rest (a serial pool shows the start
// order), and the verdicts stay in member order whatever the start order.
func TestFirstMembersStartFirst(t *testing.T) {
	var mu sync.Mutex
	var started []string
	member := func(name string, first bool) Member {
		return Member{Name: name, First: first, Exec: func(context.Context, string) Outcome {
			mu.Lock()
			started = append(started, name)
			mu.Unlock()
			return Outcome{Output: []byte(name + "\n")}
		}}
	}
	members := []Member{member("a", false), member("b", true), member("c", false), member("d", true)}
	verdicts := Run(members, Options{Jobs: 1})
	if want := []string{"b", "d", "a", "c"}; !reflect.DeepEqual(started, want) {
		t.Errorf("start order %v, want %v", started, want)
	}
	var got []string
	for _, v := range verdicts {
		got = append(got, v.Name+":"+string(v.Output))
	}
	if want := []string{"a:a\n", "b:b\n", "c:c\n", "d:d\n"}; !reflect.DeepEqual(got, want) {
		t.Errorf("verdicts %q, want member order %q", got, want)
	}
}
