package harness

import (
	"reflect"
	"strings"
	"testing"
)

// Where a `cd` leaves git: a cd to a directory the line spells is
// followed and the commit there judged as that directory's; any other
// move (pushd, popd, `cd -`, a cd to what only the shell knows, a cd with
// options or more than one operand) leaves git's place unknown, so the
// commit is judged here.
func TestInspectFollowsOnlyACdItCanName(t *testing.T) {
	cases := []struct {
		line   string
		asked  []string
		bypass bool
	}{
		{"cd /o && git commit -n -m x", []string{"/o/"}, false},
		{"cd /o && cd sub && git commit -n -m x", []string{"/o/sub/"}, false},
		{"pushd /o && git commit -n -m x", nil, true},
		{"popd && git commit -n -m x", nil, true},
		{"cd - && git commit -n -m x", nil, true},
		{`cd "" && git commit -n -m x`, nil, true},
		{`cd "$d" && git commit -n -m x`, nil, true},
		{"cd /o sub && git commit -n -m x", nil, true},
		{"cd -P /o && git commit -n -m x", nil, true},
		{"git add -A && git commit -n -m x", nil, true},
		{"true && git -C /o commit -n -m x", []string{"/o"}, false},
	}
	for _, c := range cases {
		var asked []string
		v, err := InspectAt(c.line, func(d string) bool { asked = append(asked, d); return true })
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if !reflect.DeepEqual(asked, c.asked) || (len(v.Bypass) > 0) != c.bypass {
			t.Errorf("%q: asked about %q and bypass %v; want %q and %v", c.line, asked, v.Bypass, c.asked, c.bypass)
		}
	}
}

// Here-documents are matched to their commands in order, on any
// descriptor: the one on stdin (spelled or not as 0) feeds `-F -`, one on
// another descriptor does not, and a second command's document is its own.
// A variable's name may hold any letter, underscore or (after the first)
// digit.
func TestInspectHeredocsInOrderAndNames(t *testing.T) {
	cases := map[string][]string{
		"git commit -F - 0<<'EOF'\nwip zero\nEOF\n":                           {"wip zero\n"},
		"git commit -F - 3<<'EOF'\nnot stdin\nEOF\n":                          nil,
		"cat 3<<'A' && git commit -F - <<'B'\nfirst\nA\nsecond\nB\n":          {"second\n"},
		"git commit -F - <<'A'\nfirst\nA\ngit commit -F - <<'B'\nsecond\nB\n": {"first\n", "second\n"},
		"git commit -F - 2<<'A' <<'B'\nnot this\nA\nthis\nB\n":                {"this\n"},
		"git commit -m \"$(cat 0<<'EOF'\nwip zero\nEOF\n)\"":                  {"wip zero\n"},
		"git commit -m \"$(cat 0<<-'EOF'\n\twip tab\n\tEOF\n)\"":              {"wip tab\n"},
		`A=a; git commit -m "$A"`:                                             {"a\n"},
		`Z=z; git commit -m "$Z"`:                                             {"z\n"},
		`a=a; git commit -m "$a"`:                                             {"a\n"},
		`z=z; git commit -m "$z"`:                                             {"z\n"},
		`_=u; git commit -m "${_}"`:                                           {"u\n"},
		`x0=d; x9=e; git commit -m "$x0" -m "$x9"`:                            {"d\n\ne\n"},
	}
	for c, want := range cases {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if !reflect.DeepEqual(v.Messages, want) {
			t.Errorf("%q: messages %q, want %q", c, v.Messages, want)
		}
	}
}

// A redirection the line ends on names no file; reading it neither
// panics nor takes a later word for its target.
func TestInspectRedirectionAtTheEnd(t *testing.T) {
	for _, c := range []string{"echo >", "git commit -F m; echo 2>", "echo >&"} {
		v, err := Inspect(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
		}
		if strings.HasPrefix(c, "git") && !reflect.DeepEqual(v.Files, []MessageFile{{Path: "m"}}) {
			t.Errorf("%q: files %+v", c, v.Files)
		}
	}
}

// A here-document opened inside a command substitution whose body comes
// after it on the outer line: the substitution's list holds the operator
// and not the body, which is read without running off the documents.
func TestInspectHeredocBodyOutsideItsSubstitution(t *testing.T) {
	for _, c := range []string{"echo $(git commit -F - <<EOF)\nwip\nEOF\n", "git commit -m \"$(cat <<EOF)\"\nwip\nEOF\n"} {
		if _, err := Inspect(c); err != nil {
			t.Errorf("%q: %v", c, err)
		}
	}
}
