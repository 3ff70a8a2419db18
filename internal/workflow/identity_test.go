package workflow

import (
	"testing"
)

func TestActionName(t *testing.T) {
	for in, want := range map[string]string{
		"actions/checkout@v4":            "actions/checkout",
		"o/r/path/wf.yml@main":           "o/r/path/wf.yml",
		"o/r@a@b":                        "o/r@a",
		"./local":                        "./local",
		"docker://alpine:3.19":           "docker://alpine",
		"docker://ghcr.io:443/o/img:1.0": "docker://ghcr.io:443/o/img",
		"docker://ghcr.io:443/o/img":     "docker://ghcr.io:443/o/img",
		"docker://alpine@sha256:abc":     "docker://alpine",
		"docker://alpine:3@sha256:abc":   "docker://alpine",
		"docker://img":                   "docker://img",
		"@v1":                            "",
		"docker://@sha256:abc":           "docker://",
		"docker://:tag":                  "docker://",
	} {
		if got := ActionName(in); got != want {
			t.Errorf("ActionName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStepKeysAndSites(t *testing.T) {
	f := read("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n" +
		"      - uses: actions/checkout@v4\n" + // 6
		"      - run: echo 1\n" + // 7
		"      - id: build\n        run: make\n" + // 8
		"      - name: Test\n        run: go test\n" + // 10
		"      - uses: actions/checkout@v3\n" + // 12
		"      - run: echo 2\n" + // 13
		"      - name: Test\n        run: again\n" + // 14
		"      - {}\n" + // 16
		"      - uses: [not, a, scalar]\n" + // 17
		"  b:\n    uses: o/r/.github/workflows/w.yml@v1\n") // 18, 19
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	j := f.Jobs[0]
	want := []string{"uses=actions/checkout#1", "run#1", "id=build", "name=Test#1", "uses=actions/checkout#2", "run#2", "name=Test#2", "step#1", "step#2"}
	if len(j.Steps) != len(want) {
		t.Fatalf("%d steps", len(j.Steps))
	}
	for i, s := range j.Steps {
		if got := StepKey(j, s); got != want[i] {
			t.Errorf("step %d: key %q, want %q", i, got, want[i])
		}
		if StepNumber(s) != i+1 {
			t.Errorf("step %d numbered %d", i, StepNumber(s))
		}
	}
	sites := f.UsesSites()
	if len(sites) != 4 || sites[6].Step != j.Steps[0] || sites[12].Step != j.Steps[4] || sites[17].Step != j.Steps[8] ||
		sites[19].Job != f.Jobs[1] || sites[19].Step != nil || sites[6].Job != j {
		t.Errorf("sites %+v", sites)
	}
	act := read("runs:\n  using: composite\n  steps:\n    - uses: a/b@v1\n")
	if s := act.UsesSites(); len(s) != 1 || s[4].Step == nil || s[4].Job != act.Action {
		t.Errorf("action sites %+v", s)
	}
}

// namesRepo's reading of one call, word by word.
func TestNamesRepoEdges(t *testing.T) {
	for in, want := range map[string]bool{
		"gh":                                                 false,
		"gh pr view 12 -- --repo o/r":                        false,
		"gh pr view 12 -Ro/r":                                true,
		"gh api repos/o/r/issues":                            true,
		"gh api repos/{owner}/{repo}/issues":                 false,
		"gh api repos/o/r/branches/{branch}":                 false,
		"gh pr view https://github.com/o/r/pull/3":           true,
		"gh pr view https://github.com/o/r/pull/":            false,
		"gh pr view https://github.com//r/pull/3":            false,
		"gh pr view https://github.com/o/r/tree/3":           false,
		"gh pr view https://github.com/o/r":                  false,
		"gh pr view http://github.com/o/r/pull/3":            false,
		"gh pr view 3":                                       false,
		"gh pr view -- https://github.com/o/r/pull/3":        true,
		"gh pr merge --squash https://github.com/o/r/pull/3": true,
		"gh pr merge --body x https://github.com/o/r/pull/3": true,
		"gh pr merge --body=x https://github.com/o/r/pull/3": true,
		"gh pr list": false,
		"gh pr":      false,
		"gh pr view ${{ github.event.pull_request.html_url }}": true,
		"gh pr view \"${{ github.event.issue.html_url }}\"":    true,
		"gh pr view ${{ github.event.pull_request.number }}":   false,
		"gh repo view o/r":                        true,
		"gh repo view":                            false,
		"gh repo view --json x o/r":               true,
		"gh repo view --web o/r":                  true,
		"gh repo view -- o/r":                     false,
		"gh repo view https://github.com/o/r.git": true,
		"gh repo view git@github.com:o/r.git":     true,
		"gh repo view o/r/x":                      false,
		"gh repo view /r":                         false,
		"gh repo view $REPO":                      true,
		"gh repo create x":                        true,
		"gh repo list":                            true,
		"gh repo rename x":                        false,
		"gh repo":                                 false,
	} {
		if got := namesRepo(in); got != want {
			t.Errorf("namesRepo(%q) = %v, want %v", in, got, want)
		}
	}
}
