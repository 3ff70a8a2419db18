#!/usr/bin/env bash
# check-tree-terms.test.sh — what a case dir cannot hold: the
# non-repository refusal, the required pattern file resolved through the
# knob (the pair passes a positional), the empty-set clean, the path-only
# binary record, the record order, a name git quotes, a GNU escape, and the
# dangling-symlink arm (skipped) beside a resolving link (scanned).
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

gate=check-tree-terms
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

# Banned shapes are composed here, not spelled, as everywhere outside a
# fixture tree.
home="/ho""me/alice/"

plain not-a-repo
printf '/home/[a-z]+/\n' | put p.list
expect non-repo 2 'not inside a git repository' . p.list

repo knobs
printf 'nothing to see\n' | put README.md
GATE_SDK_MSG_PATTERN_FILES=lists/required.list expect missing-required 2 'lists/required.list (from GATE_SDK_MSG_PATTERN_FILES) does not exist'
printf '# no pattern yet\n\n' | put lists/required.list
GATE_SDK_MSG_PATTERN_FILES=lists/required.list expect empty-set 0 'CHECK-TREE-TERMS: clean (no banned pattern configured: tree unchecked)'
printf 'nothing\n' | put lists/required.list
GATE_SDK_MSG_PATTERN_FILES=lists/required.list GATE_SDK_MSG_PATTERN_FILES_LOCAL=lists/absent.local.list \
	expect knob-set-finds-it 1 'README.md:1:nothing to see'
printf 'foo\\sbar\n' >"$dir/gnu.list"
expect gnu-escape 2 'GNU extension' . gnu.list
expect gnu-names-pattern 2 'foo\sbar' . gnu.list

repo records
printf '/home/[a-z]+/\n' >"$dir/p.list"
printf 'a\nsee %sx\n' "$home" | put docs/a.md
printf '\177ELF\000junk %sbuild\000\n' "$home" | put bin/gates
printf 'one %sx\ntwo\none %sx\n' "$home" "$home" | put 'docs/naïve notes.md'
expect binary-path-only 1 'bin/gates' . p.list
check binary-record-is-the-path grep -qx 'bin/gates' "$sandbox/out"
check binary-has-no-lineno sh -c "! grep -q '^bin/gates:' '$sandbox/out'"
check record-order sh -c "grep -v '^help:' '$sandbox/out' | cut -d: -f1,2 | tr '\n' ' ' | grep -qx 'bin/gates docs/a.md:2 docs/naïve notes.md:1 docs/naïve notes.md:3 '"
expect quoted-name 1 "docs/naïve notes.md:1:one ${home}x" . p.list

repo links
printf '/home/[a-z]+/\n' >"$dir/p.list"
printf 'clean\n' | put README.md
if ln -s "${home}gone" "$dir/dangling" 2>/dev/null; then
	git -C "$dir" add -- dangling
	check dangling-is-120000 test "$(git -C "$dir" ls-files -s -- dangling | cut -c1-6)" = 120000
	printf 'untracked target %sx\n' "$home" >"$dir/target.txt"
	ln -s target.txt "$dir/resolving"
	git -C "$dir" add -- resolving
	expect resolving-link-scanned 1 "resolving:1:untracked target ${home}x" . p.list
	lacks dangling-link-skipped 'dangling'
else
	printf '%s: symlinks unavailable here; the dangling-link arm is skipped\n' "$gate"
fi

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
