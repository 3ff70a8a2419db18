package workflow

import (
	"reflect"
	"testing"
)

// The names a step's body starts with: its own env:, the job's, the
// workflow's, each once, in that order; an action's step has its own.
func TestEnvNames(t *testing.T) {
	f := read("on: push\nenv: {W: 1, J: 0}\njobs:\n  a:\n    runs-on: x\n    env: {J: 1, S: 0}\n    steps:\n      - run: echo\n        env: {S: 1}\n      - run: echo\n")
	runs, err := Extract(f)
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	if got := runs[0].EnvNames(); !reflect.DeepEqual(got, []string{"S", "J", "W"}) {
		t.Errorf("first step: %q", got)
	}
	if got := runs[1].EnvNames(); !reflect.DeepEqual(got, []string{"J", "S", "W"}) {
		t.Errorf("second step: %q", got)
	}
	act := read("runs:\n  using: composite\n  steps:\n    - run: echo\n      shell: bash\n      env: {A: 1}\n")
	runs, err = Extract(act)
	if err != nil || len(runs) != 1 {
		t.Fatalf("action: %d runs, %v", len(runs), err)
	}
	if got := runs[0].EnvNames(); !reflect.DeepEqual(got, []string{"A"}) {
		t.Errorf("action step: %q", got)
	}
	if got := (&Run{}).EnvNames(); got != nil {
		t.Errorf("a run of no step: %q", got)
	}
	if got := (&Run{Job: &Job{}}).EnvNames(); got != nil {
		t.Errorf("a job read from no file: %q", got)
	}
}

// Names earlier steps of the job write to $GITHUB_ENV, each once; the
// step's own and later steps' writes set nothing for it.
func TestGitHubEnvNames(t *testing.T) {
	f := read("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n" +
		"      - run: |\n          echo \"A=1\" >> \"$GITHUB_ENV\"\n          printf -v 'B=2' >> ${GITHUB_ENV}\n          echo \"A=3\" >> $GITHUB_ENV\n          echo C=1 > out\n" +
		"      - uses: x/y@v1\n" +
		"      - run: [not, a, string]\n" +
		"      - run: echo \"D=1\" >> $GITHUB_ENV\n" +
		"      - run: echo \"E=1\" >> $GITHUB_ENV\n")
	runs, err := Extract(f)
	if err != nil {
		t.Fatal(err)
	}
	var last *Run
	for _, r := range runs {
		if r.Step.Index == 4 {
			last = r
		}
	}
	if last == nil {
		t.Fatalf("no run of the last step in %d runs", len(runs))
	}
	if got := last.GitHubEnvNames(); !reflect.DeepEqual(got, []string{"A", "B", "D"}) {
		t.Errorf("names %q, want A B D", got)
	}
	if got := runs[0].GitHubEnvNames(); got != nil {
		t.Errorf("the first step sees %q", got)
	}
	if got := (&Run{Job: f.Jobs[0]}).GitHubEnvNames(); got != nil {
		t.Errorf("a run of no step sees %q", got)
	}
}
