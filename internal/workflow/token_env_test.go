package workflow

import "testing"

// TestCallOnOtherToken holds where the walk finds the token a gh call
// runs on: the env ladder, an assignment before the call, and an export
// earlier in the body.
func TestCallOnOtherToken(t *testing.T) {
	cases := []struct {
		name, job string
		want      []bool
	}{
		{"no token set", "      - run: gh pr list\n", []bool{false}},
		{"step env PAT", "      - run: gh pr list\n        env:\n          GH_TOKEN: ${{ secrets.PAT }}\n", []bool{true}},
		{"assignment before the call", "      - run: GH_TOKEN=${{ secrets.PAT }} gh pr list; gh issue list\n", []bool{true, false}},
		{"env wrapper assignment", "      - run: env GITHUB_TOKEN=\"${{ secrets.BOT }}\" gh pr list\n", []bool{true}},
		{"assignment of the GitHub token", "      - run: GH_TOKEN=${{ github.token }} gh pr list\n        env:\n          GH_TOKEN: ${{ secrets.PAT }}\n", []bool{false}},
		{"export covers the later calls", "      - run: |\n          gh auth status\n          export GH_TOKEN=\"${{ steps.app.outputs.token }}\"\n          gh pr create --fill\n          gh pr merge --auto\n", []bool{false, true, true}},
		{"login with another token", "      - run: |\n          echo ${TOKEN} | gh auth login --with-token\n          gh api /repos/o/r/issues/1/events\n        env:\n          TOKEN: ${{ secrets.APPROVER }}\n", []bool{true, true}},
		{"login carries to a later step", "      - run: gh auth login --with-token <<< \"$T\"\n        env:\n          T: ${{ secrets.APPROVER }}\n      - run: gh pr review --approve 1\n", []bool{true, true}},
		{"login with the GitHub token", "      - run: |\n          echo \"${{ github.token }}\" | gh auth login --with-token\n          gh pr list\n", []bool{false, false}},
		{"login with a name no env sets", "      - run: |\n          echo $T | gh auth login --with-token\n          gh pr list\n", []bool{false, false}},
		{"env over a stored login", "      - run: echo $T | gh auth login --with-token\n        env:\n          T: ${{ secrets.APPROVER }}\n      - run: gh pr list\n        env:\n          GH_TOKEN: ${{ github.token }}\n", []bool{true, false}},
		{"a literal export is no other token", "      - run: |\n          export GH_TOKEN=abc\n          gh pr list\n        env:\n          GH_TOKEN: ${{ secrets.PAT }}\n", []bool{false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := read("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n" + tc.job)
			if f.Rejected != nil {
				t.Fatal(f.Rejected)
			}
			got := Walk(f, WalkOptions{}).Jobs[0].CallOther
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("got %v, want %v", got, tc.want)
					break
				}
			}
		})
	}
}
