#!/usr/bin/env bash
# check-commit-subject.test.sh — the no-argument clean skip, a missing
# message file, every subject the section lists on both sides, and the
# roster knob narrowing the admitted types.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

gate=check-commit-subject
set -u
checks="$GATE_SDK_ROOT/checks"
pass=0
fail=0
sandbox="$(mktemp -d "${TMPDIR:-/tmp}/$gate.XXXXXX")" || exit 2
trap 'rm -rf "$sandbox"' EXIT

# repo NAME — a fresh repository; the files put after it land there.
repo() {
	dir="$sandbox/$1"
	mkdir -p "$dir" && git -C "$dir" init -q || exit 2
}
# plain NAME — a fresh directory that is no repository.
plain() {
	dir="$sandbox/$1"
	mkdir -p "$dir" || exit 2
}
# put PATH — writes stdin to PATH in the current directory and stages it
# when the directory is a repository.
put() {
	mkdir -p "$(dirname -- "$dir/$1")" && cat >"$dir/$1" || exit 2
	if [ -d "$dir/.git" ]; then git -C "$dir" add -- "$1" || exit 2; fi
}
# loose PATH — writes stdin to PATH without staging it.
loose() {
	mkdir -p "$(dirname -- "$dir/$1")" && cat >"$dir/$1" || exit 2
}
# run [ARG...] — runs the gate by name in the current directory.
run() {
	(cd "$dir" && gate_run "$gate" "$checks" "$@") >"$sandbox/out" 2>"$sandbox/err"
}
# expect NAME CODE TEXT [ARG...] — the run exits CODE and prints TEXT
# (stdout or stderr, a fixed-string line fragment).
expect() {
	local name="$1" code="$2" text="$3" rc
	shift 3
	run "$@"
	rc=$?
	if [ "$rc" = "$code" ] && grep -qF -- "$text" "$sandbox/out" "$sandbox/err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf 'FAIL: %s: exit %s (want %s), want %q in:\n' "$name" "$rc" "$code" "$text"
		cat "$sandbox/out" "$sandbox/err"
	fi
}
# lacks NAME TEXT — the last run's output does not hold TEXT.
lacks() {
	if grep -qF -- "$2" "$sandbox/out" "$sandbox/err"; then
		fail=$((fail + 1))
		printf 'FAIL: %s: output holds %q:\n' "$1" "$2"
		cat "$sandbox/out" "$sandbox/err"
	else
		pass=$((pass + 1))
	fi
}
# check NAME COMMAND... — a plain assertion.
check() {
	local name="$1"
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf 'FAIL: %s\n' "$name"
	fi
}

plain subject
expect no-argument 0 'CHECK-COMMIT-SUBJECT: clean (no message file given: nothing to check outside a commit)'
expect missing-message 2 'message file gone.txt does not exist' gone.txt
for s in 'feat: x' 'fix(internal/ere): y' 'refactor!: z' 'feat(cli)!: z' "Merge branch 'main'" 'Revert "feat: x"' 'fixup! feat: x' 'squash! fix: y'; do
	printf '%s\n\nbody\n' "$s" >"$dir/msg"
	expect "pass: $s" 0 'CHECK-COMMIT-SUBJECT: clean (subject parses' msg
done
for s in 'Feat: x' 'feature: x' 'wip' 'feat:x' 'feat (cli): x' 'feat(CLI): x' 'feat(): x' 'amend! feat: x'; do
	printf '%s\n' "$s" >"$dir/msg"
	expect "fail: $s" 1 "msg:1: subject \"$s\" does not parse" msg
done
printf 'docs: x\n' >"$dir/msg"
GATE_SDK_COMMIT_TYPES='feat fix' expect roster-knob 1 'with <type> one of: feat fix;' msg

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
