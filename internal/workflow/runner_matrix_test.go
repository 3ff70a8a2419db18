package workflow

import (
	"strings"
	"testing"
)

// TestStepRunner holds the runner a step runs on where runs-on is an
// expression: the job's matrix evaluated with include: and exclude:, then
// narrowed by the step's if:.
func TestStepRunner(t *testing.T) {
	cases := []struct {
		name, job, stepIf string
		want              Runner
		why               string // substring of why, for Unreadable
	}{
		{name: "matrix with no Windows entry", want: NonWindows,
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, macos-14]\n        go: ['1.22', '1.23']"},
		{name: "matrix with a Windows entry", want: Unreadable, why: "Windows and non-Windows",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]"},
		{name: "only Windows", want: Windows,
			job: "runs-on: ${{matrix.os}}\n    strategy:\n      matrix:\n        os: [windows-2022, windows-latest]"},
		{name: "exclude removes the Windows entries", want: NonWindows,
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]\n        exclude:\n          - os: windows-latest"},
		{name: "exclude of one combination keeps Windows", want: Unreadable,
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]\n        py: ['3.11', '3.12']\n        exclude:\n          - {os: windows-latest, py: '3.11'}"},
		{name: "include adds a Windows entry", want: Unreadable,
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest]\n        include:\n          - os: windows-latest\n            experimental: true"},
		{name: "include extends without a new runner", want: NonWindows,
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, macos-latest]\n        include:\n          - os: ubuntu-latest\n            coverage: true"},
		{name: "include-only matrix of objects", want: NonWindows,
			job: "runs-on: ${{ matrix.platform.runner }}\n    strategy:\n      matrix:\n        include:\n          - platform: {runner: ubuntu-24.04, target: x86_64}\n          - platform: {runner: ubuntu-24.04-arm, target: aarch64}"},
		{name: "runner in a label list", want: NonWindows,
			job: "runs-on: [self-hosted, \"${{ matrix.arch }}\"]\n    strategy:\n      matrix:\n        arch: [x64, arm64]"},
		{name: "matrix from JSON is unreadable", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}"},
		{name: "a matrix value that is an expression", want: Unreadable,
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: ${{ fromJSON(inputs.oses) }}"},
		{name: "an input is unreadable", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ inputs.runner }}"},
		{name: "if: pins Linux on an unreadable runner", want: NonWindows, stepIf: "runner.os == 'Linux'",
			job: "runs-on: ${{ inputs.runner }}"},
		{name: "if: excludes Windows", want: NonWindows, stepIf: "${{ runner.os != 'Windows' }}",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]"},
		{name: "if: names the matrix entry", want: NonWindows, stepIf: "matrix.os != 'windows-latest' && github.event_name == 'push'",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]"},
		{name: "if: leaves another Windows entry", want: Unreadable, stepIf: "matrix.os != 'windows-latest'",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest, windows-2019]"},
		{name: "if: with startsWith", want: NonWindows, stepIf: "startsWith(matrix.os, 'ubuntu')",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest, ubuntu-22.04]"},
		{name: "if: with a negated startsWith", want: NonWindows, stepIf: "${{ !startsWith(matrix.os, 'windows') }}",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]"},
		{name: "if: pins Windows", want: Windows, stepIf: "runner.os == 'Windows'",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]"},
		{name: "an or is not read", want: Unreadable, stepIf: "runner.os == 'Linux' || github.event_name == 'push'",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]"},
		{name: "if: admits no combination: the step never runs", want: NonWindows, stepIf: "matrix.os == 'macos-latest'",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]"},
		{name: "equality ignores case", want: NonWindows, stepIf: "runner.os == 'linux'",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]"},
		{name: "an exclude holding an expression is passed over", want: NonWindows,
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-22.04, ubuntu-24.04-arm]\n        exclude:\n          - os: ${{ github.event.repository.private && 'ubuntu-24.04-arm' || '' }}"},
		{name: "a passed-over exclude cannot hide Windows", want: Unreadable, why: "Windows and non-Windows",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]\n        exclude:\n          - os: ${{ inputs.skip }}"},
		{name: "an include holding an expression is unreadable", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest]\n        include:\n          - os: ${{ inputs.extra }}"},
		{name: "a variable with a Linux fallback", want: NonWindows,
			job: "runs-on: ${{ vars.WORKER_MEDIUM || 'ubuntu-latest' }}"},
		{name: "variables with a Windows fallback", want: Windows,
			job: "runs-on: ${{ vars.A || vars.B || 'windows-2022' }}"},
		{name: "an input with a fallback is unreadable", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ inputs.runner || 'ubuntu-latest' }}"},
		{name: "a variable with no fallback is unreadable", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ vars.WORKER }}"},
		{name: "a variable named for Ubuntu", want: NonWindows,
			job: "runs-on: ${{ vars.UBUNTU_2404_AMD64_4CPU_16GB }}"},
		{name: "a variable named for Windows", want: Windows,
			job: "runs-on: ${{ vars.WINDOWS_2022_LARGE }}"},
		{name: "a matrix of variables named for Ubuntu", want: NonWindows,
			job: "strategy:\n      matrix:\n        arch: [\"${{ vars.UBUNTU_2404_AMD64 }}\", \"${{ vars.UBUNTU_2404_ARM64 }}\"]\n    runs-on: ${{ matrix.arch }}"},
		{name: "a matrix of variables, one named for Windows", want: Unreadable, why: "Windows and non-Windows runners",
			job: "strategy:\n      matrix:\n        os: [\"${{ vars.UBUNTU_RUNNER }}\", \"${{ vars.WINDOWS_RUNNER }}\"]\n    runs-on: ${{ matrix.os }}"},
		{name: "a matrix of a variable naming no system", want: Unreadable, why: "GitHub expression",
			job: "strategy:\n      matrix:\n        os: [\"${{ vars.RUNNER }}\"]\n    runs-on: ${{ matrix.os }}"},
		{name: "a variable named for both is unreadable", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ vars.LINUX_OR_WINDOWS }}"},
		{name: "a word holding ubuntu's letters is no system", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ vars.WINDOWLESS_RUNNER }}"},
		{name: "a condition choosing between two Linux labels", want: NonWindows,
			job: "runs-on: ${{ needs.plan.outputs.e2e == 'true' && !contains(github.event.pull_request.labels.*.name, 'Skip CI') && github.repository == 'acme/db' && 'big-vm-16cpu-x86-64' || 'ubuntu-24.04' }}"},
		{name: "a condition choosing Windows or Linux is unreadable", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ github.repository == 'acme/db' && 'windows-2022' || 'ubuntu-24.04' }}"},
		{name: "a condition choosing between two Windows labels", want: Windows,
			job: "runs-on: ${{ github.event_name == 'push' && 'windows-2022-16core' || 'windows-latest' }}"},
		{name: "a truthy unknown handed back is unreadable", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ github.event_name == 'push' && 'ubuntu-latest' || needs.plan.outputs.runner }}"},
		{name: "a function not evaluated is unreadable", want: Unreadable, why: "GitHub expression",
			job: "runs-on: ${{ fromJSON(needs.plan.outputs.runners) }}"},
		{name: "format over a Windows-only matrix", want: Windows,
			job: "runs-on: ${{ matrix.arch == 'arm64' && format('{0}-{1}', matrix.os, matrix.arch) || matrix.os }}\n    strategy:\n      matrix:\n        include:\n          - {os: windows, arch: amd64}\n          - {os: windows, arch: arm64}"},
		{name: "format over a mixed matrix", want: Unreadable, why: "Windows and non-Windows",
			job: "runs-on: ${{ matrix.arch == 'arm64' && format('{0}-{1}', matrix.os, matrix.arch) || matrix.os }}\n    strategy:\n      matrix:\n        include:\n          - {os: ubuntu-24.04, arch: arm64}\n          - {os: windows, arch: amd64}"},
		{name: "a matrix override with a Linux fallback", want: NonWindows,
			job: "runs-on: ${{ matrix.big || 'ubuntu-latest' }}\n    strategy:\n      matrix:\n        shard: [1, 2]\n        include:\n          - {shard: 2, big: ubuntu-latest-8-cores}"},
		{name: "a matrix override naming Windows", want: Unreadable, why: "Windows and non-Windows",
			job: "runs-on: ${{ matrix.big || 'ubuntu-latest' }}\n    strategy:\n      matrix:\n        shard: [1, 2]\n        include:\n          - {shard: 2, big: windows-latest}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			step := "      - run: echo\n"
			if tc.stepIf != "" {
				step += "        if: " + tc.stepIf + "\n"
			}
			f := read("on: push\njobs:\n  a:\n    " + tc.job + "\n    steps:\n" + step)
			if f.Rejected != nil {
				t.Fatal(f.Rejected)
			}
			j := f.Jobs[0]
			got, why := StepRunner(j, j.Steps[0])
			if got != tc.want || !strings.Contains(why, tc.why) {
				t.Errorf("got %v %q, want %v %q", got, why, tc.want, tc.why)
			}
		})
	}
}

// TestStepPinsWindows: a step whose own if: confines it to Windows was
// written for pwsh; a job that runs on Windows alone pins nothing by a
// step's if:, and neither does a condition that leaves Linux in.
func TestStepPinsWindows(t *testing.T) {
	mixed := "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]"
	cases := []struct {
		name, job, stepIf string
		want              bool
	}{
		{"runner.os pins Windows", mixed, "${{ runner.os == 'Windows' }}", true},
		{"matrix entry pins Windows", mixed, "matrix.os == 'windows-latest'", true},
		{"runner.os on a literal Windows job", "runs-on: windows-latest", "runner.os == 'Windows'", true},
		{"no if:", mixed, "", false},
		{"if: pins Linux", mixed, "runner.os == 'Linux'", false},
		{"if: on another subject", mixed, "github.event_name == 'push'", false},
		{"Windows-only matrix, matrix if:", "runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [windows-2022, windows-latest]", "matrix.os == 'windows-latest'", false},
		{"literal Windows job, other if:", "runs-on: windows-latest", "github.event_name == 'push'", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			step := "      - run: echo\n"
			if tc.stepIf != "" {
				step += "        if: " + tc.stepIf + "\n"
			}
			f := read("on: push\njobs:\n  a:\n    " + tc.job + "\n    steps:\n" + step)
			if f.Rejected != nil {
				t.Fatal(f.Rejected)
			}
			j := f.Jobs[0]
			if got := StepPinsWindows(j, j.Steps[0]); got != tc.want {
				t.Errorf("StepPinsWindows = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRunnerFromCallers: a reusable workflow's runs-on naming one input
// is read from the calls of it in the repository and the input's default;
// with no local call, or a call passing an expression, it stays
// unreadable.
func TestRunnerFromCallers(t *testing.T) {
	tmpl := read("on:\n  workflow_call:\n    inputs:\n      os:\n        default: ubuntu-latest\n      oses:\n        default: '[\"ubuntu-latest\"]'\njobs:\n  a:\n    runs-on: ${{ inputs.os }}\n    steps:\n      - run: echo\n  b:\n    runs-on: ${{ fromJSON(inputs.oses) }}\n    steps:\n      - run: echo\n")
	if tmpl.Rejected != nil {
		t.Fatal(tmpl.Rejected)
	}
	const at = ".github/workflows/t.yml"
	cases := []struct {
		name, callers string
		wantA, wantB  Runner
	}{
		{"no local call", "", Unreadable, Unreadable},
		{"defaults only", "  c:\n    uses: ./.github/workflows/t.yml\n", NonWindows, NonWindows},
		{"a Windows call", "  c:\n    uses: ./.github/workflows/t.yml\n    with:\n      os: windows-2022\n      oses: \"['windows-latest']\"\n", Windows, Windows},
		{"mixed calls", "  c:\n    uses: ./.github/workflows/t.yml\n    with:\n      os: windows-2022\n  d:\n    uses: ./.github/workflows/t.yml\n", Unreadable, NonWindows},
		{"an expression passed", "  c:\n    uses: ./.github/workflows/t.yml\n    with:\n      os: ${{ matrix.os }}\n", Unreadable, NonWindows},
		{"the self-repository spelling", "  c:\n    uses: $/.github/workflows/t.yml\n    with:\n      os: windows-2022\n", Windows, NonWindows},
		{"the self-repository spelling with ./", "  c:\n    uses: $/./.github/workflows/t.yml\n    with:\n      os: ubuntu-26.04\n", NonWindows, NonWindows},
		{"another repository's workflow of that path", "  c:\n    uses: octo/t/.github/workflows/t.yml@main\n", Unreadable, Unreadable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := []*File{tmpl}
			if tc.callers != "" {
				c := read("on: push\njobs:\n" + tc.callers)
				if c.Rejected != nil {
					t.Fatal(c.Rejected)
				}
				files = append(files, c)
			}
			inputs := CallsOf(files).InputValues(at, tmpl)
			for i, want := range []Runner{tc.wantA, tc.wantB} {
				j := tmpl.Jobs[i]
				if got, _ := stepRunnerIn(j, j.Steps[0], inputs); got != want {
					t.Errorf("job %s: got %v, want %v", j.ID, got, want)
				}
			}
		})
	}
}
