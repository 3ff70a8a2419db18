#!/usr/bin/env bash
# check-gate-output.test.sh — what the pair cannot carry: a tree with no
# go.mod (every vendored consumer) counts its compiled # no-fixture:
# members out of reach instead of reading a module, even with the binary
# placed at its default path; the gates-dir operand moves the registry;
# an absent registry refuses. Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-gate-output "$GATE_SDK_ROOT/checks"
G='# graph: couples=*.md dir=one valve=none tier=precommit'
NF='# no-fixture: reads the live diff, which no committed case can hold'

gate_scratch_repo consumer
printf 'check-live\n' | gate_put scripts/gates.list
printf '%s\n%s\n' "$G" "$NF" | gate_put scripts/check-live.gate
gate_expect no-module 0 'GATE-OUTPUT: clean (1 member with # no-fixture: emit a clean line and a help: line; 0 proved by their fixture pairs; 1 compiled member out of reach with no go.mod (check-live))'
# The binary at GATE_SDK_NATIVE_BIN's default path makes no module.
printf 'not a binary\n' | gate_put bin/gates
mkdir -p "$GATE_SCRATCH/internal/gates"
gate_expect binary-is-no-module 0 '1 compiled member out of reach with no go.mod (check-live)'
printf 'module example.com/c\n\ngo 1.22\n' | gate_put go.mod
gate_expect module-probed 1 'internal/gates/live.go: check-live is a compiled member carrying # no-fixture:, and its module is not there'

gate_scratch_repo operand
printf 'check-quiet\n' | gate_put other/gates.list
printf '#!/usr/bin/env bash\n%s\n%s\necho "QUIET: clean (x)"\n' "$G" "$NF" | gate_put other/check-quiet.sh
gate_expect operand-moves-registry 1 'other/check-quiet.sh: check-quiet carries # no-fixture:' other
gate_expect no-registry 2 'no registry at scripts/gates.list'

gate_tests_done
