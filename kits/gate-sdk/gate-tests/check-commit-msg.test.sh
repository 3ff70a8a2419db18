#!/usr/bin/env bash
# check-commit-msg.test.sh — the edges a one-verdict pair cannot hold: the
# no-argument clean skip, a named message file that does not exist, the
# required tracked list missing through the knob, an absent local list
# skipped and a present one read, an empty set, and a GNU escape.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

gate=check-commit-msg
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

repo msg
expect no-argument 0 'CHECK-COMMIT-MSG: clean (no message file given: nothing to check outside a commit)'
expect missing-message 2 'message file /nonexistent does not exist' /nonexistent
printf 'fix: x\n\ninternal codename zephyr\n' >"$dir/COMMIT_EDITMSG"
expect missing-required-list 2 'scripts/msg-patterns.list (from GATE_SDK_MSG_PATTERN_FILES) does not exist' COMMIT_EDITMSG
printf '# generic shapes only\n' | put scripts/msg-patterns.list
expect empty-set 0 'CHECK-COMMIT-MSG: clean (no banned pattern configured: message unchecked)' COMMIT_EDITMSG
printf 'zephyr\n' >"$dir/scripts/msg-patterns.local.list"
expect local-list-read 1 'COMMIT_EDITMSG:3: matches banned pattern zephyr (scripts/msg-patterns.local.list:1)' COMMIT_EDITMSG
expect remedy 1 'Do not use `git commit --amend`' COMMIT_EDITMSG
printf 'foo\\bbar\n' >"$dir/gnu.list"
expect gnu-escape 2 'GNU extension' COMMIT_EDITMSG gnu.list
GATE_SDK_MSG_PATTERN_FILES_LOCAL=elsewhere.list expect absent-local-skipped 0 'clean (no banned pattern configured' COMMIT_EDITMSG

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
