package payload

// Unit tests of the target and runner rosters' grammar edges.

import (
	"strings"
	"testing"
)

func TestTargetWordsAtTheRangeEdges(t *testing.T) {
	got, err := ParseTargets("t", []byte("zos/s390x\n\t# c\r\nplan9/a0\n"))
	if err != nil || len(got) != 2 || got[0].String() != "zos/s390x" || got[1].String() != "plan9/a0" || got[0].Line != 1 || got[1].Line != 3 {
		t.Fatalf("got %+v %v", got, err)
	}
	for _, bad := range []string{"linux/", "/amd64", "lin{ux/amd64", "linux/amd`64", "linux/amd:64", "linux/amd/64"} {
		if _, err := ParseTargets("t", []byte(bad+"\n")); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	_, err = ParseTargets("r.list", []byte("linux/amd64\n\nlinux/amd64\n"))
	if err == nil || err.Error() != "r.list:3: linux/amd64 is already declared on line 1" {
		t.Errorf("a repeat: %v", err)
	}
	if _, err := ParseTargets("r.list", []byte("# none\n")); err == nil || err.Error() != "r.list: the roster declares no target" {
		t.Errorf("no target: %v", err)
	}
}

func TestParseRunnersLinesAndRefusals(t *testing.T) {
	ts, _ := ParseTargets("t", []byte("linux/amd64\ndarwin/arm64\n"))
	rs, err := ParseRunners("r", []byte("# runners\ndarwin/arm64 macos-14\n\nlinux/amd64   ubuntu-latest\n"), ts)
	if err != nil || len(rs) != 2 || rs[0] != (Runner{Target: "darwin/arm64", Label: "macos-14", Line: 2}) || rs[1] != (Runner{Target: "linux/amd64", Label: "ubuntu-latest", Line: 4}) {
		t.Fatalf("runners %+v %v", rs, err)
	}
	for bad, want := range map[string]string{
		"linux/amd64 a\n": "r: target darwin/arm64 (roster line 2) has no runner",
		"linux/amd64 a\ndarwin/arm64 b\nplan9/386 c\n": "r:3: plan9/386 is not a target of the roster",
		"linux/amd64 a\nlinux/amd64 b\n":               "r:2: linux/amd64 has a runner already",
		"linux/amd64\n":                                "r:1: \"linux/amd64\" is not a \"<os>/<arch> <runner-label>\" line",
	} {
		if _, err := ParseRunners("r", []byte(bad), ts); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}
	if !strings.HasSuffix(Target{OS: "windows", Arch: "arm64"}.BinaryName(), ".exe") || (Target{OS: "linux"}).BinaryName() != "gates" {
		t.Error("binary names")
	}
}
