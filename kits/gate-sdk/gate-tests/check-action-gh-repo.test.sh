#!/usr/bin/env bash
# check-action-gh-repo.test.sh — the inert postures: a tree with no YAML, and
# workflows with no job calling gh, are clean on a zero count.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

set -u
gate=check-action-gh-repo
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

repo no-yaml
printf '# nothing here\n' | put README.md
expect no-yaml 0 'CHECK-ACTION-GH-REPO: clean (no YAML file under .: no job to check)'

repo no-gh
put .github/workflows/ci.yml <<'YAML'
name: t
on: push
jobs:
  b:
    runs-on: ubuntu-latest
    steps:
      - run: echo ghost
YAML
expect no-gh 0 'CHECK-ACTION-GH-REPO: clean (0 jobs calling gh with a repository context, 1 job without gh, 0 jobs exempt; 1 workflow, 0 actions skipped)'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
