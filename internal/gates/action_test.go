package gates

import (
	"os"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/gate/gatetest"
)

// actionKnobs are the knobs every check-action-* member reads, at their
// table defaults.
func actionKnobs(extra map[string]string) gatetest.Knobs {
	k := gatetest.Knobs{"GATE_SDK_PRUNE_DIRS": "target .git node_modules .tmp gate-tests worktrees"}
	for n, v := range extra {
		k[n] = v
	}
	return k
}

// runAction runs an action gate over an in-memory tree. env carries the
// test process's PATH unless the caller sets one.
func runAction(t *testing.T, rule gate.Rule, name string, files map[string]string, knobs map[string]string, env map[string]string, args ...string) gatetest.Run {
	t.Helper()
	if env == nil {
		env = map[string]string{"PATH": os.Getenv("PATH")}
	}
	dir := t.TempDir()
	// The action gates walk the filesystem and read the snapshot only for
	// index modes, so the tree is put on the disk too.
	writeFiles(t, dir, files)
	return gatetest.ExecScratch(rule, name, dir, t.TempDir(), &gatetest.Tree{Data: files}, actionKnobs(knobs), env, args...)
}

// wf wraps jobs text into a workflow file.
func wf(body string) string {
	return "name: t\non: push\n" + body
}

type actionCase struct {
	name  string
	files map[string]string
	knobs map[string]string
	code  int
	want  []string // substrings of stdout (code 0/1) or stderr (code 2)
	not   []string // substrings stdout must not carry
}

func runActionCases(t *testing.T, rule gate.Rule, gateName string, cases []actionCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := runAction(t, rule, gateName, tc.files, tc.knobs, nil)
			if run.Code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", run.Code, tc.code, run.Stdout, run.Stderr)
			}
			out := run.Stdout
			if tc.code == gate.Refused {
				out = run.Stderr
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(run.Stdout, w) {
					t.Errorf("stdout carries %q:\n%s", w, run.Stdout)
				}
			}
			switch tc.code {
			case gate.Clean:
				if !strings.HasPrefix(run.Stdout, gate.ID(gateName)+": clean (") || strings.Count(run.Stdout, "\n") != 1 {
					t.Errorf("clean run must print exactly the clean line:\n%s", run.Stdout)
				}
			case gate.Failed:
				if !strings.Contains(run.Stdout, "\nhelp: ") {
					t.Errorf("failing run prints no help line:\n%s", run.Stdout)
				}
			}
		})
	}
}

const sha = "11bd71901bbe5b1630ceea73d27597364c9af683"

func TestCheckActionPinning(t *testing.T) {
	job := func(steps string) map[string]string {
		return map[string]string{".github/workflows/ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n" + steps)}
	}
	runActionCases(t, checkActionPinning, "check-action-pinning", []actionCase{
		{name: "sha with tag comment", files: job("      - uses: actions/checkout@" + sha + " # v4.2.2\n"), code: 0,
			want: []string{"1 uses: ref pinned across 1 YAML file"}},
		{name: "local path", files: job("      - uses: ./.github/actions/x\n"), code: 0},
		{name: "self-repository reference", files: map[string]string{".github/workflows/ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: $/.github/actions/x\n  c:\n    uses: $/.github/workflows/reusable.yml\n")}, code: 0,
			want: []string{"2 uses: refs pinned across 1 YAML file"}},
		{name: "quoted sha", files: job("      - uses: 'actions/checkout@" + sha + "'\n"), code: 0},
		{name: "docker digest", files: job("      - uses: docker://alpine@sha256:" + strings.Repeat("ab", 32) + "\n"), code: 0},
		{name: "tag", files: job("      - uses: actions/checkout@v4\n"), code: 1,
			want: []string{".github/workflows/ci.yml:7: uses: actions/checkout@v4 is pinned to @v4, not a 40-hex commit SHA", "help: pin each", "$/path"},
			not:  []string{"./ path instead"}},
		{name: "branch", files: job("      - uses: actions/checkout@main\n"), code: 1, want: []string{"@main"}},
		{name: "short sha", files: job("      - uses: actions/checkout@11bd719\n"), code: 1, want: []string{"@11bd719"}},
		{name: "no ref", files: job("      - uses: actions/checkout\n"), code: 1, want: []string{"has no @<commit-sha>"}},
		{name: "a vendored project's own CI is not this repository's", files: map[string]string{
			".github/workflows/ci.yml":                 wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@" + sha + "\n"),
			"third_party/lib/.github/workflows/ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"),
		}, code: 0, want: []string{"1 file of a nested project's .github/ skipped (GitHub loads only the top one)"}},
		{name: "a nested action this repository runs is read", files: map[string]string{
			".github/workflows/ci.yml":                         wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./third_party/lib/.github/actions/setup\n"),
			"third_party/lib/.github/actions/setup/action.yml": "name: setup\nruns:\n  using: composite\n  steps:\n    - uses: actions/checkout@v4\n",
		}, code: 1, want: []string{"third_party/lib/.github/actions/setup/action.yml:5: uses: actions/checkout@v4 is pinned to @v4"}},
		{name: "a CodeQL config's built-in suite is no ref", files: map[string]string{".github/codeql/codeql-config.yml": "name: cfg\nqueries:\n  - uses: security-and-quality\n"}, code: 0},
		{name: "a CodeQL config's remote pack by a branch", files: map[string]string{".github/codeql/codeql-config.yml": "name: cfg\nqueries:\n  - uses: o/queries/suite.qls@main\n"}, code: 1,
			want: []string{"codeql-config.yml:3: uses: o/queries/suite.qls@main is pinned to @main"}},
		{name: "a bare word in a workflow", files: job("      - uses: checkout\n"), code: 1, want: []string{"uses: checkout has no @<commit-sha>"}},
		{name: "docker tag", files: job("      - uses: docker://alpine:3.19\n"), code: 1, want: []string{"digest"}},
		{name: "commented-out step", files: job("      - uses: ./.github/actions/x\n      # - uses: actions/cache@v4\n"), code: 1,
			want: []string{"ci.yml:8: uses: actions/cache@v4", "commented-out"}},
		{name: "reusable workflow call", files: map[string]string{"ci.yml": wf("jobs:\n  call:\n    uses: o/r/.github/workflows/ci.yml@v1\n")}, code: 1,
			want: []string{"ci.yml:5: uses: o/r/.github/workflows/ci.yml@v1"}},
		{name: "any yaml, templates included", files: map[string]string{"templates/x.yml": "- uses: a/b@v1\n"}, code: 1,
			want: []string{"templates/x.yml:1: uses: a/b@v1"}},
		{name: "pruned fixture tree", files: map[string]string{"kit/gate-tests/g/bad/x.yml": "- uses: a/b@v1\n"}, code: 0},
		{name: "uses: inside a run block is shell", files: job("      - run: |\n          echo 'uses: a/b@v1'\n          uses: x@y\n"), code: 0},
		{name: "no yaml", files: map[string]string{"README.md": "hi\n"}, code: 0, want: []string{"no YAML file under ."}},
	})
}

func TestCheckActionRunShell(t *testing.T) {
	ubuntu := func(steps string) map[string]string {
		return map[string]string{".github/workflows/ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n" + steps)}
	}
	on := func(runsOn, steps string) map[string]string {
		return map[string]string{"ci.yml": wf("jobs:\n  b:\n    runs-on: " + runsOn + "\n    steps:\n" + steps)}
	}
	matrix := func(oses, more, steps string) map[string]string {
		return map[string]string{"ci.yml": wf("jobs:\n  b:\n    runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: " + oses + "\n" + more + "    steps:\n" + steps)}
	}
	runActionCases(t, checkActionRunShell, "check-action-run-shell", []actionCase{
		{name: "cd in a default step runs under -e", files: ubuntu("      - run: |\n          cd build\n"), code: 0},
		{name: "cd under a template without -e", files: ubuntu("      - shell: bash {0}\n        run: |\n          cd build\n"), code: 1,
			want: []string{".github/workflows/ci.yml:9:11: run: block (bash): warning: ", "[SC2164]", "help: fix each listed ShellCheck"}},
		{name: "unquoted substitution", files: ubuntu("      - run: |\n          echo $(ls)\n"), code: 1,
			want: []string{".github/workflows/ci.yml:8:16: run: block (bash -e): warning: Quote this to prevent word splitting. [SC2046]"}},
		{name: "template options read", files: ubuntu("      - shell: bash -x -o pipefail -e {0}\n        run: |\n          echo $(ls)\n"), code: 1,
			want: []string{"run: block (bash -xeo pipefail)"}},
		{name: "a finding on the options is placed at run:", files: ubuntu("      - shell: sh -o pipefail {0}\n        run: |\n          echo hi\n"), code: 1,
			want: []string{"ci.yml:8: run: block (sh -o pipefail): warning: In POSIX sh, set option pipefail is undefined. [SC3040]"}},
		{name: "a #! first line is a comment", files: ubuntu("      - shell: bash\n        run: |\n          #!/usr/bin/env bash\n          echo hi\n"), code: 0},
		{name: "info is below the threshold", files: ubuntu("      - run: |\n          echo $HOME\n"), code: 0,
			want: []string{"1 run: block and 0 single-line run: values linted in 1 Actions file"}},
		{name: "sh dialect", files: ubuntu("      - shell: sh\n        run: |\n          [[ -n \"$X\" ]] && echo y\n"), code: 1,
			want: []string{"ci.yml:9:11: run: block (sh -e)", "SC3010"}},
		{name: "shell after run", files: ubuntu("      - run: |\n          [[ -n \"$X\" ]] && echo y\n        shell: sh\n"), code: 1,
			want: []string{"SC3010"}},
		{name: "sibling env is not body", files: ubuntu("      - run: |\n          echo \"$V\"\n        env:\n          V: 1\n"), code: 0},
		{name: "a lower-case name unset anywhere is SC2154", files: ubuntu("      - run: |\n          echo \"$version\"\n"), code: 1,
			want: []string{"ci.yml:8:17: run: block (bash -e): warning: version is referenced but not assigned. [SC2154]"}},
		{name: "names the step's env sets are assigned", files: ubuntu("      - run: |\n          echo \"$version\"\n        env:\n          version: ${{ github.ref_name }}\n"), code: 0},
		{name: "names the job's and the workflow's env set are assigned", files: map[string]string{"ci.yml": wf("env:\n  node_version: '22'\njobs:\n  b:\n    runs-on: ubuntu-latest\n    env:\n      target_dir: dist\n    steps:\n      - run: |\n          echo \"$node_version\" \"$target_dir\"\n      - run: echo \"$node_version\"\n")}, code: 0},
		{name: "another job's env is not in scope", files: map[string]string{"ci.yml": wf("jobs:\n  a:\n    runs-on: ubuntu-latest\n    env:\n      target_dir: dist\n    steps:\n      - run: echo\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo \"$target_dir\"\n")}, code: 1,
			want: []string{"target_dir is referenced but not assigned"}},
		{name: "a name an earlier step writes to $GITHUB_ENV is assigned", files: ubuntu("      - run: |\n          bundle=$(ls dist | head -n1)\n          echo \"bundle=$bundle\" >> \"$GITHUB_ENV\"\n      - run: |\n          tar -tzf \"dist/$bundle\"\n"), code: 0},
		{name: "a name a later step writes to $GITHUB_ENV is not assigned yet", files: ubuntu("      - run: |\n          tar -tzf \"dist/$bundle\"\n      - run: |\n          echo \"bundle=x\" >> $GITHUB_ENV\n"), code: 1,
			want: []string{"bundle is referenced but not assigned"}},
		{name: "another job's $GITHUB_ENV is not in scope", files: map[string]string{"ci.yml": wf("jobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo \"bundle=x\" >> $GITHUB_ENV\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo \"$bundle\"\n")}, code: 1,
			want: []string{"bundle is referenced but not assigned"}},
		{name: "the hosted runner's ImageOS is assigned", files: ubuntu("      - run: |\n          echo \"cache-${ImageOS}-${ImageVersion}\"\n"), code: 0},
		{name: "a composite step's env is assigned", files: map[string]string{"action.yml": "name: a\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      env:\n        input_path: ${{ inputs.path }}\n      run: |\n        ls -- \"$input_path\"\n"}, code: 0},
		{name: "expressions are opaque", files: ubuntu("      - run: |\n          if [ ${{ github.event_name }} = push ]; then echo y; fi\n          case ${{ matrix.os }} in x) echo;; esac\n"), code: 0},
		{name: "single line linted under -e", files: ubuntu("      - run: cd build\n"), code: 0, want: []string{"0 run: blocks and 1 single-line run: value linted"}},
		{name: "single line finding", files: ubuntu("      - run: echo $(ls)\n"), code: 1,
			want: []string{"ci.yml:7:19: run: value (bash -e): warning: Quote this to prevent word splitting. [SC2046]"}},
		{name: "quoted single line", files: ubuntu("      - run: 'echo $(ls)'\n"), code: 1, want: []string{"ci.yml:7:20: run: value (bash -e)"}},
		{name: "escaped single line has no column", files: ubuntu("      - run: \"echo \\\"x\\\" $(ls)\"\n"), code: 1, want: []string{"ci.yml:7: run: value (bash -e): warning: Quote this"}},
		{name: "one command on Windows runs under the pwsh it was written for", files: on("windows-latest", "      - run: dir\n      - run: |\n          gci -path .\\dist -recurse\n"), code: 0,
			want: []string{"2 PowerShell bodies on a Windows runner not linted"}},
		{name: "a PowerShell call operator and a regex's $ on Windows", files: on("windows-latest", "      - run: |\n          & ${{ github.workspace }}\\scripts\\ports.ps1\n      - run: |\n          go test -run ^TestService$ -v\n"), code: 0,
			want: []string{"2 PowerShell bodies on a Windows runner not linted"}},
		{name: "one command reading a bash variable on Windows", files: on("windows-latest", "      - run: echo \"v=$(cat .go-version)\" >> \"$GITHUB_OUTPUT\"\n"), code: 1, want: []string{"ci.yml:7: run: value has no shell: and the job runs on Windows"}},
		{name: "two commands on one line on Windows", files: on("windows-latest", "      - run: choco install ninja; ccache -o dir=x\n"), code: 1, want: []string{"ci.yml:7: run: value has no shell: and the job runs on Windows"}},
		{name: "windows without shell", files: on("windows-latest", "      - run: |\n          make\n          make test\n"), code: 1,
			want: []string{"ci.yml:7: run: block has no shell: and the job runs on Windows", "help: state the step's shell"}},
		{name: "windows with shell bash is linted", files: on("windows-latest", "      - shell: bash\n        run: |\n          echo $(ls)\n"), code: 1, want: []string{"run: block (bash -eo pipefail)", "SC2046"}},
		{name: "windows with pwsh is skipped", files: on("windows-latest", "      - shell: pwsh\n        run: |\n          cd x\n"), code: 0,
			want: []string{"1 non-shell block skipped"}},
		{name: "matrix runner", files: on("${{ matrix.os }}", "      - run: |\n          make\n          make test\n"), code: 1, want: []string{"runs-on: is a GitHub expression"}},
		{name: "matrix with no Windows entry is linted", files: matrix("[ubuntu-latest, macos-14]", "", "      - run: |\n          echo $(ls)\n"), code: 1,
			want: []string{"ci.yml:11:16: run: block (bash -e): warning: Quote this", "SC2046"}, not: []string{"has no shell:"}},
		{name: "exclude drops the Windows entry", files: matrix("[ubuntu-latest, windows-latest]", "        exclude:\n          - os: windows-latest\n", "      - run: |\n          echo hi\n"), code: 0,
			want: []string{"1 run: block and 0 single-line run: values linted"}},
		{name: "include adds a Windows entry", files: matrix("[ubuntu-latest]", "        include:\n          - os: windows-latest\n", "      - run: |\n          make\n          make test\n"), code: 1,
			want: []string{"run: block has no shell: and runs-on: takes Windows and non-Windows runners from the matrix"}},
		{name: "if: pins Linux on a mixed matrix", files: matrix("[ubuntu-latest, windows-latest]", "", "      - if: runner.os == 'Linux'\n        run: |\n          echo $(ls)\n"), code: 1,
			want: []string{"SC2046"}, not: []string{"has no shell:"}},
		{name: "if: drops the Windows matrix entry", files: matrix("[ubuntu-latest, windows-latest]", "", "      - if: matrix.os != 'windows-latest'\n        run: |\n          tar -czf out.tgz dist\n          ls -l out.tgz\n"), code: 0},
		{name: "one plain command runs alike in every shell", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: npm test -- --ci\n      - run: |\n          cargo build --release --target ${{ matrix.target }}\n"), code: 0,
			want: []string{"2 one-command bodies every shell runs alike not linted"}},
		{name: "one plain command on Windows", files: on("windows-latest", "      - run: go test ./...\n"), code: 0,
			want: []string{"1 one-command body every shell runs alike not linted"}},
		{name: "a comment line beside one plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          # fetch the modules first\n          go mod download -x\n          # go mod verify\n"), code: 0,
			want: []string{"1 one-command body every shell runs alike not linted"}},
		{name: "a version after @ inside a word is plain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          go install golang.org/x/tools/cmd/stringer@v0.30.0\n"), code: 0,
			want: []string{"1 one-command body every shell runs alike not linted"}},
		{name: "a word opening with @ is PowerShell splatting, no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: tool @args\n"), code: 1,
			want: []string{"runs-on: takes Windows and non-Windows runners from the matrix"}},
		{name: "a PowerShell body on a Windows job needs no shell:", files: on("windows-latest", "      - run: |\n          $zips = Get-ChildItem . -Filter *.zip\n          foreach ($z in $zips) {\n            Expand-Archive $z.FullName -DestinationPath out\n          }\n"), code: 0,
			want: []string{"1 PowerShell body on a Windows runner not linted"}},
		{name: "a PowerShell body on a mixed matrix still states its shell", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          $zips = Get-ChildItem . -Filter *.zip\n          Write-Host $zips.Count\n"), code: 1,
			want: []string{"runs-on: takes Windows and non-Windows runners from the matrix"}},
		{name: "a POSIX body on a Windows job still states its shell", files: on("windows-latest", "      - run: |\n          make build\n          make test\n"), code: 1,
			want: []string{"run: block has no shell: and the job runs on Windows"}},
		{name: "two commands are no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          npm ci\n          npm test\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "a PowerShell alias is no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: ls -la\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "an expression as the command word is no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: ${{ matrix.os }} --version\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "shell syntax is no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: make test > log.txt\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "quoted words holding no expansion are plain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: go build -ldflags=\"-s -w\" -o bin/ ./cmd/tool\n      - run: tool run --banner '{{.Name}} ready' --trailer '::done::'\n"), code: 0,
			want: []string{"2 one-command bodies every shell runs alike not linted"}},
		{name: "plain commands chained by && are plain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: go vet ./... && go test -short ./...\n      - run: cd tools && go build ./...\n"), code: 0,
			want: []string{"2 one-command bodies every shell runs alike not linted"}},
		{name: "a double-quoted word holding $ is no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: go build -o \"$HOME/bin\" ./...\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "a quoted command word is no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: \"'go' build ./...\"\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "a word opening with a quote and going on is no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: tool 'a b'c\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "an empty quoted word is no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: tool --prefix ''\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "a quoted stretch holding a backslash or a quote is no plain command", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: tool 'C:\\out dir\\'\n      - run: tool --say 'a \"b\"'\n"), code: 1,
			want: []string{"ci.yml:10: run: value has no shell:", "ci.yml:11: run: value has no shell:"}},
		{name: "an echo of literal words and one command are plain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          echo \"::add-matcher::.github/matcher.json\"\n          ./tool -color\n"), code: 0},
		{name: "an echo of a quoted sentence and exit 1 are plain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          echo \"Lint failed, running 'make fix' may help\"\n          exit 1\n"), code: 0},
		{name: "an echo of a double-quoted $ is no literal", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          echo \"cost: $5\"\n          exit 1\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "echoes of a plain command's output are plain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          echo \"Node.js version: $(node -v)\"\n          echo \"npm version: $(npm -v)\"\n"), code: 0},
		{name: "an echo of a substitution beside a variable is no literal", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          echo \"$(node -v) in $HOME\"\n          make\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "an echo of a piped substitution is no literal", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          echo \"$(node -v | cut -c2-)\"\n          make\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "echoes alone are plain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: 'echo \"No test required\"'\n"), code: 0},
		{name: "an echo expanding a variable is no literal", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          echo \"$HOME\"\n          make\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "an echo with an option is no literal", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          echo -n ready\n          make\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "an echo and two commands are not plain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: |\n          echo building\n          make\n          make test\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "|| is no plain chain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: make lint || true\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "cd to an unplain place is no plain chain", files: matrix("[ubuntu-latest, windows-latest]", "", "      - run: cd ~ && make\n"), code: 1,
			want: []string{"has no shell:"}},
		{name: "the unread variable of a loop over literal numbers is a retry count", files: ubuntu("      - run: |\n          for attempt in 1 2 3 4; do\n            curl -fsS https://example.test/ready && break\n            sleep 3\n          done\n"), code: 0},
		{name: "the unread variable of a loop over words is still SC2034", files: ubuntu("      - run: |\n          for mirror in eu us; do\n            curl -fsS https://example.test/ready && break\n          done\n"), code: 1,
			want: []string{"mirror appears unused", "SC2034"}},
		{name: "group only, read by its name", files: on("{group: big}", "      - run: |\n          echo hi\n          echo bye\n"), code: 0},
		{name: "a Windows group", files: on("{group: Windows-Builders}", "      - run: |\n          make\n          make test\n"), code: 1, want: []string{"runs on Windows"}},
		{name: "no label at all", files: on("[]", "      - run: |\n          make\n          make test\n"), code: 1, want: []string{"names no runner label"}},
		{name: "labelled windows", files: on("[self-hosted, \"Windows\"]", "      - run: |\n          make\n          make test\n"), code: 1, want: []string{"Windows"}},
		{name: "win- is not windows", files: on("[self-hosted, win-2022]", "      - run: |\n          echo hi\n"), code: 0},
		{name: "runs-on after steps", files: map[string]string{"ci.yml": wf("jobs:\n  b:\n    steps:\n      - run: |\n          echo $(ls)\n    runs-on: ubuntu-latest\n")}, code: 1,
			want: []string{"SC2046"}},
		{name: "action step without shell", files: map[string]string{"action.yml": "name: a\nruns:\n  using: composite\n  steps:\n    - run: |\n        echo hi\n"}, code: 1,
			want: []string{"action.yml:5: run: block has no shell: and the step has no enclosing job"}},
		{name: "chomping indicators read", files: ubuntu("      - run: |-\n          echo $(ls)\n      - run: |+\n          echo $(ls)\n"), code: 1, want: []string{"ci.yml:8:", "ci.yml:10:"}},
		{name: "heredoc holding run: |", files: ubuntu("      - run: |\n          cat <<'EOF'\n          run: |\n            cd x\n          EOF\n"), code: 0},
		{name: "folded read", files: ubuntu("      - run: >-\n          echo hi\n"), code: 0, want: []string{"1 run: block and 0 single-line run: values linted"}},
		{name: "folded finding on its own line", files: ubuntu("      - run: >\n          echo hi\n\n          [[ -n \"$X\" ]]\n        shell: sh\n"), code: 1,
			want: []string{"ci.yml:10:11: run: block (sh -e):", "SC3010"}},
		{name: "indicator read", files: ubuntu("      - run: |2\n            echo hi\n"), code: 0, want: []string{"1 run: block and 0 single-line run: values linted"}},
		{name: "alias read", files: ubuntu("      - run: &body echo hi\n      - run: *body\n"), code: 0, want: []string{"0 run: blocks and 2 single-line run: values linted"}},
		{name: "unknown alias is the parser's finding", files: ubuntu("      - run: *anchor\n"), code: 1, want: []string{"ci.yml:7: cannot read the file as YAML: the parser says unknown anchor"}},
		{name: "unbalanced expression is the file's finding", files: ubuntu("      - run: |\n          echo ${{ github.sha\n"), code: 1, want: []string{"ci.yml:8: cannot read an unbalanced ${{"}},
		{name: "workflow defaults shell read", files: map[string]string{"ci.yml": wf("defaults:\n  run:\n    shell: pwsh\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          cd x\n")}, code: 0,
			want: []string{"1 non-shell block skipped"}},
		{name: "job defaults shell over the workflow's", files: map[string]string{"ci.yml": wf("defaults:\n  run:\n    shell: pwsh\njobs:\n  b:\n    runs-on: windows-latest\n    defaults:\n      run:\n        shell: sh\n    steps:\n      - run: |\n          [[ -n \"$X\" ]] && echo y\n")}, code: 1,
			want: []string{"run: block (sh -e)", "SC3010"}},
		{name: "step shell over the defaults", files: map[string]string{"ci.yml": wf("defaults:\n  run:\n    shell: pwsh\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - shell: bash\n        run: |\n          echo $(ls)\n")}, code: 1,
			want: []string{"run: block (bash -eo pipefail)", "SC2046"}},
		{name: "defaults shell expression read", files: map[string]string{"ci.yml": wf("defaults:\n  run:\n    shell: ${{ inputs.shell }}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo\n")}, code: 0,
			want: []string{"1 non-shell block skipped"}},
		{name: "defaults shell mapping is the file's finding", files: map[string]string{".github/workflows/ci.yml": wf("defaults:\n  run:\n    shell: {a: b}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo\n")}, code: 1,
			want: []string{"ci.yml:5: cannot read a defaults.run.shell that is not a string"}},
		{name: "job defaults working directory read", files: map[string]string{"ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: x\n    steps:\n      - run: echo\n")}, code: 0},
		{name: "other defaults read", files: map[string]string{"ci.yml": wf("defaults:\n  other: 1\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo\n")}, code: 0},
		{name: "circleci is outside the subject", files: map[string]string{".circleci/config.yml": "version: 2.1\njobs:\n  b:\n    steps:\n      - run: |\n          cd x\n"}, code: 0,
			want: []string{"1 YAML file outside the Actions shape"}},
		{name: "refusal outside the subject is none", files: map[string]string{"other.yml": "x:\n  run: >-\n    a\n"}, code: 0},
		{name: "no yaml", files: map[string]string{}, code: 0, want: []string{"no YAML file under ."}},
	})
}

func TestCheckActionRunShellNoShellcheck(t *testing.T) {
	files := map[string]string{"ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo hi\n")}
	run := runAction(t, checkActionRunShell, "check-action-run-shell", files, nil, map[string]string{"PATH": t.TempDir()})
	if run.Code != gate.Refused || !strings.Contains(run.Stderr, "shellcheck is not on PATH") || run.Stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 naming shellcheck", run.Code, run.Stdout, run.Stderr)
	}
	// With nothing to lint the probe has nothing to guard.
	files["ci.yml"] = wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - shell: pwsh\n        run: echo hi\n")
	if run := runAction(t, checkActionRunShell, "check-action-run-shell", files, nil, map[string]string{"PATH": t.TempDir()}); run.Code != 0 {
		t.Fatalf("exit %d without a block to lint: %s%s", run.Code, run.Stdout, run.Stderr)
	}
}

func TestCheckActionRunPath(t *testing.T) {
	base := map[string]string{"scripts/build.sh": "#!/bin/sh\n", "tools/gen/x.sh": "#!/bin/sh\n"}
	with := func(steps string) map[string]string {
		m := map[string]string{"ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n" + steps)}
		for k, v := range base {
			m[k] = v
		}
		return m
	}
	runActionCases(t, checkActionRunPath, "check-action-run-path", []actionCase{
		{name: "resolves", files: with("      - run: scripts/build.sh --fast\n"), code: 0, want: []string{"1 run: body read, 1 invocation resolved"}},
		{name: "dot slash gone", files: with("      - run: ./scripts/gone.sh\n"), code: 1,
			want: []string{"ci.yml:7: run: invokes ./scripts/gone.sh, which does not resolve under .", "help: repoint"}},
		{name: "bash flag", files: with("      - run: bash -e scripts/gone.sh\n"), code: 1, want: []string{"invokes scripts/gone.sh"}},
		{name: "after &&", files: with("      - run: make && scripts/gone.sh\n"), code: 1, want: []string{"invokes scripts/gone.sh"}},
		{name: "single quoted", files: with("      - run: 'scripts/gone.sh'\n"), code: 1, want: []string{"invokes scripts/gone.sh"}},
		{name: "double quoted", files: with("      - run: \"scripts/gone.sh\"\n"), code: 1, want: []string{"invokes scripts/gone.sh"}},
		{name: "block line", files: with("      - run: |\n          scripts/build.sh\n          scripts/gone.sh x\n"), code: 1, want: []string{"ci.yml:9: run: invokes scripts/gone.sh"}},
		{name: "not tokens", files: with("      - run: |\n          cp dist/a.sh out/gone.sh\n          \"$GITHUB_WORKSPACE\"/scripts/gone.sh\n          build.sh\n          scripts/build.sh # scripts/gone.sh\n          # scripts/gone.sh\n"), code: 0},
		{name: "a value decoded to two lines is read", files: with("      - run: \"echo a\\nscripts/gone.sh\"\n"), code: 1, want: []string{"ci.yml:7: run: invokes scripts/gone.sh"}},
		{name: "skipped forms", files: with("      - run: !!str scripts/gone.sh\n      - shell: pwsh\n        run: scripts/gone.sh\n      - run: /opt/gone.sh\n      - working-directory: ${{ inputs.d }}\n        run: scripts/gone.sh\n"), code: 0,
			want: []string{"1 non-shell step", "1 step with an unresolvable working-directory", "1 single-line value not read", "1 absolute path"}},
		{name: "windows unshelled skipped", files: map[string]string{"ci.yml": wf("jobs:\n  w:\n    runs-on: windows-latest\n    steps:\n      - run: scripts/gone.sh\n")}, code: 0,
			want: []string{"1 unshelled Windows step"}},
		{name: "working directory joined", files: with("      - working-directory: tools\n        run: gen/x.sh\n"), code: 0},
		{name: "working directory miss", files: with("      - working-directory: tools\n        run: gen/y.sh\n"), code: 1, want: []string{"invokes gen/y.sh (working-directory: tools)"}},
		{name: "extractor refusal outside .github/workflows skipped", files: with("      - run: |\n          echo ${{ x\n"), code: 0, want: []string{"1 unparseable YAML file skipped"}},
		{name: "extractor refusal in a workflow is its finding", files: map[string]string{".github/workflows/ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo ${{ x\n")}, code: 1,
			want: []string{".github/workflows/ci.yml:8: cannot read an unbalanced ${{"}},
		{name: "folded body read", files: with("      - run: >\n          echo start;\n          scripts/build.sh\n"), code: 0, want: []string{"1 run: body read, 1 invocation resolved"}},
		{name: "folded token on its own line", files: with("      - run: >\n          echo start;\n          scripts/gone.sh\n"), code: 1, want: []string{"ci.yml:9: run: invokes scripts/gone.sh"}},
	})
}

// release is the attested miss: a release job calling gh with no
// repository context.
const release = "jobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release create \"$TAG\" dist/*\n"

func TestCheckActionGhRepo(t *testing.T) {
	one := func(s string) map[string]string { return map[string]string{".github/workflows/release.yml": wf(s)} }
	runActionCases(t, checkActionGhRepo, "check-action-gh-repo", []actionCase{
		{name: "attested release job", files: one(release), code: 1,
			want: []string{".github/workflows/release.yml:7: job release calls gh with no repository context", "help: give the job a repository"}},
		{name: "checkout first", files: one("jobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@" + sha + "\n      - run: gh release create \"$TAG\" dist/*\n"), code: 0,
			want: []string{"1 job calling gh with a repository context"}},
		{name: "job env", files: one("jobs:\n  release:\n    runs-on: ubuntu-latest\n    env: {GH_REPO: \"${{ github.repository }}\"}\n    steps:\n      - run: gh release create \"$TAG\" dist/*\n"), code: 0},
		{name: "workflow env", files: one("env:\n  GH_REPO: ${{ github.repository }}\n" + release), code: 0},
		{name: "repo flag", files: one("jobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release create --repo \"$GITHUB_REPOSITORY\" \"$TAG\" dist/*\n"), code: 0},
		{name: "step env", files: one(release + "        env:\n          GH_REPO: ${{ github.repository }}\n"), code: 0},
		{name: "exempt job", files: one("jobs:\n  # gh-repo-exempt: hand-rolled clone\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release create \"$TAG\" dist/*\n"), code: 0,
			want: []string{"1 job exempt"}},
		{name: "an issue given by the event's URL", files: one("jobs:\n  triage:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh issue edit ${{ github.event.issue.html_url }} --remove-label needs-reply\n"), code: 0},
		{name: "an issue given by its number", files: one("jobs:\n  triage:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh issue edit ${{ github.event.issue.number }} --remove-label needs-reply\n"), code: 1,
			want: []string{"job triage calls gh with no repository context"}},
		{name: "checkout after the call", files: one(release + "      - uses: actions/checkout@" + sha + "\n"), code: 1, want: []string{"comes after the first gh call"}},
		{name: "a call reading no repository before the checkout", files: one("jobs:\n  backport:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo \"id=$(gh api \"/users/${SLUG}[bot]\" --jq .id)\" >> \"$GITHUB_OUTPUT\"\n      - uses: actions/checkout@" + sha + "\n      - run: gh pr view \"$PR\" --json title\n"), code: 0,
			want: []string{"1 job calling gh with a repository context"}},
		{name: "a call needing the repository before the checkout", files: one("jobs:\n  backport:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh api \"/users/${SLUG}[bot]\" --jq .id\n      - run: gh pr view \"$PR\" --json title\n      - uses: actions/checkout@" + sha + "\n"), code: 1,
			want: []string{".github/workflows/release.yml:8: job backport calls gh with no repository context: actions/checkout (line 9) comes after the first gh call that names no repository"}},
		{name: "arms do not pair", files: one("jobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh pr list\n        env:\n          GH_REPO: o/r\n      - run: gh pr view 1 --repo o/r\n"), code: 1,
			want: []string{"job release calls gh"}},
		{name: "repo on one call only", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh pr list --repo o/r; gh pr view 1\n"), code: 1},
		{name: "negated first call", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          if ! gh release view v1; then exit 0; fi\n      - uses: actions/checkout@" + sha + "\n      - run: gh release create v1\n"), code: 1,
			want: []string{"release.yml:8: job r"}},
		{name: "substitution", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: x=$(gh pr view --json number)\n"), code: 1},
		{name: "not gh", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo ghost\n          git push origin gh-pages\n          # gh release view\n"), code: 0,
			want: []string{"0 jobs calling gh with a repository context, 1 job without gh"}},
		{name: "over-detected trailing comment", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo hi # ; gh pr status\n"), code: 1},
		{name: "a YAML comment is no shell", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi # ; gh pr status\n"), code: 0},
		{name: "continuation carries --repo", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          gh release create \\\n            --repo o/r v1\n"), code: 0},
		{name: "folded block read", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: >\n          gh release view\n"), code: 1},
		{name: "folded block carries -R on a later line", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: >\n          gh release upload \"$TAG\" dist/*.tar.gz\n          --clobber\n          -R octo-org/lantern\n"), code: 0},
		{name: "folded block keeps a blank-line break", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: >\n          gh release upload v1 a.tgz\n\n          -R octo-org/lantern\n"), code: 1},
		{name: "continued command carries -R after a quoted pipe", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          gh pr list --json number \\\n            --jq '.[] | .number' \\\n            -R octo-org/lantern\n"), code: 0},
		{name: "explicit API path", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh api repos/octo-org/lantern/releases/latest --jq .tag_name\n"), code: 0,
			want: []string{"1 job calling gh with a repository context"}},
		{name: "API path with a placeholder", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh api repos/{owner}/{repo}/releases/latest\n"), code: 1},
		{name: "fork names its repository", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh repo fork octo-org/lantern --clone=false\n"), code: 0},
		{name: "step-bound marker drops that step", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      # gh-repo-exempt: uses its own clone\n      - run: gh pr list\n      - run: gh pr view 1\n"), code: 1,
			want: []string{"release.yml:9: job r"}},
		{name: "marker inside step keys", files: one("jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - name: x\n        # gh-repo-exempt: uses its own clone\n        run: gh pr list\n"), code: 0},
		{name: "bare marker", files: one("jobs:\n  # gh-repo-exempt:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release create \"$TAG\" dist/*\n"), code: 1,
			want: []string{"release.yml:4: # gh-repo-exempt: carries no reason", "help: write the reason after the marker", "help: give the job"}},
		{name: "action skipped", files: map[string]string{"action.yml": "runs:\n  using: composite\n  steps:\n    - run: gh release view\n      shell: bash\n"}, code: 0,
			want: []string{"1 action skipped"}},
	})
}

func TestCheckActionPermissions(t *testing.T) {
	co := "    steps:\n      - uses: actions/checkout@" + sha + "\n"
	one := func(s string) map[string]string { return map[string]string{"ci.yml": wf(s)} }
	runActionCases(t, checkActionPermissions, "check-action-permissions", []actionCase{
		{name: "workflow contents read", files: one("permissions: {contents: read}\njobs:\n  b:\n    runs-on: ubuntu-latest\n" + co), code: 0,
			want: []string{"1 armed job declare their scopes"}},
		{name: "no permissions with checkout", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n" + co), code: 1,
			want: []string{"ci.yml:4: job b checks out the repository and declares no contents: scope (no permissions: block anywhere, so its token takes the repository's default grant)", "help: give the job contents: read"},
			not:  []string{"no contents: read in scope"}},
		{name: "job block replaces", files: one("permissions:\n  contents: read\njobs:\n  b:\n    runs-on: ubuntu-latest\n    permissions:\n      id-token: write\n" + co), code: 1,
			want: []string{"its own permissions: block replaces the workflow's"}},
		{name: "empty job block", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    permissions: {}\n" + co), code: 1, want: []string{"job b checks out"}},
		{name: "contents none", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    permissions: {contents: none}\n" + co), code: 1},
		{name: "empty subtree", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    permissions:\n" + co), code: 1},
		{name: "read-all", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    permissions: read-all\n" + co), code: 0},
		{name: "gh without permissions", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release view v1\n"), code: 1,
			want: []string{"job b calls gh and declares no scope (no permissions: block anywhere, so its token takes the repository's default grant)", "help: declare what the job's token may do"},
			not:  []string{"no scope granted"}},
		{name: "gh with an empty block grants nothing", files: one("permissions: {}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release view v1\n"), code: 1,
			want: []string{"job b calls gh with no scope granted (from the workflow's permissions: block)"}},
		{name: "gh on a personal token in the step's env", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release create v1\n        env:\n          GH_TOKEN: ${{ secrets.RELEASE_PAT }}\n"), code: 0,
			want: []string{"0 armed jobs declare their scopes, 0 jobs inert", "1 job calls GitHub on another token"}},
		{name: "gh on a bot token as the job's GITHUB_TOKEN", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    env:\n      GITHUB_TOKEN: ${{ secrets.BOT_TOKEN }}\n    steps:\n      - run: gh pr merge --auto 1\n"), code: 0,
			want: []string{"1 job calls GitHub on another token"}},
		{name: "gh on an app token from the workflow's env", files: one("env:\n  GH_TOKEN: ${{ steps.app.outputs.token }}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh pr list\n"), code: 0},
		{name: "the step's GH_TOKEN beats the job's", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    env:\n      GH_TOKEN: ${{ secrets.PAT }}\n    steps:\n      - run: gh pr list\n        env:\n          GH_TOKEN: ${{ github.token }}\n"), code: 1,
			want: []string{"job b calls gh and declares no scope"}},
		{name: "GH_TOKEN beats GITHUB_TOKEN", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    env:\n      GITHUB_TOKEN: ${{ secrets.PAT }}\n      GH_TOKEN: ${{ github.token }}\n    steps:\n      - run: gh pr list\n"), code: 1},
		{name: "one call on the default token arms the job", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh pr list\n        env:\n          GH_TOKEN: ${{ secrets.PAT }}\n      - run: gh issue list\n"), code: 1,
			want: []string{"job b calls gh and declares no scope"}},
		{name: "gh on a token assigned in the body", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          export GH_TOKEN=\"${{ steps.app.outputs.token }}\"\n          gh pr create --fill\n          GH_TOKEN=${{ secrets.PAT }} gh pr merge --auto\n"), code: 0,
			want: []string{"1 job calls GitHub on another token"}},
		{name: "a literal GH_TOKEN is no other token", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh pr list\n        env:\n          GH_TOKEN: x\n"), code: 1},
		{name: "checkout on a deploy token", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@" + sha + "\n        with:\n          token: ${{ secrets.DEPLOY_PAT }}\n"), code: 0,
			want: []string{"1 job calls GitHub on another token"}},
		{name: "checkout on the GitHub token spelled out", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@" + sha + "\n        with:\n          token: ${{ github.token }}\n"), code: 1},
		{name: "gh with a declaration", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    permissions: {pull-requests: write}\n    steps:\n      - run: gh release view v1\n"), code: 0},
		{name: "token in env", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    env: {T: \"${{ secrets.GITHUB_TOKEN }}\"}\n    steps:\n      - run: echo\n"), code: 1,
			want: []string{"references the GitHub token"}},
		{name: "token in a comment", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    # github.token\n    steps:\n      - run: echo\n"), code: 1},
		{name: "other secret is inert", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    env: {T: \"${{ secrets.NPM_TOKEN }}\"}\n    steps:\n      - run: echo\n"), code: 0,
			want: []string{"0 armed jobs declare their scopes, 1 job inert"}},
		{name: "reusable call by token", files: one("jobs:\n  c:\n    uses: ./.github/workflows/x.yml\n    with:\n      t: ${{ github.token }}\n"), code: 1},
		{name: "exempt step drops evidence", files: one("permissions: {}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      # action-permissions-exempt: a public mirror\n      - uses: actions/checkout@" + sha + "\n"), code: 0},
		{name: "bare marker", files: one("jobs:\n  # action-permissions-exempt:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n"), code: 1,
			want: []string{"ci.yml:4: # action-permissions-exempt: carries no reason", "help: write the reason"}},
		{name: "expression in a workflow is its finding", files: map[string]string{".github/workflows/ci.yml": wf("jobs:\n  b:\n    runs-on: ubuntu-latest\n    permissions: ${{ inputs.p }}\n" + co)}, code: 1,
			want: []string{"ci.yml:6: cannot read a permissions: value"}},
		{name: "expression outside .github/workflows skipped", files: one("jobs:\n  b:\n    runs-on: ubuntu-latest\n    permissions: ${{ inputs.p }}\n" + co), code: 0,
			want: []string{"1 unparseable YAML file skipped"}},
		{name: "unknown alias outside .github/workflows skipped", files: one("permissions: *p\njobs:\n  b:\n    runs-on: ubuntu-latest\n" + co), code: 0, want: []string{"1 unparseable YAML file skipped"}},
		{name: "unknown alias in a workflow is a finding", files: map[string]string{".github/workflows/ci.yml": wf("permissions: *p\njobs:\n  b:\n    runs-on: ubuntu-latest\n" + co)}, code: 1,
			want: []string{".github/workflows/ci.yml:3: cannot read the file as YAML: the parser says unknown anchor 'p' referenced (GitHub loads this file)"}},
		{name: "action skipped", files: map[string]string{"action.yml": "runs:\n  using: composite\n  steps:\n    - uses: actions/checkout@" + sha + "\n"}, code: 0,
			want: []string{"1 action and 0 other files skipped"}},
	})
}

func TestCheckActionJobRef(t *testing.T) {
	k := map[string]string{"GATE_SDK_JOB_REF_PATTERNS": "(build|test)-[a-z0-9-]+"}
	ci := wf("jobs:\n  build-linux:\n    runs-on: ubuntu-latest\n  test-unit:\n    runs-on: ubuntu-latest\n")
	runActionCases(t, checkActionJobRef, "check-action-job-ref", []actionCase{
		{name: "empty knob", files: map[string]string{"README.md": "`build-windows`\n"}, code: 0,
			want: []string{"GATE_SDK_JOB_REF_PATTERNS is empty: no job reference is checked"}},
		{name: "defined", files: map[string]string{"ci.yml": ci, "README.md": "see `build-linux` and `test-unit`\n"}, knobs: k, code: 0,
			want: []string{"2 job references checked against 2 jobs in 1 workflow"}},
		{name: "undefined", files: map[string]string{"ci.yml": ci, "README.md": "x\n\n\n\n\n\n\n\n\n\n\nthe `build-windows` leg\n"}, knobs: k, code: 1,
			want: []string{"README.md:12: build-windows names no job in any walked workflow", "help: point each"}},
		{name: "not references", files: map[string]string{"ci.yml": ci, "README.md": "`build-linux --v` `deploy-prod` ``build-gone``\n```\n`build-fenced`\n```\n"}, knobs: k, code: 0},
		{name: "yaml full-line comment", files: map[string]string{"ci.yml": ci + "# mirrors `test-e2e`\n    # `test-unit` ok\n  # trailing below\n"}, knobs: k, code: 1,
			want: []string{"ci.yml:8: test-e2e names"}},
		{name: "yaml trailing comment unread", files: map[string]string{"ci.yml": ci + "env: {a: 1} # `test-e2e`\n"}, knobs: k, code: 0},
		{name: "bad pattern", files: map[string]string{"README.md": "x\n"}, knobs: map[string]string{"GATE_SDK_JOB_REF_PATTERNS": "("}, code: 2,
			want: []string{"GATE_SDK_JOB_REF_PATTERNS"}},
	})
}

func TestCheckActionStepOrder(t *testing.T) {
	k := map[string]string{"GATE_LOCAL_STEP_ORDER_ACTION": "./.github/actions/toolchain", "GATE_LOCAL_STEP_ORDER_PROGRAMS": "cargo\trustc"}
	tc := "      - uses: ./.github/actions/toolchain\n"
	one := func(s string) map[string]string { return map[string]string{"ci.yml": wf("jobs:\n" + s)} }
	job := func(id, steps string) string {
		return "  " + id + ":\n    runs-on: ubuntu-latest\n    steps:\n" + steps
	}
	runActionCases(t, checkActionStepOrder, "check-action-step-order", []actionCase{
		{name: "empty action", files: one(job("b", "      - run: cargo build\n")), knobs: map[string]string{"GATE_LOCAL_STEP_ORDER_PROGRAMS": "cargo"}, code: 0,
			want: []string{"GATE_LOCAL_STEP_ORDER_ACTION is empty"}},
		{name: "empty programs", files: one(job("b", "      - run: cargo build\n")), knobs: map[string]string{"GATE_LOCAL_STEP_ORDER_ACTION": "x"}, code: 0,
			want: []string{"GATE_LOCAL_STEP_ORDER_PROGRAMS is empty"}},
		{name: "action first", files: one(job("b", tc+"      - run: cargo test\n")), knobs: k, code: 0, want: []string{"1 armed job hold the order"}},
		{name: "action with a ref", files: one(job("b", "      - uses: ./.github/actions/toolchain@x\n      - run: cargo test\n")), knobs: k, code: 0},
		{name: "the action by its self-repository reference", files: one(job("b", "      - uses: $/.github/actions/toolchain\n      - run: cargo test\n")), knobs: k, code: 0},
		{name: "a knob naming the self-repository reference", files: one(job("b", tc+"      - run: cargo test\n")), knobs: map[string]string{"GATE_LOCAL_STEP_ORDER_ACTION": "$/.github/actions/toolchain", "GATE_LOCAL_STEP_ORDER_PROGRAMS": "cargo"}, code: 0},
		{name: "no step", files: one(job("build", "      - run: cargo build\n")), knobs: k, code: 1,
			want: []string{"ci.yml:7: job build spells cargo with no earlier step on ./.github/actions/toolchain", "help: add a step on ./.github/actions/toolchain"}},
		{name: "step after", files: one(job("b", "      - run: cargo build\n"+tc)), knobs: k, code: 1},
		{name: "step in another job", files: one(job("a", tc) + job("b", "      - run: rustc x.rs\n")), knobs: k, code: 1, want: []string{"job b spells rustc"}},
		{name: "behind if and in a string", files: one(job("b", "      - run: |\n          if cargo --version; then echo \"use cargo\"; fi\n")), knobs: k, code: 1},
		{name: "inert spellings", files: one(job("b", "      - run: |\n          cargo-deny check\n          ./cargo.sh\n          my_cargo\n          # cargo build\n")), knobs: k, code: 0,
			want: []string{"0 armed jobs hold the order, 1 job inert"}},
		{name: "action spelling skipped", files: map[string]string{"action.yml": "runs:\n  using: composite\n  steps:\n    - run: cargo build\n      shell: bash\n"}, knobs: k, code: 0,
			want: []string{"1 action skipped"}},
	})
}
