#!/bin/sh
# spec: demo-kit/SPEC.md §check-foo — our local gloss on the same rule
# copy-divergence: local_extra — this repository also screens generated files
LIMIT=${DEMO_FOO_LIMIT:-12}
scan_one() {
	case "$1" in
	*.md|*.txt) gate_fail "$1 is past our limit of $LIMIT" ;;
	generated/*) gate_note "$1 is generated" ;;
	*)
		gate_note "$1 skipped" ;;
	esac
}
# A reworded, reordered copy with its own steering comments.
for f in "$@"; do scan_one "$f"; local_extra "$f"; done
gate_clean "foo"
