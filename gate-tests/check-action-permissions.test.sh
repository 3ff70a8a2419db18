#!/usr/bin/env bash
# check-action-permissions.test.sh — the unreadable values (a permissions:
# value that is an expression or an alias is the workflow's finding, exit 1,
# never the gate's stop) and the zero-count clean of a tree with no YAML.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-action-permissions

gate_scratch_repo expression
gate_put .github/workflows/ci.yml <<'YAML'
name: t
on: push
jobs:
  b:
    runs-on: ubuntu-latest
    permissions: ${{ inputs.p }}
    steps:
      - run: echo
YAML
gate_expect expression 1 'ci.yml:6: cannot read a permissions: value'

gate_scratch_repo alias
gate_put .github/workflows/ci.yml <<'YAML'
name: t
on: &shared push
permissions: *shared
jobs:
  b:
    runs-on: ubuntu-latest
    steps:
      - run: echo
YAML
gate_expect alias 1 'ci.yml:3: cannot read a permissions: value'

# A workflow the YAML parser rejects is a finding at the line it names
# (GitHub loads it); the gate still judges every other file.
gate_scratch_repo tabs
printf 'name: t\non: push\njobs:\n\tb:\n\t\truns-on: ubuntu-latest\n' | gate_put .github/workflows/ci.yml
gate_expect tabs 1 'ci.yml:4: cannot read the file as YAML: the parser says'

# The same bytes where GitHub never looks are skipped and counted.
gate_scratch_repo tabs-elsewhere
printf 'name: t\non: push\njobs:\n\tb:\n\t\truns-on: ubuntu-latest\n' | gate_put examples/ci.yml
gate_expect tabs-elsewhere 0 '1 unparseable YAML file skipped (GitHub loads none of them)'

# A test input under testdata/ is skipped before it is read, and counted.
gate_scratch_repo tabs-testdata
printf 'name: t\non: push\njobs:\n\tb:\n\t\truns-on: ubuntu-latest\n' | gate_put testdata/ci.yml
gate_expect tabs-testdata 0 '1 test input under testdata/ skipped (GitHub loads none of them)'

gate_scratch_repo no-yaml
printf '# nothing here\n' | gate_put README.md
gate_expect no-yaml 0 'ACTION-PERMISSIONS: clean (no YAML file under .: no job to check)'

# A scorecard-style job whose block leaves contents: out: a finding where
# the repository's visibility is unknown or private, and counted, not
# flagged, where the knob file declares it public (anyone may read it).
scorecard() {
  gate_put .github/workflows/scorecard.yml <<'YAML'
name: scorecard
on: push
permissions: read-all
jobs:
  analysis:
    runs-on: ubuntu-latest
    permissions:
      security-events: write
      id-token: write
    steps:
      - uses: actions/checkout@8e8c483db84b4bee98b60c0593521ed34d9990e8
YAML
}
gate_scratch_repo visibility-unset
scorecard
gate_expect visibility-unset 1 'scorecard.yml:5: job analysis checks out the repository with no contents: read in scope'
for vis in private public; do
  gate_scratch_repo "visibility-$vis"
  scorecard
  printf 'GATE_SDK_REPO_VISIBILITY = %s\n' "$vis" | gate_put scripts/gate-sdk-config.knobs
  if [ "$vis" = private ]; then
    GATE_SDK_KNOB_FILE="$GATE_SCRATCH/scripts/gate-sdk-config.knobs" gate_expect visibility-private 1 'scorecard.yml:5: job analysis checks out the repository with no contents: read in scope'
  else
    GATE_SDK_KNOB_FILE="$GATE_SCRATCH/scripts/gate-sdk-config.knobs" gate_expect visibility-public 0 '1 checkout without contents: left to the repository'"'"'s declared public visibility'
  fi
done
# A value outside the knob's two words is refused, never read as either.
gate_scratch_repo visibility-typo
scorecard
printf 'GATE_SDK_REPO_VISIBILITY = publik\n' | gate_put scripts/gate-sdk-config.knobs
GATE_SDK_KNOB_FILE="$GATE_SCRATCH/scripts/gate-sdk-config.knobs" gate_expect visibility-typo 2 'GATE_SDK_REPO_VISIBILITY'

gate_tests_done
