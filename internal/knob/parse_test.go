package knob

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseFileForms(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Line
	}{
		{"scalar", "X = v\n", []Line{{Num: 1, Kind: KindScalar, Name: "X", Value: "v"}}},
		{"hash and equals are data", "X = a # b = c\n", []Line{{Num: 1, Kind: KindScalar, Name: "X", Value: "a # b = c"}}},
		{"dollar is data", "X = $HOME ${Y} <- Z\n", []Line{{Num: 1, Kind: KindScalar, Name: "X", Value: "$HOME ${Y} <- Z"}}},
		{"blanks around head and value trimmed", "  \tX   =   a b   \n", []Line{{Num: 1, Kind: KindScalar, Name: "X", Value: "a b"}}},
		{"no blanks at all", "X=v", []Line{{Num: 1, Kind: KindScalar, Name: "X", Value: "v"}}},
		{"empty value", "X =\n", []Line{{Num: 1, Kind: KindScalar, Name: "X", Value: ""}}},
		{"element", "A[] = x y\nA[] = z\n", []Line{
			{Num: 1, Kind: KindElement, Name: "A", Value: "x y"},
			{Num: 2, Kind: KindElement, Name: "A", Value: "z"}}},
		{"element carrying an arrow is an element", "A[] = <- B\n", []Line{{Num: 1, Kind: KindElement, Name: "A", Value: "<- B"}}},
		{"pair, value keeps =", "K[a b] = x=y\n", []Line{{Num: 1, Kind: KindPair, Name: "K", Key: "a b", Value: "x=y"}}},
		{"reference", "A[] <- B\nA[]<-B_2\n", []Line{
			{Num: 1, Kind: KindRef, Name: "A", Other: "B"},
			{Num: 2, Kind: KindRef, Name: "A", Other: "B_2"}}},
		{"comments and blanks skipped, numbering kept", "# c\n\n   # indented\n\t\nX = 1\n", []Line{{Num: 5, Kind: KindScalar, Name: "X", Value: "1"}}},
		{"CRLF line ends", "X = 1\r\nY = 2\r\n", []Line{
			{Num: 1, Kind: KindScalar, Name: "X", Value: "1"},
			{Num: 2, Kind: KindScalar, Name: "Y", Value: "2"}}},
		{"family member suffix may be lowercase", "EVIDENCE_KIT_RUN_demo = bash x.sh\n", []Line{{Num: 1, Kind: KindScalar, Name: "EVIDENCE_KIT_RUN_demo", Value: "bash x.sh"}}},
		{"no final newline", "X = 1", []Line{{Num: 1, Kind: KindScalar, Name: "X", Value: "1"}}},
		{"quotes are data", `X = "a" 'b'`, []Line{{Num: 1, Kind: KindScalar, Name: "X", Value: `"a" 'b'`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, findings := ParseFile("f.knobs", []byte(tc.in))
			if len(findings) > 0 {
				t.Fatalf("unexpected findings: %v", findings)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseFileRefusals(t *testing.T) {
	tests := []struct {
		name string
		in   string
		line int
		msg  string // substring of the message
	}{
		{"tab in value", "X = a\tb\n", 1, "contains a tab"},
		{"tab before value", "# c\nX =\tb\n", 2, "contains a tab"},
		{"trailing tab", "X = b\t\n", 1, "contains a tab"},
		{"missing name", "= x\n", 1, "missing knob name"},
		{"lowercase start", "x = 1\n", 1, "is not a knob name"},
		{"space before bracket", "X [a] = 1\n", 1, "is not a knob name"},
		{"hyphen in name", "X-Y = 1\n", 1, "is not a knob name"},
		{"empty element", "A[] =\n", 1, "empty element"},
		{"bracket in key", "K[a]b] = 1\n", 1, "carries ']'"},
		{"unbalanced bracket", "Ka] = 1\n", 1, "unbalanced"},
		{"bare word", "X\n", 1, "malformed line"},
		{"reference without brackets", "A <- B\n", 1, "head is NAME[]"},
		{"reference to lowercase", "A[] <- b\n", 1, "SCREAMING_SNAKE"},
		{"reference from lowercase member", "A_x[] <- B\n", 1, "SCREAMING_SNAKE"},
		{"reference to nothing", "A[] <-\n", 1, "SCREAMING_SNAKE"},
		{"invalid UTF-8", "X = \xff\n", 1, "not valid UTF-8"},
		{"second line numbered", "X = 1\nY\n", 2, "malformed line"},
		// A byte-order mark is refused by name, whatever line it opens:
		// the sh front end reads this file too and would not see the
		// first line's knob, so the two readers would disagree.
		{"byte-order mark before a comment", "\ufeff# seeded\nX = 1\n", 1, "byte-order mark"},
		{"byte-order mark before a knob", "\ufeffX = 1\n", 1, "byte-order mark"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, findings := ParseFile("f.knobs", []byte(tc.in))
			if len(findings) != 1 {
				t.Fatalf("want one finding, got %v", findings)
			}
			f := findings[0]
			if f.File != "f.knobs" || f.Line != tc.line {
				t.Fatalf("finding at %s:%d, want f.knobs:%d", f.File, f.Line, tc.line)
			}
			prefix := fmt.Sprintf("f.knobs:%d: ", tc.line)
			if !strings.HasPrefix(f.Error(), prefix) || !strings.Contains(f.Error(), tc.msg) {
				t.Fatalf("message %q lacks %q or %q", f.Error(), prefix, tc.msg)
			}
		})
	}
}

func TestParseFileReportsEveryBadLine(t *testing.T) {
	_, findings := ParseFile("f", []byte("x = 1\nGOOD = 1\nA[] =\nB = \tq\n"))
	var lines []int
	for _, f := range findings {
		lines = append(lines, f.Line)
	}
	if fmt.Sprint(lines) != "[1 3 4]" {
		t.Fatalf("refused lines %v, want [1 3 4]", lines)
	}
}

// FuzzParseKnobFile: parsing never panics, and every meaningful line either
// parses into a well-formed Line or is refused with the file and its line.
func FuzzParseKnobFile(f *testing.F) {
	for _, seed := range []string{
		"X = a # b = c\n", "A[] = x\nA[] <- B\n", "K[k] = v=w\r\n", "# c\n\n", "A[] <-\n",
		"X = a\tb", "=\n", "[]=\n", "X[=] = 1\n", "\xff = 1\n", "A[]] = 1\nA[[]] <- B\n",
		"EVIDENCE_KIT_RUN_demo = bash\n", "X\r\r\n", "  \t  X\t=  y  \n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, findings := ParseFile("fz.knobs", data)
		text := strings.TrimSuffix(string(data), "\n")
		all := strings.Split(text, "\n")
		if len(data) == 0 {
			all = nil
		}
		meaningful := 0
		for _, l := range all {
			b := trimBlanks(strings.TrimSuffix(l, "\r"))
			if b != "" && b[0] != '#' {
				meaningful++
			}
		}
		if len(lines)+len(findings) != meaningful {
			t.Fatalf("%d parsed + %d refused != %d meaningful lines", len(lines), len(findings), meaningful)
		}
		for _, fd := range findings {
			if fd.File != "fz.knobs" || fd.Line < 1 || fd.Line > len(all) {
				t.Fatalf("finding %q names no line of the input", fd.Error())
			}
			if !strings.HasPrefix(fd.Error(), fmt.Sprintf("fz.knobs:%d: ", fd.Line)) {
				t.Fatalf("finding %q does not lead with file:line", fd.Error())
			}
		}
		for _, l := range lines {
			if l.Num < 1 || l.Num > len(all) || !validName(l.Name) {
				t.Fatalf("bad line %+v", l)
			}
			if strings.ContainsAny(l.Value, "\t\n") || l.Value != strings.Trim(l.Value, " ") {
				t.Fatalf("value %q carries a tab, newline or edge blank", l.Value)
			}
			switch l.Kind {
			case KindScalar:
			case KindElement:
				if l.Value == "" {
					t.Fatalf("empty element parsed: %+v", l)
				}
			case KindPair:
				if l.Key == "" || strings.ContainsAny(l.Key, "]=\t") {
					t.Fatalf("bad key %+v", l)
				}
			case KindRef:
				if !screaming(l.Name) || !screaming(l.Other) {
					t.Fatalf("bad reference %+v", l)
				}
			default:
				t.Fatalf("unknown kind %+v", l)
			}
		}
	})
}
