#!/usr/bin/env bash
# check-portability-floor.test.sh — the two disabled cleans and their
# sentences, the ASCII arm under an absent roster, the same knobs finding
# the violation once set, the GNU-escape refusal, the unreadable pattern
# file, the binary skip and count, a name git quotes, and the record order.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-portability-floor "$GATE_SDK_ROOT/checks"

dash="$(printf '\342\200\224')"

gate_scratch_repo floor
printf '#!/bin/sh\nsed -i s/a/b/ f\nls\nsed -i s/c/d/ g\n' | gate_put install/a.sh
printf 'Write-Host "done %s ok"\n' "$dash" | gate_put install/Setup.ps1
printf '\000binary sed -i blob\n' | gate_put install/blob.bin
gate_expect no-corpus 0 'PORTABILITY-FLOOR: clean (no corpus configured: GATE_SDK_PORTABILITY_PATHS is empty, both arms off)'
GATE_SDK_PORTABILITY_PATHS=install gate_expect ascii-arm-without-roster 1 "install/Setup.ps1:1:Write-Host \"done $dash ok\" (non-ASCII outside a comment)"
gate_lacks roster-arm-off 'undeclared construct'
GATE_SDK_PORTABILITY_PATHS=install/a.sh gate_expect roster-off-sentence 0 'roster arm off: no portability pattern in scripts/portability-patterns.list (absent)'
printf '(^|[^A-Za-z0-9_-])sed[[:blank:]]+-i([[:blank:]]|$)\n' | gate_put scripts/portability-patterns.list
GATE_SDK_PORTABILITY_PATHS=install gate_expect knobs-find-it 1 'install/a.sh:2:sed -i s/a/b/ f (undeclared construct'
gate_check record-order sh -c "grep -v '^help:' '$GATE_OUT' | cut -d: -f1,2 | tr '\n' ' ' | grep -qx 'install/Setup.ps1:1 install/a.sh:2 install/a.sh:4 '"
GATE_SDK_PORTABILITY_PATHS='install :(exclude)install/Setup.ps1 :(exclude)install/a.sh' gate_expect binary-skip-count 0 '0 files hold no undeclared construct of 1 patterns; 0 PowerShell members ASCII outside comments; 1 binary members skipped'
printf '\\bsed -i\n' >"$GATE_SCRATCH/gnu.list"
GATE_SDK_PORTABILITY_PATHS=install GATE_SDK_PORTABILITY_PATTERNS=gnu.list gate_expect gnu-escape 2 'GNU extension'
mkdir -p "$GATE_SCRATCH/dir.list"
GATE_SDK_PORTABILITY_PATHS=install GATE_SDK_PORTABILITY_PATTERNS=dir.list gate_expect unreadable-pattern-file 2 'dir.list'
GATE_SDK_PORTABILITY_PATHS=install GATE_SDK_PORTABILITY_PATTERNS='gone.list scripts/portability-patterns.list' gate_expect absent-file-skipped 1 'install/a.sh:4:'

gate_scratch_repo quoted
printf 'sed -i\n' | gate_put scripts/portability-patterns.list
printf 'sed -i x\n' | gate_put 'install/naïve dir/ä.sh'
GATE_SDK_PORTABILITY_PATHS=install gate_expect quoted-name 1 'install/naïve dir/ä.sh:1:sed -i x (undeclared construct sed -i)'

gate_scratch_dir not-a-repo
printf 'x\n' | gate_put install/a.sh
GATE_SDK_PORTABILITY_PATHS=install gate_expect non-repo 2 'not a git repository'

gate_tests_done
