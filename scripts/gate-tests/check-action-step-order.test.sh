#!/usr/bin/env bash
# check-action-step-order.test.sh — the two disarmed cleans: either
# GATE_LOCAL_ knob declared empty skips the check and names that knob.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/../../kits/gate-sdk}/lib/test-hermetic.sh"

set -u
gate=check-action-step-order
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

workflow='name: t
on: push
jobs:
  b:
    runs-on: ubuntu-latest
    steps:
      - run: cargo build'

repo no-programs
printf '%s\n' "$workflow" | put .github/workflows/ci.yml
put scripts/check-action-step-order.gate <<'GATE'
# graph: couples=*.yml,*.yaml dir=one valve=none tier=precommit
# knob: GATE_LOCAL_STEP_ORDER_ACTION = ./.github/actions/toolchain
# knob: GATE_LOCAL_STEP_ORDER_PROGRAMS =
GATE
expect no-programs 0 'CHECK-ACTION-STEP-ORDER: clean (GATE_LOCAL_STEP_ORDER_PROGRAMS is empty: no step order is checked)'

repo no-action
printf '%s\n' "$workflow" | put .github/workflows/ci.yml
put scripts/check-action-step-order.gate <<'GATE'
# graph: couples=*.yml,*.yaml dir=one valve=none tier=precommit
# knob: GATE_LOCAL_STEP_ORDER_ACTION =
# knob: GATE_LOCAL_STEP_ORDER_PROGRAMS[] = cargo
GATE
expect no-action 0 'CHECK-ACTION-STEP-ORDER: clean (GATE_LOCAL_STEP_ORDER_ACTION is empty: no step order is checked)'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
