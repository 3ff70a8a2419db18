#!/usr/bin/env bash
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"
if ! bash "$GATE_SDK_ROOT/../kit/bin/pause.sh"; then
	echo "FAIL: did not PAUSE"
fi
"$(dirname -- "${BASH_SOURCE[0]}")/../bin/pause.sh" || echo "FAIL: want RESET-OK"
