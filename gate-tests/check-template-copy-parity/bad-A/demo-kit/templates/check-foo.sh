#!/bin/sh
# spec: demo-kit/SPEC.md §check-foo — the foo rule, as the kit states it
LIMIT=${DEMO_FOO_LIMIT:-10}
scan_one() {
	case "$1" in
	*.md) gate_fail "$1 is over the limit $LIMIT" ;;
	*)
		gate_note "$1 skipped"
		;;
	esac
}
for f in "$@"; do scan_one "$f"; done
gate_clean "foo"
