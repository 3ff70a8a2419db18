#!/usr/bin/env bash
# check-core-files.test.sh — what the pair cannot carry: the kit: expansion
# over a root set from the knob, the wildcard refusal (exit 2), a listed
# file present but never added, plain rm and git rm, the absent and the
# unreadable manifest, and the non-repository refusal.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-core-files "$GATE_SDK_ROOT/checks"

gate_scratch_repo expansion
printf 'a\n' | gate_put a-kit/SPEC.md
printf 'b\n' | gate_put b-kit/README.md
printf 'kit:SPEC.md\n' | gate_put scripts/core-files.list
GATE_SDK_KIT_DIRS='a-kit b-kit' gate_expect kit-expansion 1 'b-kit/SPEC.md: core file listed in scripts/core-files.list:1 as kit:SPEC.md is missing from the worktree'
gate_lacks kit-expansion-a-present 'a-kit/SPEC.md:'
printf 'b\n' | gate_put b-kit/SPEC.md
GATE_SDK_KIT_DIRS='a-kit b-kit' gate_expect kit-expansion-clean 0 'CORE-FILES: clean (2 core files present and tracked)'
printf 'kit:checks/*.sh\n' | gate_put scripts/core-files.list
GATE_SDK_KIT_DIRS='a-kit b-kit' gate_expect wildcard 2 'carries a wildcard'

gate_scratch_repo tracking
printf 'r\n' | gate_put README.md
printf 'g\n' | gate_put gone-rm.md
printf 'g\n' | gate_put gone-git-rm.md
printf 'README.md\ngone-rm.md\ngone-git-rm.md\nnever-added.md\n' | gate_put scripts/core-files.list
printf 'n\n' | gate_loose never-added.md
rm "$GATE_SCRATCH/gone-rm.md"
git -C "$GATE_SCRATCH" rm -qf -- gone-git-rm.md
gate_expect plain-rm 1 'gone-rm.md: core file listed in scripts/core-files.list:2 is missing from the worktree'
gate_expect git-rm 1 'gone-git-rm.md: core file listed in scripts/core-files.list:3 is missing from the worktree'
gate_expect never-added 1 'never-added.md: core file listed in scripts/core-files.list:4 exists but is not tracked'

gate_scratch_repo postures
printf 'r\n' | gate_put README.md
gate_expect absent 0 'CORE-FILES: clean (no manifest at scripts/core-files.list: no core file pinned)'
mkdir -p "$GATE_SCRATCH/scripts/core-files.list"
gate_expect unreadable 2 'cannot read scripts/core-files.list'
GATE_SDK_CORE_FILES_FILE=other.list gate_expect knob-relocates 0 'no manifest at other.list'

gate_scratch_dir not-a-repo
printf 'README.md\n' | gate_put scripts/core-files.list
gate_expect non-repo 2 'not inside a git repository'

gate_tests_done
