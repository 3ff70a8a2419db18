#!/usr/bin/env bash
# check-gate-assertions.test.sh — what the pair cannot carry: the default
# corpus (<gates-dir>/SPEC.md and each kit root's SPEC.md) read without an
# operand, a compiled member's markers followed into its Go module, the
# no-go.mod skip counted on the clean line, and the empty corpus refused.
# The kit root is pinned by GATE_SDK_KIT_DIRS=kit on each case (the
# hermetic bootstrap reads no knob file of the scratch tree).
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-gate-assertions "$GATE_SDK_ROOT/checks"
G='# graph: couples=*.md dir=one valve=none tier=precommit'

gate_scratch_repo consumer
printf '%s\n' "$G" | gate_put kit/checks/check-ported.gate
printf '## check-ported\n\nTwo assertions: (A) one; (B) two.\n' | gate_put kit/SPEC.md
printf '## check-local\n\n- **A.** One.\n- **B.** Two.\n' | gate_put scripts/SPEC.md
printf '#!/usr/bin/env bash\n%s\n# assertion A: one\n# assertion B: two\necho "LOCAL: clean (x)"\n' "$G" | gate_put scripts/check-local.sh
GATE_SDK_KIT_DIRS=kit gate_expect no-module-skips 0 'GATE-ASSERTIONS: clean (1 lettered contract matched to their code across 2 SPECs; 1 compiled member declared out of reach (no go.mod))'
# A placed binary makes no module: the probe is go.mod, never a directory.
printf 'not a binary\n' | gate_put bin/gates
mkdir -p "$GATE_SCRATCH/internal/gates"
GATE_SDK_KIT_DIRS=kit gate_expect binary-is-no-module 0 '1 compiled member declared out of reach'
printf 'module example.com/c\n\ngo 1.22\n' | gate_put go.mod
GATE_SDK_KIT_DIRS=kit gate_expect module-missing 1 '§check-ported letters a contract but resolves to no module at internal/gates/ported.go'
printf 'package gates\n\n// assertion A: one\n' | gate_put internal/gates/ported.go
GATE_SDK_KIT_DIRS=kit gate_expect module-drift 1 'internal/gates/ported.go: missing marker for assertion B of §check-ported (kit/SPEC.md:1)'
printf 'package gates\n\n// assertion A: one\n\t// assertion B: two\n' | gate_put internal/gates/ported.go
GATE_SDK_KIT_DIRS=kit gate_expect module-agrees 0 'GATE-ASSERTIONS: clean (2 lettered contracts matched to their code across 2 SPECs; 0 compiled'
GATE_SDK_KIT_DIRS=kit GATE_SDK_NATIVE_SRC=src gate_expect native-src-moves-the-module 1 'resolves to no module at src/gates/ported.go'

gate_scratch_repo empty
printf '%s\n' "$G" | gate_put scripts/check-x.gate
GATE_SDK_KIT_DIRS=kit gate_expect empty-corpus 2 'no SPEC.md to read'
GATE_SDK_KIT_DIRS=kit gate_expect operand-missing 2 'cannot read nope.md' nope.md

gate_tests_done
