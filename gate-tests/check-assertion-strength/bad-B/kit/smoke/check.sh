#!/usr/bin/env bash
# assertion-strength-exempt:
"$SMOKE_KIT_ROOT/bin/pause.sh" || echo "did not STALE"
