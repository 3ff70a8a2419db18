#!/usr/bin/env bash
# A smoke that sets a credential knob pins every kit-tool call to it.
X_CRED_FILE="$PWD/scratch-cred.json"
printf '{}' >"$X_CRED_FILE"
X_CRED_FILE="$PWD/scratch-cred.json" "$SMOKE_KIT_ROOT/bin/tool.sh" --check
out=$(X_CRED_FILE=$PWD/scratch-cred.json bash "${SMOKE_KIT_ROOT}/bin/tool.sh" --list)
# hermetic-exempt: --version reads no credential
"$SMOKE_KIT_ROOT/bin/tool.sh" --version
echo "$out"
