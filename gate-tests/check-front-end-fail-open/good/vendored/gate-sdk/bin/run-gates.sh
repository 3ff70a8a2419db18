#!/usr/bin/env bash
# A stub's fail-open set: FAIL_OPEN_ARMS names the arms that decline at 0.
FAIL_OPEN_ARMS='--hook --statusline'
ARM_UNAVAILABLE_STATUS=2
for _rg_arm in $FAIL_OPEN_ARMS; do
	if [ "${1-}" = "$_rg_arm" ]; then ARM_UNAVAILABLE_STATUS=0; fi
done
exit "$ARM_UNAVAILABLE_STATUS"
