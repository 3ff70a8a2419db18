package gates

import (
	"slices"
	"testing"

	"github.com/gate-sdk/gates/internal/baseline"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/workflow"
)

// fingerprints runs rule over one workflow and answers its findings'
// fingerprints, sorted, with every finding's note.
func fingerprints(t *testing.T, rule gate.Rule, name, body string) (fps, notes []string) {
	t.Helper()
	run := runAction(t, rule, name, map[string]string{".github/workflows/ci.yml": body}, nil, nil)
	if run.Code != gate.Failed {
		t.Fatalf("%s: exit %d, want findings\n%s%s", name, run.Code, run.Stdout, run.Stderr)
	}
	for _, f := range run.Ctx.Findings() {
		if f.Identity == "" {
			t.Fatalf("%s: a finding with no fingerprint of its gate's: %+v", name, f)
		}
		fps = append(fps, baseline.Fingerprint(f))
		notes = append(notes, f.About)
	}
	slices.Sort(fps)
	return fps, notes
}

// Each Actions gate's fingerprint survives what routine maintenance does
// to a workflow (a tag bump, lines moved, steps reordered, a step added)
// and tells two uses of one action apart.
func TestActionFingerprintsFollowTheCode(t *testing.T) {
	before := "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n" +
		"      - name: Check out\n        uses: actions/checkout@v4\n" +
		"      - uses: actions/setup-go@v5\n" +
		"      - run: local x=1\n" +
		"      - uses: actions/setup-go@v5\n"
	after := "# moved down\non: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n" +
		"  build:\n    runs-on: ubuntu-latest\n    steps:\n" +
		"      - run: local x=1\n" +
		"      - uses: actions/setup-go@v6\n" +
		"      - name: Check out\n        uses: actions/checkout@v5\n" +
		"      - uses: actions/setup-go@v6\n"
	for _, g := range []struct {
		name string
		rule gate.Rule
		n    int
	}{
		{"check-action-pinning", checkActionPinning, 3},
		{"check-action-run-shell", checkActionRunShell, 2},
		{"check-action-permissions", checkActionPermissions, 1},
	} {
		a, notes := fingerprints(t, g.rule, g.name, before)
		b, _ := fingerprints(t, g.rule, g.name, after)
		if len(a) != g.n || !slices.Equal(a, b) {
			t.Errorf("%s: fingerprints %v before, %v after a bump, a move and a reorder (want %d, equal)", g.name, a, b, g.n)
		}
		if len(slices.Compact(slices.Clone(a))) != len(a) {
			t.Errorf("%s: two findings share a fingerprint: %v", g.name, a)
		}
		for _, n := range notes {
			if n == "" {
				t.Errorf("%s: a finding with no note", g.name)
			}
		}
	}
}

func TestStepKeyAndActionName(t *testing.T) {
	for ref, want := range map[string]string{
		"actions/checkout@v4":              "actions/checkout",
		"owner/repo/path/to@main":          "owner/repo/path/to",
		"docker://alpine:3.18":             "docker://alpine",
		"docker://ghcr.io/o/i:1@sha256:ab": "docker://ghcr.io/o/i",
		"docker://localhost:5000/img":      "docker://localhost:5000/img",
		"./local":                          "./local",
	} {
		if got := workflow.ActionName(ref); got != want {
			t.Errorf("ActionName(%q) = %q, want %q", ref, got, want)
		}
	}
}

func TestScCode(t *testing.T) {
	for text, want := range map[string]string{
		"Double quote to prevent globbing and word splitting. [SC2086]": "SC2086",
		"no code here": "no code here",
		"odd [SC] end": "odd [SC] end",
	} {
		if got := scCode(text); got != want {
			t.Errorf("scCode(%q) = %q, want %q", text, got, want)
		}
	}
}
