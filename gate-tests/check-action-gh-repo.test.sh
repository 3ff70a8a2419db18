#!/usr/bin/env bash
# check-action-gh-repo.test.sh — the inert postures: a tree with no YAML, and
# workflows with no job calling gh, are clean on a zero count.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-action-gh-repo

gate_scratch_repo no-yaml
printf '# nothing here\n' | gate_put README.md
gate_expect no-yaml 0 'ACTION-GH-REPO: clean (no YAML file under .: no job to check)'

gate_scratch_repo no-gh
gate_put .github/workflows/ci.yml <<'YAML'
name: t
on: push
jobs:
  b:
    runs-on: ubuntu-latest
    steps:
      - run: echo ghost
YAML
gate_expect no-gh 0 'ACTION-GH-REPO: clean (0 jobs calling gh with a repository context, 1 job without gh, 0 jobs exempt; 1 workflow, 0 actions skipped)'

gate_tests_done
