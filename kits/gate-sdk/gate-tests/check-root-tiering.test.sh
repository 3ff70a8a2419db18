#!/usr/bin/env bash
# check-root-tiering.test.sh — what the pair cannot carry: an untracked
# root file left alone, the agent-file knob moving the built-in entry, the
# unreadable allowlist refusal, and the non-repository refusal.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

gate=check-root-tiering
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

repo roots
printf '# R\n' | put README.md
printf '# A\n' | put AGENTS.md
printf 'scratch\n' | loose notes.txt
expect agent-file-default 1 'AGENTS.md: tracked top-level entry is not on the root allowlist (the built-in set, no scripts/root-allowlist.list)'
lacks untracked-ignored 'notes.txt'
GATE_SDK_AGENT_FILE=AGENTS.md expect agent-file-knob 0 'CHECK-ROOT-TIERING: clean (2 top-level entries allowed by the built-in set'
mkdir -p "$dir/scripts/root-allowlist.list"
expect unreadable-allowlist 2 'cannot read scripts/root-allowlist.list'

plain not-a-repo
printf '# R\n' | put README.md
expect non-repo 2 'not inside a git repository'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
