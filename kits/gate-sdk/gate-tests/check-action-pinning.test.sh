#!/usr/bin/env bash
# check-action-pinning.test.sh — the postures a one-verdict case cannot hold:
# a tree with no YAML is clean on a zero count, the scan-root operand narrows
# the walk, and a root that is not a directory refuses.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

set -u
gate=check-action-pinning
pass=0
fail=0
sandbox="$(mktemp -d "${TMPDIR:-/tmp}/$gate.XXXXXX")" || exit 2
trap 'rm -rf "$sandbox"' EXIT

# repo NAME — a fresh repository holding the files written after it.
repo() {
	dir="$sandbox/$1"
	mkdir -p "$dir" && git -C "$dir" init -q || exit 2
}
# put PATH — writes stdin to a file of the current repository and stages it.
put() {
	mkdir -p "$(dirname -- "$dir/$1")" && cat >"$dir/$1" && git -C "$dir" add -- "$1" || exit 2
}
# expect NAME CODE TEXT [ARG...] — runs the gate in the current repository.
expect() {
	local name="$1" code="$2" text="$3" rc
	shift 3
	(cd "$dir" && "$GATE_SDK_NATIVE_BIN" "$gate" "$@") >"$sandbox/out" 2>"$sandbox/err"
	rc=$?
	if [ "$rc" = "$code" ] && grep -qF -- "$text" "$sandbox/out" "$sandbox/err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf 'FAIL: %s: exit %s (want %s), want %q in:\n' "$name" "$rc" "$code" "$text"
		cat "$sandbox/out" "$sandbox/err"
	fi
}

repo no-yaml
printf '# nothing here\n' | put README.md
expect no-yaml 0 'CHECK-ACTION-PINNING: clean (no YAML file under .: nothing to check)'

repo root
printf 'steps:\n  - uses: a/b@v1\n' | put outside.yml
printf 'steps:\n  - uses: ./.github/actions/x\n' | put sub/inside.yml
expect scan-root 0 'CHECK-ACTION-PINNING: clean (1 uses: ref pinned across 1 YAML file)' sub
expect whole-tree 1 'outside.yml:2: uses: a/b@v1'
expect not-a-dir 2 'scan root outside.yml is not a directory' outside.yml

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
