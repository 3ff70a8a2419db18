package gates

import (
	"strings"
	"testing"
)

func FuzzParseStageDump(f *testing.F) {
	f.Add([]byte("100644 " + dumpSHA + " 0\ta b.sh\n100755 " + dumpSHA + " 0\tc.gate\r\n"))
	f.Add([]byte("100644 " + dumpSHA + " 0\tx\x00120000 " + dumpSHA + " 0\ty\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseStageDump("dump", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "dump: record ") {
				t.Fatalf("refusal does not name the record: %v", err)
			}
			return
		}
		for _, e := range entries {
			if e.path == "" || e.mode > 0o777777 {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}

func FuzzSubjectParses(f *testing.F) {
	for _, s := range []string{"feat: x", "fix(a/b): y", "refactor!: z", "Merge x", "feat(): x", "(: x"} {
		f.Add(s)
	}
	types := strings.Fields(defaultTypes)
	f.Fuzz(func(t *testing.T, s string) {
		ok := subjectParses(s, types)
		for _, lead := range subjectCarveOuts {
			if strings.HasPrefix(s, lead) && !ok {
				t.Fatalf("carve-out %q refused", s)
			}
		}
		if ok && !strings.Contains(s, ": ") && !strings.HasPrefix(s, "Merge ") && !strings.HasPrefix(s, "Revert ") &&
			!strings.HasPrefix(s, "fixup!") && !strings.HasPrefix(s, "squash!") {
			t.Fatalf("%q accepted without a ': ' separator", s)
		}
	})
}

func FuzzContractHeader(f *testing.F) {
	f.Add("# contract: SPEC.md §X — tail")
	f.Add("# contract: fmt v1")
	f.Fuzz(func(t *testing.T, line string) {
		if contractHeader(line) && !strings.HasPrefix(line, contractPrefix) {
			t.Fatalf("%q accepted without the prefix", line)
		}
	})
}

func FuzzRemoteHost(f *testing.F) {
	for _, u := range []string{"git@h:o/r", "ssh://u@h:22/r", "https://[::1]/x", "/p", "a:b"} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, url string) {
		if h := remoteHost(url); !strings.Contains(url, h) {
			t.Fatalf("host %q is not part of %q", h, url)
		}
	})
}

func FuzzPsCodeLines(f *testing.F) {
	f.Add([]byte("# c\nx @\"\n# in\n\"@\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := splitLines(data)
		code := psCodeLines(lines)
		if len(code) != len(lines) {
			t.Fatalf("%d verdicts for %d lines", len(code), len(lines))
		}
		for i, l := range lines {
			body := strings.TrimLeft(string(l), " \t")
			if !strings.HasPrefix(body, "#") && !(i == 0 && strings.HasPrefix(body, "\ufeff")) && !code[i] {
				t.Fatalf("line %d %q is not a comment but was read as one", i+1, l)
			}
		}
	})
}
