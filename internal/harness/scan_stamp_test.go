package harness

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// assertion P (commit-audit) and D (stop-gates): a look for commits on no
// ref starts where the last one began when that is earlier (always, at a
// Stop), the record moves only once a look has finished, and a record
// dated in the future is none.
func TestScanStartsWhereTheLastLookBegan(t *testing.T) {
	r := &fakeRepo{state: t.TempDir()}
	c := &Call{Member: "commit-audit", Payload: &Payload{SessionID: "s1"}, Repo: r}
	rec := filepath.Join(r.state, lastScanName)
	fallback := time.Now().Add(-time.Minute).Truncate(time.Second)

	since, st := startScan(c, fallback, false)
	if !since.Equal(fallback) {
		t.Fatalf("no record: since %v, want the fallback %v", since, fallback)
	}
	st.drop()
	if _, err := os.Stat(rec); err == nil {
		t.Fatal("a dropped look left a record")
	}
	since, st = startScan(c, fallback, false)
	st.done()
	fi, err := os.Stat(rec)
	if err != nil || !fi.ModTime().Equal(st.began) || since.After(st.began) {
		t.Fatalf("a finished look's record: %v, %v; began %v", fi, err, st.began)
	}

	set := func(at time.Time) {
		if err := os.Chtimes(rec, at, at); err != nil {
			t.Fatal(err)
		}
	}
	earlier := fallback.Add(-time.Hour)
	set(earlier)
	if since, st = startScan(c, fallback, false); !since.Equal(earlier) {
		t.Errorf("an earlier record: since %v, want %v", since, earlier)
	}
	st.drop()
	later := fallback.Add(30 * time.Second)
	set(later)
	if since, st = startScan(c, fallback, false); !since.Equal(fallback) {
		t.Errorf("a later record after a command: since %v, want the command's %v", since, fallback)
	}
	st.drop()
	if since, st = startScan(c, fallback, true); !since.Equal(later) {
		t.Errorf("a later record at a Stop: since %v, want %v", since, later)
	}
	st.drop()
	if fi, _ := os.Stat(rec); !fi.ModTime().Equal(later) {
		t.Errorf("a dropped look moved the record to %v", fi.ModTime())
	}
	set(time.Now().Add(time.Hour))
	if since, st = startScan(c, fallback, true); !since.Equal(fallback) {
		t.Errorf("a future record: since %v, want the fallback %v", since, fallback)
	}
	st.drop()
}
