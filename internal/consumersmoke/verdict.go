package consumersmoke

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
)

// SpecLinePrefix opens the invariant line the battery prints beneath a red
// verdict; the demo's excerpt ends on it.
const SpecLinePrefix = "    spec: "

// greenLine is the battery's positive green token.
var greenLine = regexp.MustCompile(`(?m)^(All [0-9]+ gates|The 1 gate) passed( \([0-9]+ checked nothing: [^()\n]*\))?\.$`)

// Green reports whether a battery run is green: exit 0 and the token.
func Green(code int, out []byte) bool { return code == 0 && greenLine.Match(out) }

// GreenToken answers the battery's green line, "" when absent.
func GreenToken(out []byte) string { return string(greenLine.Find(out)) }

// FailLine reports whether the transcript carries the FAIL: verdict of gate.
func FailLine(out []byte, gate string) bool {
	for _, l := range strings.Split(string(out), "\n") {
		t := strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(t, "FAIL: "+gate); ok && (rest == "" || rest[0] == ' ') {
			return true
		}
	}
	return false
}

// FailedGates answers the names on the battery's FAIL: lines, in order.
func FailedGates(out []byte) []string {
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		t := strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(t, "FAIL: "); ok {
			name, _, _ := strings.Cut(rest, " ")
			names = append(names, name)
		}
	}
	return names
}

// SARIFHasRule reports whether the SARIF log at path holds a result whose
// rule id is gate.
func SARIFHasRule(path, gate string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		return false, err
	}
	for _, r := range log.Runs {
		for _, res := range r.Results {
			if res.RuleID == gate {
				return true, nil
			}
		}
	}
	return false, nil
}

// Excerpt quotes one gate's block out of a battery transcript: from its
// "===== <gate> =====" header through its "FAIL: <gate>" verdict and the
// invariant line beneath it, when there is one. A later gate's block never
// joins the quote. ok is false when the block is not there.
func Excerpt(out []byte, gate string) (string, bool) {
	lines := strings.Split(string(out), "\n")
	header := "===== " + gate + " ====="
	for i, l := range lines {
		if l != header {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if strings.HasPrefix(lines[j], "===== ") {
				return "", false
			}
			t := strings.TrimSpace(lines[j])
			if rest, ok := strings.CutPrefix(t, "FAIL: "+gate); ok && (rest == "" || rest[0] == ' ') {
				end := j + 1
				if end < len(lines) && strings.HasPrefix(lines[end], SpecLinePrefix) {
					end++
				}
				return strings.Join(lines[i:end], "\n") + "\n", true
			}
		}
		return "", false
	}
	return "", false
}
