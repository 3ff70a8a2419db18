#!/usr/bin/env bash
# check-portability-floor.test.sh — the two disabled cleans and their
# sentences, the ASCII arm under an absent roster, the same knobs finding
# the violation once set, the GNU-escape refusal, the unreadable pattern
# file, the binary skip and count, a name git quotes, and the record order.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

gate=check-portability-floor
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

dash="$(printf '\342\200\224')"

repo floor
printf '#!/bin/sh\nsed -i s/a/b/ f\nls\nsed -i s/c/d/ g\n' | put install/a.sh
printf 'Write-Host "done %s ok"\n' "$dash" | put install/Setup.ps1
printf '\000binary sed -i blob\n' | put install/blob.bin
expect no-corpus 0 'CHECK-PORTABILITY-FLOOR: clean (no corpus configured: GATE_SDK_PORTABILITY_PATHS is empty, both arms off)'
GATE_SDK_PORTABILITY_PATHS=install expect ascii-arm-without-roster 1 "install/Setup.ps1:1:Write-Host \"done $dash ok\" (non-ASCII outside a comment)"
lacks roster-arm-off 'undeclared construct'
GATE_SDK_PORTABILITY_PATHS=install/a.sh expect roster-off-sentence 0 'roster arm off: no portability pattern in scripts/portability-patterns.list (absent)'
printf '(^|[^A-Za-z0-9_-])sed[[:blank:]]+-i([[:blank:]]|$)\n' | put scripts/portability-patterns.list
GATE_SDK_PORTABILITY_PATHS=install expect knobs-find-it 1 'install/a.sh:2:sed -i s/a/b/ f (undeclared construct'
check record-order sh -c "grep -v '^help:' '$sandbox/out' | cut -d: -f1,2 | tr '\n' ' ' | grep -qx 'install/Setup.ps1:1 install/a.sh:2 install/a.sh:4 '"
GATE_SDK_PORTABILITY_PATHS='install :(exclude)install/Setup.ps1 :(exclude)install/a.sh' expect binary-skip-count 0 '0 files hold no undeclared construct of 1 patterns; 0 PowerShell members ASCII outside comments; 1 binary members skipped'
printf '\\bsed -i\n' >"$dir/gnu.list"
GATE_SDK_PORTABILITY_PATHS=install GATE_SDK_PORTABILITY_PATTERNS=gnu.list expect gnu-escape 2 'GNU extension'
mkdir -p "$dir/dir.list"
GATE_SDK_PORTABILITY_PATHS=install GATE_SDK_PORTABILITY_PATTERNS=dir.list expect unreadable-pattern-file 2 'dir.list'
GATE_SDK_PORTABILITY_PATHS=install GATE_SDK_PORTABILITY_PATTERNS='gone.list scripts/portability-patterns.list' expect absent-file-skipped 1 'install/a.sh:4:'

repo quoted
printf 'sed -i\n' | put scripts/portability-patterns.list
printf 'sed -i x\n' | put 'install/naïve dir/ä.sh'
GATE_SDK_PORTABILITY_PATHS=install expect quoted-name 1 'install/naïve dir/ä.sh:1:sed -i x (undeclared construct sed -i)'

plain not-a-repo
printf 'x\n' | put install/a.sh
GATE_SDK_PORTABILITY_PATHS=install expect non-repo 2 'not a git repository'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
