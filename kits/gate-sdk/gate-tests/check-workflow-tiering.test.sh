#!/usr/bin/env bash
# check-workflow-tiering.test.sh — the partition arm, which a tracked
# fixture cannot hold (an untracked file, an untracked directory, ignored
# capture), the knob naming a directory the tree lacks, and the
# non-repository refusal.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

gate=check-workflow-tiering
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

repo partition
printf '.workflow/*.log\n.workflow/cache/\n' | put .gitignore
printf '# contract: SPEC.md §The queue\n' | put .workflow/queue.md
printf 'capture\n' | loose .workflow/run.log
printf 'blob\n' | loose .workflow/cache/blob
expect ignored-and-tracked 0 'CHECK-WORKFLOW-TIERING: clean (every member of .workflow is tracked or ignored; 1 tracked files carry a contract header)'
printf 'draft\n' | loose .workflow/scratch.md
printf 'draft\n' | loose .workflow/drafts/a.md
expect untracked-file 1 '.workflow/scratch.md: neither tracked nor ignored'
expect untracked-dir 1 '.workflow/drafts/: neither tracked nor ignored'
lacks ignored-not-reported 'run.log'
GATE_SDK_WORKFLOW_DIR=state expect missing-dir 2 'GATE_SDK_WORKFLOW_DIR names state, which this tree lacks'
mkdir -p "$dir/state"
printf 'x\n' | put state/a.md
GATE_SDK_WORKFLOW_DIR=state/ expect knob-relocates 1 'state/a.md:1: first line "x" is not a # contract: header'

plain not-a-repo
printf '# contract: SPEC.md §The queue\n' | put .workflow/queue.md
expect non-repo 2 'not inside a git'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
