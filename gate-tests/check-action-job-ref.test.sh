#!/usr/bin/env bash
# check-action-job-ref.test.sh — the disarmed clean (an empty
# GATE_SDK_JOB_REF_PATTERNS is a skip naming the knob) and the refusal of a
# pattern that does not compile.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-action-job-ref

gate_scratch_repo empty-knob
printf 'The `build-gone` job.\n' | gate_put README.md
gate_expect empty-knob 0 'ACTION-JOB-REF: clean (GATE_SDK_JOB_REF_PATTERNS is empty: no job reference is checked)'

gate_scratch_repo bad-pattern
printf 'The `build-gone` job.\n' | gate_put README.md
printf 'GATE_SDK_JOB_REF_PATTERNS[] = (\n' | gate_put scripts/gate-sdk-config.knobs
GATE_SDK_KNOB_FILE="$GATE_SCRATCH/scripts/gate-sdk-config.knobs" gate_expect bad-pattern 2 'GATE_SDK_JOB_REF_PATTERNS'

gate_tests_done
