#!/usr/bin/env bash
export X_CRED_FILE="$PWD/scratch-cred.json"
X_CRED_FILE="$X_CRED_FILE" "$SMOKE_KIT_ROOT/bin/tool.sh" --check
# The exported knob is not a pin on this line: the call is what is held.
"$SMOKE_KIT_ROOT/bin/tool.sh" --status
