#!/usr/bin/env bash
# graph: couples=scripts/*.sh,kit:*.sh dir=bi valve=PROPOSED tier=align-only mode=staged trigger=*.sh
# spec: gate-sdk/SPEC.md §check-bar — scripts stay lint-clean
# install: on-surface
# armed-by: content GATE_SDK_MSG_PATTERN_FILES GATE_SDK_MSG_PATTERN_FILES_LOCAL
# port-until: port-check-bar
# usage: check-bar.sh [path...]
# knob: a shell header's own note, not a declaration

set -euo pipefail
cat > "$tmp/x.sh" <<'INNER'
# graph: couples=ignored dir=two valve=none tier=push
# reads: not a header line either
INNER
