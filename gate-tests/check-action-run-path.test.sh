#!/usr/bin/env bash
# check-action-run-path.test.sh — the postures a one-verdict case cannot hold:
# a folded body is read, the extractor's refusals are the file's finding,
# a tree with no YAML is clean on a zero count.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-action-run-path

gate_scratch_repo folded
gate_put .github/workflows/ci.yml <<'YAML'
name: t
on: push
jobs:
  b:
    runs-on: ubuntu-latest
    steps:
      - run: >
          scripts/build.sh
YAML
gate_put scripts/build.sh <<'SH'
#!/bin/sh
SH
gate_expect folded 0 'ACTION-RUN-PATH: clean (1 run: body read, 1 invocation resolved'

gate_scratch_repo unbalanced
gate_put .github/workflows/ci.yml <<'YAML'
name: t
on: push
jobs:
  b:
    runs-on: ubuntu-latest
    steps:
      - run: |
          scripts/build.sh ${{ x
YAML
gate_expect unbalanced 1 'ci.yml:8: cannot read an unbalanced ${{'

gate_scratch_repo no-yaml
printf '# nothing here\n' | gate_put README.md
gate_expect no-yaml 0 'ACTION-RUN-PATH: clean (no YAML file under .: nothing to resolve)'

gate_tests_done
