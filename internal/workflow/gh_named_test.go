package workflow

import "testing"

// TestGhCallsNameTheirRepository holds the flag arm's reading of one call:
// a call names its repository (or needs none) through --repo/-R anywhere
// in its own extent, an API path with no placeholder gh fills from the
// repository, an OWNER/REPO operand of a gh repo subcommand that takes
// one, or a command that reads no repository at all.
func TestGhCallsNameTheirRepository(t *testing.T) {
	cases := []struct {
		line  string
		named bool
	}{
		// Explicit API paths name their repository; a placeholder is
		// filled from the repository context, so it needs one.
		{"gh api repos/octo-org/lantern/releases/latest --jq .tag_name", true},
		{"gh api /repos/octo-org/lantern/pulls -f title=x", true},
		{`gh api "repos/${GITHUB_REPOSITORY}/actions/caches" --paginate`, true},
		{"gh api repos/{owner}/{repo}/releases", false},
		{"gh api graphql -F owner='{owner}' -F name='{repo}' -f query=@q.graphql", false},
		{"gh api repos/octo-org/lantern/branches/{branch}", false},
		{"gh api user --jq .login", true},
		// gh repo subcommands with an OWNER/REPO operand.
		{"gh repo fork octo-org/lantern --clone=false", true},
		{"gh repo fork --clone octo-org/lantern", true},
		{"gh repo fork --remote-name upstream octo-org/lantern", true},
		{"gh repo view https://github.com/octo-org/lantern --json name", true},
		{`gh repo view "$GITHUB_REPOSITORY"`, true},
		{"gh repo clone octo-org/lantern -- --depth=1", true},
		{"gh repo fork", false},
		{"gh repo sync --branch feature/x", false},
		{"gh repo rename lantern2", false},
		{"gh repo create octo-org/new --private", true},
		{"gh repo list octo-org", true},
		// Commands that read no repository.
		{"gh auth status", true},
		{"gh gist create notes.md", true},
		{"gh extension install octo-org/gh-thing", true},
		{"gh search issues label:bug", true},
		{"gh --version", true},
		{"gh release view v1", false},
		{"gh run list", false},
		// --repo anywhere in the call, quoting read: a pipe or a
		// substitution inside quotes does not end the call.
		{`gh pr list --json number --jq '.[] | .number' --repo octo-org/lantern`, true},
		{`gh pr create --body "$(cat notes.md)" -R octo-org/lantern`, true},
		{`gh pr create --body "$(cat notes.md)" --repo=octo-org/lantern`, true},
		{"gh pr view 1 -Rocto-org/lantern", true},
		{`gh pr list | grep x --repo`, false},
		{`gh pr list; echo --repo o/r`, false},
		{`gh pr list # --repo o/r`, false},
		{`gh pr list "# --repo o/r"`, false},
		// An issue or pull request given by its URL: gh reads the
		// repository from the URL, and the event's html_url is one.
		{"gh issue edit https://github.com/octo-org/lantern/issues/12 --add-label triage", true},
		{"gh pr view --json state https://github.com/octo-org/lantern/pull/7", true},
		{"gh issue comment ${{ github.event.issue.html_url }} --body done", true},
		{`gh pr merge --auto "${{ github.event.pull_request.html_url }}"`, true},
		{"gh issue edit 12 --add-label triage", false},
		{"gh issue edit ${{ github.event.issue.number }} --add-label triage", false},
		{`gh pr view "$PR_URL"`, false},
		{"gh issue list --label bug", false},
		{"gh issue edit -m v2 https://github.com/octo-org/lantern/issues/12", true},
		// GH_REPO handed to the call itself.
		{`GH_REPO=${{ github.repository }} gh release create "$TAG"`, true},
		{`env GH_REPO="$GITHUB_REPOSITORY" gh release create "$TAG"`, true},
		{`GH_REPO= gh release create "$TAG"`, false},
	}
	for _, tc := range cases {
		calls := ghCalls(logical{text: tc.line, first: 1, offs: []int{0}})
		if len(calls) != 1 {
			t.Errorf("%q: no call found", tc.line)
			continue
		}
		if calls[0].Repo != tc.named {
			t.Errorf("%q: named %v, want %v", tc.line, calls[0].Repo, tc.named)
		}
	}
}

// TestFoldedBodyJoinsItsLines: a folded run: block is one command where
// GitHub folds its lines, so a -R on a later line is the call's.
func TestFoldedBodyJoinsItsLines(t *testing.T) {
	src := "on: push\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: >\n          gh release create v1\n          --notes-file notes.md\n          -R octo-org/lantern\n\n          gh release view v1\n      - run: >-\n          gh pr merge 7\n            --auto\n          --repo octo-org/lantern\n"
	f := read(src)
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	w := Walk(f, WalkOptions{})
	calls := w.Jobs[0].Calls
	want := []Call{{7, 0, true}, {11, 0, false}, {13, 1, false}}
	if len(calls) != len(want) {
		t.Fatalf("calls %v, want %v", calls, want)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Errorf("call %d: %v, want %v", i, calls[i], want[i])
		}
	}
}

// TestURLVarsFollowEnv: a gh pr/issue operand that is a variable names its
// repository only when the nearest env: in scope sets it to the event's
// html_url or a literal issue or pull request URL.
func TestURLVarsFollowEnv(t *testing.T) {
	f := read("on: pull_request\nenv:\n  WF_URL: ${{ github.event.pull_request.html_url }}\n  SHADOWED: https://github.com/o/r/pull/1\njobs:\n  a:\n    runs-on: ubuntu-latest\n    env:\n      JOB_URL: https://github.com/o/r/issues/7\n    steps:\n      - env:\n          PR_URL: ${{ github.event.pull_request.html_url }}\n          PR: ${{ github.event.pull_request.number }}\n          SHADOWED: ${{ github.event.pull_request.number }}\n        run: gh pr merge --auto \"$PR_URL\"\n")
	if f.Rejected != nil {
		t.Fatal(f.Rejected)
	}
	j := f.Jobs[0]
	got := URLVars(f, j, j.Steps[0])
	for name, want := range map[string]bool{"PR_URL": true, "WF_URL": true, "JOB_URL": true, "PR": false, "SHADOWED": false} {
		if got[name] != want {
			t.Errorf("URLVars[%s] = %v, want %v", name, got[name], want)
		}
	}
	for line, want := range map[string]bool{
		`gh pr merge --auto "$PR_URL"`:         true,
		`gh pr merge --auto ${PR_URL}`:         true,
		`gh issue edit $JOB_URL --add-label x`: true,
		`gh pr merge --auto "$PR"`:             false,
		`gh pr merge --auto "$UNSET"`:          false,
		`gh pr merge --auto "$PR_URL$PR"`:      false,
		`gh pr review --approve "$PR_URL"`:     true,
		`gh pr review -r "$PR_URL"`:            true,
		`gh pr review --body "$PR_URL"`:        false, // the body, then no operand
	} {
		if named := namesRepoIn(line, got); named != want {
			t.Errorf("namesRepoIn(%q) = %v, want %v", line, named, want)
		}
	}
}
