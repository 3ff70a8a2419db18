#!/usr/bin/env bash
# check-workflow-tiering.test.sh — the partition arm, which a tracked
# fixture cannot hold (an untracked file, an untracked directory, ignored
# capture), the knob naming a directory the tree lacks, and the
# non-repository refusal.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-workflow-tiering "$GATE_SDK_ROOT/checks"

gate_scratch_repo partition
printf '.workflow/*.log\n.workflow/cache/\n' | gate_put .gitignore
printf '# contract: SPEC.md §The queue\n' | gate_put .workflow/queue.md
printf 'capture\n' | gate_loose .workflow/run.log
printf 'blob\n' | gate_loose .workflow/cache/blob
gate_expect ignored-and-tracked 0 'WORKFLOW-TIERING: clean (every member of .workflow is tracked or ignored; 1 tracked files carry a contract header)'
printf 'draft\n' | gate_loose .workflow/scratch.md
printf 'draft\n' | gate_loose .workflow/drafts/a.md
gate_expect untracked-file 1 '.workflow/scratch.md: neither tracked nor ignored'
gate_expect untracked-dir 1 '.workflow/drafts/: neither tracked nor ignored'
gate_lacks ignored-not-reported 'run.log'
GATE_SDK_WORKFLOW_DIR=state gate_expect missing-dir 2 'GATE_SDK_WORKFLOW_DIR names state, which this tree lacks'
mkdir -p "$GATE_SCRATCH/state"
printf 'x\n' | gate_put state/a.md
GATE_SDK_WORKFLOW_DIR=state/ gate_expect knob-relocates 1 'state/a.md:1: first line "x" is not a # contract: header'
GATE_SDK_WORKFLOW_DIR=state/. gate_expect dot-spelling-keeps-headers 1 'state/a.md:1: first line "x" is not a # contract: header'
GATE_SDK_WORKFLOW_DIR="$GATE_SCRATCH/state" gate_expect absolute-spelling-keeps-headers 1 'state/a.md:1: first line "x" is not a # contract: header'

gate_scratch_dir not-a-repo
printf '# contract: SPEC.md §The queue\n' | gate_put .workflow/queue.md
gate_expect non-repo 2 'not inside a git'

gate_tests_done
