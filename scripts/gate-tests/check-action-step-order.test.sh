#!/usr/bin/env bash
# check-action-step-order.test.sh — the two disarmed cleans: either
# GATE_LOCAL_ knob declared empty skips the check and names that knob.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/../../kits/gate-sdk}/lib/test-hermetic.sh"

set -u
gate_sandbox check-action-step-order

workflow='name: t
on: push
jobs:
  b:
    runs-on: ubuntu-latest
    steps:
      - run: cargo build'

gate_scratch_repo no-programs
printf '%s\n' "$workflow" | gate_put .github/workflows/ci.yml
gate_put scripts/check-action-step-order.gate <<'GATE'
# graph: couples=*.yml,*.yaml dir=one valve=none tier=precommit
# knob: GATE_LOCAL_STEP_ORDER_ACTION = ./.github/actions/toolchain
# knob: GATE_LOCAL_STEP_ORDER_PROGRAMS =
GATE
gate_expect no-programs 0 'ACTION-STEP-ORDER: clean (GATE_LOCAL_STEP_ORDER_PROGRAMS is empty: no step order is checked)'

gate_scratch_repo no-action
printf '%s\n' "$workflow" | gate_put .github/workflows/ci.yml
gate_put scripts/check-action-step-order.gate <<'GATE'
# graph: couples=*.yml,*.yaml dir=one valve=none tier=precommit
# knob: GATE_LOCAL_STEP_ORDER_ACTION =
# knob: GATE_LOCAL_STEP_ORDER_PROGRAMS[] = cargo
GATE
gate_expect no-action 0 'ACTION-STEP-ORDER: clean (GATE_LOCAL_STEP_ORDER_ACTION is empty: no step order is checked)'

gate_tests_done
