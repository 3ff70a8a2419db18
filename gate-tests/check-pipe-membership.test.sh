#!/usr/bin/env bash
# check-pipe-membership.test.sh — what the pair cannot carry: the tracked
# listing is the corpus (an untracked violation is not read), a tracked
# file the lexer refuses is exit 2 naming its line, and outside a
# repository the gate refuses rather than read an empty corpus.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-pipe-membership "$GATE_SDK_ROOT/checks"

gate_scratch_repo tracked
printf 'set -euo pipefail\nfor e in a b; do echo "$e"; done\n' | gate_put ok.sh
printf 'set -euo pipefail\na=(x)\nprintf "%%s\\n" "${a[@]}" | grep -q x\n' | gate_loose loose.sh
gate_expect untracked-unread 0 'PIPE-MEMBERSHIP: clean (1 shell file under pipefail of 1 tracked script'
printf 'set -o pipefail\necho "open\n' | gate_put broken.sh
gate_expect unlexable 2 'broken.sh:2:6: cannot read this shell: unterminated double quote'

gate_scratch_dir not-a-repo
printf 'set -o pipefail\n' | gate_put a.sh
gate_expect non-repo 2 'not inside a git repository'

gate_tests_done
