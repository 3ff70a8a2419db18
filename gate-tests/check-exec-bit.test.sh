#!/usr/bin/env bash
# check-exec-bit.test.sh — the live index path a dump-driven pair cannot
# reach: a KPI staged 100644 then 100755, the script class masking the
# descriptor class, a descriptor staged executable, a name git quotes, and
# the non-repository refusal.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-exec-bit "$GATE_SDK_ROOT/checks"

gate_scratch_repo live
printf '#!/bin/sh\necho ok\n' | gate_put drift-kit/kpis/kpi-y.sh
git -C "$GATE_SCRATCH" update-index --chmod=-x -- drift-kit/kpis/kpi-y.sh
gate_check "index holds the KPI at 100644" test "$(git -C "$GATE_SCRATCH" ls-files -s -- drift-kit/kpis/kpi-y.sh | cut -c1-6)" = 100644
gate_expect kpi-100644 1 'drift-kit/kpis/kpi-y.sh: index mode 100644, a script under an exec glob must be 100755'
git -C "$GATE_SCRATCH" update-index --chmod=+x -- drift-kit/kpis/kpi-y.sh
gate_expect kpi-100755 0 'EXEC-BIT: clean (1 scripts under the exec globs are 100755'

# The worktree mode is not read: only the index counts.
chmod -x "$GATE_SCRATCH/drift-kit/kpis/kpi-y.sh"
gate_expect worktree-only 0 'EXEC-BIT: clean ('

gate_scratch_repo masked
printf '#!/bin/sh\n' | gate_put kit/checks/check-a.sh
git -C "$GATE_SCRATCH" update-index --chmod=-x -- kit/checks/check-a.sh
printf '# graph: couples=* dir=one valve=none tier=precommit\n' | gate_put kit/checks/check-b.gate
git -C "$GATE_SCRATCH" update-index --chmod=+x -- kit/checks/check-b.gate
gate_expect script-first 1 'kit/checks/check-a.sh: index mode 100644'
gate_lacks script-first-hides-descriptor 'check-b.gate'
git -C "$GATE_SCRATCH" update-index --chmod=+x -- kit/checks/check-a.sh
gate_expect descriptor-next 1 'kit/checks/check-b.gate: index mode 100755, a .gate descriptor must be 100644'

gate_scratch_repo quoted
printf '#!/bin/sh\n' | gate_put 'kit/bin/naïve tool.sh'
git -C "$GATE_SCRATCH" update-index --chmod=-x -- 'kit/bin/naïve tool.sh'
gate_expect quoted-name 1 'kit/bin/naïve tool.sh: index mode 100644'

gate_scratch_repo gates-dir
printf '#!/bin/sh\n' | gate_put .gates/check-local.sh
git -C "$GATE_SCRATCH" update-index --chmod=-x -- .gates/check-local.sh
GATE_SDK_GATES_DIR=.gates gate_expect computed-glob 1 '.gates/check-local.sh: index mode 100644'

gate_scratch_dir not-a-repo
gate_expect non-repo 2 'not inside a git repository'

gate_tests_done
