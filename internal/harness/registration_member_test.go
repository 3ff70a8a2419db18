package harness

import "testing"

// An interpreter with nothing, or only options, after it dispatches no
// member, and reading it does not run past its words.
func TestMemberOfABareInterpreter(t *testing.T) {
	for _, r := range []Registration{
		{Command: "sh"},
		{Command: "bash -x"},
		{Command: "bash", Args: []string{"-e", "-x"}},
		{Command: "sh", Args: []string{"-c"}},
	} {
		m, ok, err := MemberOf(r)
		if m != "" || ok || err != nil {
			t.Errorf("%+v: %q %v %v, want no member", r, m, ok, err)
		}
	}
}

// A binary at the root of the file system is still this binary.
func TestMemberOfABinaryAtTheRoot(t *testing.T) {
	for _, cmd := range []string{"/gates", `\gates.exe`, "/" + Placeholder} {
		if m, ok, err := MemberOf(Registration{Command: cmd, Args: []string{"--hook", "edit-gates"}}); m != "edit-gates" || !ok || err != nil {
			t.Errorf("%s: %q %v %v", cmd, m, ok, err)
		}
	}
}
