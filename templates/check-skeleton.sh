#!/usr/bin/env bash
# check-example — <one line: the invariant this gate holds over the tree>.
# graph: couples=<globs the gate reads> dir=one valve=none tier=precommit
# spec: <path/to/SPEC.md> §<section> — <the invariant, in one sentence>
# no-port: this template is copied, never compiled; delete this line in your copy, since your gate's port disposition is its own.
#
# `gates new <name>` writes a copy of this file into your gates dir as
# check-<name>.sh, with its fixture pair and its registration. By hand: copy
# it there, rename the gate in GATE, replace the placeholders above, write
# the rule in scan(), add a fixture pair under <gates-dir>/gate-tests/
# check-<name>/{good,bad}/ (GATE_SDK_TESTS_DIR; bad/ needs an expect.txt of
# whole output lines), and list the name in <gates-dir>/gates.list.
#
# The contract the runner and the fixture harness hold every gate to:
#   clean:     exactly one line `CHECK-<NAME>: clean (<what was checked>)`, exit 0
#   findings:  one `path:line: message` line each, then one `help:` line per
#              failure class naming the fix, exit 1
#   harness:   anything that kept the check from running, exit 2, never clean

set -uo pipefail

GATE=check-example
ID="$(printf '%s' "${GATE#check-}" | tr 'abcdefghijklmnopqrstuvwxyz-' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ-')"

# shellcheck source=/dev/null
. "${GATE_SDK_ROOT:-gate-sdk}/lib/gate.sh" || {
	printf '%s: cannot source %s/lib/gate.sh (set GATE_SDK_ROOT to the vendored kit)\n' \
		"$GATE" "${GATE_SDK_ROOT:-gate-sdk}" >&2
	exit 2
}

# Operands: an optional scan root, default the working directory.
case ${1-} in
-h | --help)
	printf 'usage: %s [<root>]\n' "$GATE"
	exit 0
	;;
-*)
	printf '%s: unrecognized option %s\nusage: %s [<root>]\n' "$GATE" "$1" "$GATE" >&2
	exit 2
	;;
esac
root="${1:-.}"
[ -d "$root" ] || {
	printf '%s: %s is not a directory\n' "$GATE" "$root" >&2
	exit 2
}

# The corpus: files under the root, the prune set (GATE_SDK_PRUNE_DIRS)
# skipped. Capture, then check the status: an empty list from a crashed walk
# must not read as "nothing to check".
files="$(gate_find "$root" -type f -name '*.md')"
fail_closed "$?" "$GATE" find

# scan FILE — prints one `path:line: message` per finding. The awk status is
# checked by the caller: a crashed awk is exit 2, not a clean file.
scan() {
	awk -v f="$1" '
		/TODO-EXAMPLE/ { printf "%s:%d: placeholder marker left in the text\n", f, FNR }
	' "$1"
}

count=0
findings=''
while IFS= read -r f; do
	[ -n "$f" ] || continue
	count=$((count + 1))
	out="$(scan "$f")"
	fail_closed "$?" "$GATE" "awk over $f"
	[ -z "$out" ] || findings+="$out"$'\n'
done <<<"$files"

if [ -n "$findings" ]; then
	printf '%s' "$findings"
	printf 'help: replace each placeholder marker with the text it stands for\n'
	exit 1
fi
printf '%s: clean (%d files checked)\n' "$ID" "$count"
exit 0
