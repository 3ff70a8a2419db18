package battery

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"
)

// findingLine matches a captured line opening `<path>:<line>:` or
// `<path>:<line>:<col>:`. It reads our own output, not user patterns, so
// Go's regexp serves.
var findingLine = regexp.MustCompile(`^([^:\s][^:]*):([0-9]+):(?:([0-9]+):)?`)

// SARIFInput is what the SARIF log needs beyond the verdicts.
type SARIFInput struct {
	Registry string                 // gates.list path, repo-relative
	Spec     func(Member) string    // the invariant printed beneath a red verdict
	HelpURI  func(Member) string    // published location, "" when none
	IsFile   func(path string) bool // path names a regular file (repo-relative)
	IsDir    func(path string) bool // path names a directory (repo-relative)
	// Version is the tool's version as the log's tool.driver.version
	// carries it: the release (or devel) and the build's source stamp.
	Version string
}

// SARIF renders a SARIF 2.1.0 log of the verdicts: one rule per red member,
// results placed by the member's own finding lines, else at its registry
// line. A green run yields an empty result set.
func SARIF(verdicts []Verdict, in SARIFInput) ([]byte, error) {
	report, err := sarif.New(sarif.Version210)
	if err != nil {
		return nil, err
	}
	run := sarif.NewRunWithInformationURI("gates", "https://github.com/gate-sdk/gates")
	if in.Version != "" {
		run.Tool.Driver.WithVersion(in.Version)
	}
	run.Results = []*sarif.Result{}
	for _, v := range verdicts {
		var accepted []Finding
		if v.Structured {
			accepted = Accepted(v.Findings)
		}
		if v.Passed() && len(accepted) == 0 {
			continue
		}
		rule := run.AddRule(v.Name)
		desc := v.Name + " did not pass"
		if in.Spec != nil {
			if s := in.Spec(v.Member); s != "" {
				desc = s
			}
		}
		rule.WithShortDescription(sarif.NewMultiformatMessageString(desc))
		if in.HelpURI != nil {
			if u := in.HelpURI(v.Member); u != "" {
				rule.WithHelpURI(u)
			}
		}
		// assertion M: an accepted finding is a result whose baseline
		// state is unchanged, suppressed externally (by the baseline
		// file); every other result is new.
		for _, f := range accepted {
			res := withFingerprint(placed(v, f, in), f).WithBaselineState("unchanged")
			// The library writes every suppression field, so each gets a
			// value the schema admits: status, the result's own location
			// and a guid derived from the result.
			sup := sarif.NewSuppression("external").WithStatus("accepted").
				WithJustifcation("accepted by the baseline").
				WithGuid(resultGUID(v.Name, f)).WithLocation(res.Locations[0])
			run.AddResult(res.WithSuppression([]*sarif.Suppression{sup}))
		}
		if v.Passed() {
			continue
		}
		placedN := 0
		for _, f := range located(v) {
			if f.Accepted {
				continue
			}
			uri, region, ok := placement(f, in)
			if !ok {
				continue
			}
			run.AddResult(withFingerprint(resultAt(v.Name, f.Text, uri, region), f).WithBaselineState("new"))
			placedN++
		}
		if placedN > 0 {
			continue
		}
		msg := strings.TrimRight(string(v.Output), "\n")
		if msg == "" {
			msg = v.Name + " failed"
		}
		var region *sarif.Region
		if v.Line > 0 {
			region = sarif.NewRegion().WithStartLine(v.Line)
		}
		run.AddResult(resultAt(v.Name, msg, in.Registry, region).WithBaselineState("new"))
	}
	report.AddRun(run)
	var buf bytes.Buffer
	if err := report.PrettyWrite(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// placement answers where a finding's result goes: at its file and line;
// at the whole file or directory when the finding names no line (a
// top-level entry, a file that is wrong as a whole); nowhere (ok false)
// when its path names nothing in the tree.
func placement(f Finding, in SARIFInput) (uri string, region *sarif.Region, ok bool) {
	switch {
	case f.Path == "" || in.IsFile == nil:
		return "", nil, false
	case in.IsFile(f.Path):
		if f.Line > 0 {
			region = sarif.NewRegion().WithStartLine(f.Line)
			if f.Column > 0 {
				region.WithStartColumn(f.Column)
			}
		}
		return f.Path, region, true
	case f.Line < 1 && in.IsDir != nil && in.IsDir(f.Path):
		return strings.TrimSuffix(f.Path, "/") + "/", nil, true
	}
	return "", nil, false
}

// located answers the findings SARIF places: a structured member's own
// when it reported a violation, otherwise every contract line of its
// output (a refusal's file:line: lines among them).
func located(v Verdict) []Finding {
	if v.Structured && v.Code == 1 {
		return v.Findings
	}
	return ParseContract(v.Output)
}

// FingerprintKey names the partial fingerprint a result carries: the
// digest the baseline keys the finding by (gate.Finding.Identity).
const FingerprintKey = "gatesFingerprint/v1"

// withFingerprint sets a structured finding's fingerprint on its result.
//
// assertion Q: a result carries its finding's fingerprint as a partial
// fingerprint, so a code-scanning service follows it as the baseline does.
func withFingerprint(res *sarif.Result, f Finding) *sarif.Result {
	if f.Fingerprint == "" {
		return res
	}
	return res.WithPartialFingerPrints(map[string]interface{}{FingerprintKey: f.Fingerprint})
}

// resultGUID answers a stable name-based GUID (version 5 layout) for a
// finding: the same finding is the same suppression in every run.
func resultGUID(gate string, f Finding) string {
	what := f.Message
	if f.Fingerprint != "" {
		// The fingerprint, not the wording: a reworded message is the
		// same finding, so the same suppression.
		what = "fingerprint\x00" + f.Fingerprint
	}
	sum := sha256.Sum256([]byte(gate + "\x00" + f.Path + "\x00" + f.Class + "\x00" + what))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// placed answers a finding's result: at its line where it names a regular
// file, else at the file (or the registry line) with no region.
func placed(v Verdict, f Finding, in SARIFInput) *sarif.Result {
	if uri, region, ok := placement(f, in); ok {
		return resultAt(v.Name, f.Text, uri, region)
	}
	var region *sarif.Region
	if v.Line > 0 {
		region = sarif.NewRegion().WithStartLine(v.Line)
	}
	return resultAt(v.Name, f.Text, in.Registry, region)
}

func resultAt(rule, msg, path string, region *sarif.Region) *sarif.Result {
	// The artifact location is a URI reference: the real path, percent-
	// encoded where a byte (a blank, a control character) is not a URI's.
	loc := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation((&url.URL{Path: path}).EscapedPath()))
	if region != nil {
		loc.WithRegion(region)
	}
	return sarif.NewRuleResult(rule).
		WithLevel("error").
		WithMessage(sarif.NewTextMessage(msg)).
		WithLocations([]*sarif.Location{sarif.NewLocationWithPhysicalLocation(loc)})
}
