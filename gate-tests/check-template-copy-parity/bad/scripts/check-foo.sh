#!/bin/sh
# spec: demo-kit/SPEC.md §check-bar — pointed at the wrong section
# copy-divergence:
LIMIT=${DEMO_FOO_LIMIT:-10}
scan_one() {
	case "$1" in
	*.md) gate_fail "$1 is over the limit $LIMIT" ;;
	*) gate_note "$1 skipped" ;;
	esac
}
for f in "$@"; do scan_one "$f"; local_extra "$f"; done
