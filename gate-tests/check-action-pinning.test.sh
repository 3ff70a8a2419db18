#!/usr/bin/env bash
# check-action-pinning.test.sh — the postures a one-verdict case cannot hold:
# a tree with no YAML is clean on a zero count, the scan-root operand narrows
# the walk, and a root that is not a directory refuses.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-action-pinning

gate_scratch_repo no-yaml
printf '# nothing here\n' | gate_put README.md
gate_expect no-yaml 0 'ACTION-PINNING: clean (no YAML file under .: nothing to check)'

gate_scratch_repo root
printf 'steps:\n  - uses: a/b@v1\n' | gate_put outside.yml
printf 'steps:\n  - uses: ./.github/actions/x\n' | gate_put sub/inside.yml
gate_expect scan-root 0 'ACTION-PINNING: clean (1 uses: ref pinned across 1 YAML file)' sub
gate_expect whole-tree 1 'outside.yml:2: uses: a/b@v1'
gate_expect not-a-dir 2 'scan root outside.yml is not a directory' outside.yml

gate_tests_done
