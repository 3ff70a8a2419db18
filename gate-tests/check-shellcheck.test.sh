#!/usr/bin/env bash
# check-shellcheck.test.sh — a shell file with no #! is read by the mode git
# records: not executable, it is sourced by others and names no shell on
# purpose (SC2148 left out and counted); executable, it is run, and its
# missing #! is a finding.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-shellcheck

library() {
  printf 'GATE_SDK_LINT_EXTRA_DIRS = shell\n' | gate_put scripts/gate-sdk-config.knobs
  gate_put shell/prompt.sh <<'SH'
# Functions the interactive shells source; no #! on purpose.
prompt_branch() {
  git symbolic-ref --short HEAD 2>/dev/null
}
SH
}

gate_scratch_repo sourced
library
GATE_SDK_KNOB_FILE="$GATE_SCRATCH/scripts/gate-sdk-config.knobs" gate_expect sourced 0 '1 report on a deliberate idiom left out'

gate_scratch_repo executable
library
git -C "$GATE_SCRATCH" update-index --chmod=+x shell/prompt.sh
GATE_SDK_KNOB_FILE="$GATE_SCRATCH/scripts/gate-sdk-config.knobs" gate_expect executable 1 'shell/prompt.sh:1: error: Tips depend on target shell and yours is unknown. Add a shebang'

# A script a Go test of its directory names is that test's input (a
# formatter's sample of every syntax form): skipped and counted. The same
# script with no test naming it is linted.
sample() {
  printf 'GATE_SDK_LINT_EXTRA_DIRS = syntax\n' | gate_put scripts/gate-sdk-config.knobs
  gate_put syntax/sample.sh <<'SH'
#!/bin/bash
unused=1
SH
}
gate_scratch_repo go-test-input
sample
gate_put syntax/printer_test.go <<'GO'
package syntax

const samplePath = "sample.sh"
GO
GATE_SDK_KNOB_FILE="$GATE_SCRATCH/scripts/gate-sdk-config.knobs" gate_expect go-test-input 0 '1 test input a Go test of its directory names skipped'

gate_scratch_repo no-go-test
sample
GATE_SDK_KNOB_FILE="$GATE_SCRATCH/scripts/gate-sdk-config.knobs" gate_expect no-go-test 1 'syntax/sample.sh:2: warning: unused appears unused'

gate_tests_done
