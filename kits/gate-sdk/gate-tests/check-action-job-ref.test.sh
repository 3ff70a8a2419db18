#!/usr/bin/env bash
# check-action-job-ref.test.sh — the disarmed clean (an empty
# GATE_SDK_JOB_REF_PATTERNS is a skip naming the knob) and the refusal of a
# pattern that does not compile.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

set -u
gate=check-action-job-ref
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

repo empty-knob
printf 'The `build-gone` job.\n' | put README.md
expect empty-knob 0 'CHECK-ACTION-JOB-REF: clean (GATE_SDK_JOB_REF_PATTERNS is empty: no job reference is checked)'

repo bad-pattern
printf 'The `build-gone` job.\n' | put README.md
printf 'GATE_SDK_JOB_REF_PATTERNS[] = (\n' | put scripts/gate-sdk-config.knobs
GATE_SDK_KNOB_FILE="$dir/scripts/gate-sdk-config.knobs" expect bad-pattern 2 'GATE_SDK_JOB_REF_PATTERNS'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
