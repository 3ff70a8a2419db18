#!/usr/bin/env bash
# check-harness-literal.test.sh — each disabled clean in its own sentence,
# the same knobs finding the literal once set, a literal spelled with
# pattern syntax read as a fixed string, the binary skip and count, a name
# git quotes, and the non-repository refusal.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/../../kits/gate-sdk}/lib/test-hermetic.sh"

gate=check-harness-literal
set -u
checks="$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
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

repo literal
printf '# Doc\n\nexport $HARNESS_PROJECT_DIR\n' | put README.md
printf 'pattern text A.*B stays literal\nAxxB is not it\n' | put docs/syntax.md
printf '\000HARNESS_PROJECT_DIR in a blob\n' | put docs/blob.md
expect no-corpus 0 'CHECK-HARNESS-LITERAL: clean (no corpus configured: GATE_SDK_HARNESS_LITERAL_PATHS is empty, gate off)'
GATE_SDK_HARNESS_LITERAL_PATHS='*.md' expect no-literal 0 'CHECK-HARNESS-LITERAL: clean (no literal listed: GATE_SDK_HARNESS_LITERALS is empty, gate off)'
GATE_SDK_HARNESS_LITERALS=HARNESS_PROJECT_DIR GATE_SDK_HARNESS_LITERAL_PATHS='*.md' \
	expect knobs-find-it 1 'README.md:3:export $HARNESS_PROJECT_DIR (harness literal HARNESS_PROJECT_DIR)'
GATE_SDK_HARNESS_LITERALS='A.*B' GATE_SDK_HARNESS_LITERAL_PATHS='docs' \
	expect fixed-string 1 'docs/syntax.md:1:pattern text A.*B stays literal (harness literal A.*B)'
lacks not-a-pattern 'AxxB'
GATE_SDK_HARNESS_LITERALS=HARNESS_PROJECT_DIR GATE_SDK_HARNESS_LITERAL_PATHS='docs' \
	expect binary-skip-count 0 'CHECK-HARNESS-LITERAL: clean (1 files carry none of 1 harness literals outside a harness-binding; 1 binary members skipped)'
printf 'uses HARNESS_PROJECT_DIR\n' | put 'docs/naïve page.md'
GATE_SDK_HARNESS_LITERALS=HARNESS_PROJECT_DIR GATE_SDK_HARNESS_LITERAL_PATHS='docs' \
	expect quoted-name 1 'docs/naïve page.md:1:uses HARNESS_PROJECT_DIR'

plain not-a-repo
printf 'HARNESS_PROJECT_DIR\n' | put a.md
GATE_SDK_HARNESS_LITERALS=HARNESS_PROJECT_DIR GATE_SDK_HARNESS_LITERAL_PATHS='*.md' expect non-repo 2 'not a git repository'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
