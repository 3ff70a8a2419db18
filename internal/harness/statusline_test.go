package harness

import (
	"reflect"
	"testing"
	"time"
)

// Issue 42 item 19: the last verdict's file reads back as written; a file
// with a wrong version, too few lines, a line with no field, an unknown
// key or a number that is none reads as no verdict.
func TestLastVerdictRoundTripAndRefusals(t *testing.T) {
	v := LastVerdict{At: time.Unix(1700000000, 0), Ran: 42, Red: []string{"check-a", "check-b"}}
	data := FormatLastVerdict(v)
	if want := "gates-last-verdict 1\nat 1700000000\nran 42\nred check-a\nred check-b\n"; string(data) != want {
		t.Fatalf("formatted %q, want %q", data, want)
	}
	got, ok := ParseLastVerdict(data)
	if !ok || !got.At.Equal(v.At) || got.Ran != 42 || !reflect.DeepEqual(got.Red, v.Red) {
		t.Fatalf("read back %+v %v", got, ok)
	}
	if got, ok := ParseLastVerdict([]byte("gates-last-verdict 1\nat 5\nran 3")); !ok || got.Ran != 3 || got.At.Unix() != 5 || got.Red != nil {
		t.Errorf("a green verdict with no closing newline reads as %+v %v", got, ok)
	}
	for _, bad := range []string{
		"",
		"gates-last-verdict 1\nat 5\n",
		"gates-last-verdict 2\nat 5\nran 3\n",
		"gates-last-verdict 1\nat 5\nran\n",
		"gates-last-verdict 1\nat x\nran 3\n",
		"gates-last-verdict 1\nat 5\nran x\n",
		"gates-last-verdict 1\nat 5\nran 3\nwho me\n",
	} {
		if got, ok := ParseLastVerdict([]byte(bad)); ok {
			t.Errorf("%q reads as %+v", bad, got)
		}
	}
}

// Issue 42 item 19: the status line says each part as it stands.
func TestStatusLineParts(t *testing.T) {
	now := time.Unix(1700000000, 0)
	at := func(d time.Duration) time.Time { return now.Add(-d) }
	const r, g, d, z = ansiRed, ansiGreen, ansiDim, ansiReset
	cases := []struct {
		s    Status
		want string
	}{
		{Status{}, "gates: " + d + "no repository here" + z},
		{Status{Repo: true, Accepted: -1, Now: now}, "gates: " + r + "hooks off" + z + " · " + d + "no battery run yet" + z},
		{Status{Repo: true, Hooks: true, Accepted: 0, Now: now, Verdict: &LastVerdict{At: at(59 * time.Second), Ran: 7}},
			"gates: " + g + "hooks on" + z + " · " + g + "7 green" + z + " just now · 0 accepted"},
		{Status{Repo: true, Hooks: true, Broken: "launcher gone", Accepted: -2, Now: now, Verdict: &LastVerdict{At: at(time.Minute), Ran: 7, Red: []string{"a", "b", "c"}}},
			"gates: " + r + "hooks broken" + z + " (launcher gone) · " + r + "3 red" + z + " (a, b, c) 1m ago · " + r + "baseline unreadable" + z},
		{Status{Repo: true, Accepted: 3, Now: now, Verdict: &LastVerdict{At: at(time.Hour), Ran: 9, Red: []string{"a", "b", "c", "d", "e"}}, RedCommits: []string{"abc1234"}},
			"gates: " + r + "hooks off" + z + " · " + r + "5 red" + z + " (a, b, c +2) 1h ago · 3 accepted · " + r + "1 red commit this session" + z + " (abc1234)"},
		{Status{Repo: true, Accepted: -1, Now: now, Verdict: &LastVerdict{At: at(48 * time.Hour), Ran: 1}, RedCommits: []string{"a1", "b2"}, Unjudged: 1, JudgeBroken: "state unreadable"},
			"gates: " + r + "hooks off" + z + " · " + g + "1 green" + z + " 2d ago · " + r + "2 red commits this session" + z + " (a1, b2) · " + r + "1 commits not judged" + z + " · " + r + "commit judge broken" + z + " (state unreadable)"},
	}
	for i, c := range cases {
		if got := StatusLine(c.s); got != c.want {
			t.Errorf("case %d:\n got %q\nwant %q", i, got, c.want)
		}
	}
}

// Issue 42 item 19: the age is coarse, each unit from its first whole
// step to just below the next.
func TestAgeSteps(t *testing.T) {
	now := time.Unix(1700000000, 0)
	for d, want := range map[time.Duration]string{
		0:                               "just now",
		59 * time.Second:                "just now",
		time.Minute:                     "1m ago",
		59*time.Minute + 59*time.Second: "59m ago",
		time.Hour:                       "1h ago",
		47*time.Hour + 59*time.Minute:   "47h ago",
		48 * time.Hour:                  "2d ago",
		10*24*time.Hour + 23*time.Hour:  "10d ago",
	} {
		if got := age(now, now.Add(-d)); got != want {
			t.Errorf("age of %v = %q, want %q", d, got, want)
		}
	}
}
