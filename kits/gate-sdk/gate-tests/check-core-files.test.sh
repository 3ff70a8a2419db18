#!/usr/bin/env bash
# check-core-files.test.sh — what the pair cannot carry: the kit: expansion
# over a root set from the knob, the wildcard refusal (exit 2), a listed
# file present but never added, plain rm and git rm, the absent and the
# unreadable manifest, and the non-repository refusal.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

gate=check-core-files
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

repo expansion
printf 'a\n' | put a-kit/SPEC.md
printf 'b\n' | put b-kit/README.md
printf 'kit:SPEC.md\n' | put scripts/core-files.list
GATE_SDK_KIT_DIRS='a-kit b-kit' expect kit-expansion 1 'b-kit/SPEC.md: core file listed in scripts/core-files.list:1 as kit:SPEC.md is missing from the worktree'
lacks kit-expansion-a-present 'a-kit/SPEC.md:'
printf 'b\n' | put b-kit/SPEC.md
GATE_SDK_KIT_DIRS='a-kit b-kit' expect kit-expansion-clean 0 'CHECK-CORE-FILES: clean (2 core files present and tracked)'
printf 'kit:checks/*.sh\n' | put scripts/core-files.list
GATE_SDK_KIT_DIRS='a-kit b-kit' expect wildcard 2 'carries a wildcard'

repo tracking
printf 'r\n' | put README.md
printf 'g\n' | put gone-rm.md
printf 'g\n' | put gone-git-rm.md
printf 'README.md\ngone-rm.md\ngone-git-rm.md\nnever-added.md\n' | put scripts/core-files.list
printf 'n\n' | loose never-added.md
rm "$dir/gone-rm.md"
git -C "$dir" rm -qf -- gone-git-rm.md
expect plain-rm 1 'gone-rm.md: core file listed in scripts/core-files.list:2 is missing from the worktree'
expect git-rm 1 'gone-git-rm.md: core file listed in scripts/core-files.list:3 is missing from the worktree'
expect never-added 1 'never-added.md: core file listed in scripts/core-files.list:4 exists but is not tracked'

repo postures
printf 'r\n' | put README.md
expect absent 0 'CHECK-CORE-FILES: clean (no manifest at scripts/core-files.list: no core file pinned)'
mkdir -p "$dir/scripts/core-files.list"
expect unreadable 2 'cannot read scripts/core-files.list'
GATE_SDK_CORE_FILES_FILE=other.list expect knob-relocates 0 'no manifest at other.list'

plain not-a-repo
printf 'README.md\n' | put scripts/core-files.list
expect non-repo 2 'not inside a git repository'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
