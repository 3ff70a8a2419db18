#!/usr/bin/env bash
# check-root-tiering.test.sh — what the pair cannot carry: an untracked
# root file left alone, the agent-file knob moving the built-in entry, the
# unreadable allowlist refusal, and the non-repository refusal.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-root-tiering "$GATE_SDK_ROOT/checks"

gate_scratch_repo roots
printf '# R\n' | gate_put README.md
printf '# A\n' | gate_put AGENTS.md
printf 'scratch\n' | gate_loose notes.txt
gate_expect agent-file-default 1 'AGENTS.md: tracked top-level entry is not on the root allowlist (the built-in set, no scripts/root-allowlist.list)'
gate_lacks untracked-ignored 'notes.txt'
GATE_SDK_AGENT_FILE=AGENTS.md gate_expect agent-file-knob 0 'ROOT-TIERING: clean (2 top-level entries allowed by the built-in set'
mkdir -p "$GATE_SCRATCH/scripts/root-allowlist.list"
gate_expect unreadable-allowlist 2 'cannot read scripts/root-allowlist.list'

gate_scratch_repo scan-root
printf '# R\n' | gate_put pkg/README.md
printf 'x\n' | gate_put pkg/stray.txt
gate_expect root-dot-spelling 1 'stray.txt: tracked top-level entry' scripts pkg/.
gate_expect root-misspelled 2 'scan root pgk names nothing' scripts pgk
gate_lacks root-misspelled-no-clean 'clean ('
gate_expect root-is-a-file 2 'scan root pkg/stray.txt is a tracked file' scripts pkg/stray.txt

gate_scratch_dir not-a-repo
printf '# R\n' | gate_put README.md
gate_expect non-repo 2 'not inside a git repository'

gate_tests_done
