#!/usr/bin/env bash
# Walks through the steps, pausing between them unless asked not to.
SKIP_PAUSE=true
. ../third_party/pause/pause.sh
echo "step one"
pause
