#!/usr/bin/env bash
# A smoke whose guards are as strong as their messages.
K="$SMOKE_KIT_ROOT"
"$K/bin/plain.sh" || echo "PAUSE (plain.sh declares no contract)"
if ! "$K/bin/pause.sh"; then
	echo "the tool did not finish"
fi
"$K/bin/pause.sh"
rc=$?
[ "$rc" -eq 1 ] || echo "did not PAUSE"
if "$K/bin/pause.sh"; then :; else
	rc=$?
	[ "$rc" -eq 2 ] && echo "STALE, as expected"
fi
"$K/bin/pause.sh" && echo "OK is code 0, which truthiness does tell apart"
# assertion-strength-exempt: here PAUSE and STALE both mean the stop was refused
"$K/bin/pause.sh" || echo "refused: PAUSE"
"$K/bin/pause.sh" || {
	echo "the tool failed"
	:
	:
	:
	:
	:
	:
	:
	echo "PAUSE is named past the window"
}
