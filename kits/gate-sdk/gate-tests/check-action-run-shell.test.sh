#!/usr/bin/env bash
# check-action-run-shell.test.sh — the postures a one-verdict case cannot
# hold: the five refused constructs (exit 2, naming the construct), a host
# with no shellcheck (exit 2, naming it), and a tree with no YAML (clean on
# a zero count). Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

set -u
gate=check-action-run-shell
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
# expect NAME CODE TEXT [ENV...] — runs the gate in the current repository.
expect() {
	local name="$1" code="$2" text="$3" rc
	shift 3
	(cd "$dir" && env "$@" "$GATE_SDK_NATIVE_BIN" "$gate") >"$sandbox/out" 2>"$sandbox/err"
	rc=$?
	if [ "$rc" = "$code" ] && grep -qF -- "$text" "$sandbox/out" "$sandbox/err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf 'FAIL: %s: exit %s (want %s), want %q in:\n' "$name" "$rc" "$code" "$text"
		cat "$sandbox/out" "$sandbox/err"
	fi
}

head='name: t
on: push
jobs:
  b:
    runs-on: ubuntu-latest
    steps:'

refused() { # refused NAME RUN-LINES TEXT
	repo "$1"
	printf '%s\n%s\n' "$head" "$2" | put .github/workflows/ci.yml
	expect "$1" 2 "$3"
}
refused folded '      - run: >-
          echo hi' 'a folded block scalar (run: >-)'
refused indicator '      - run: |2
            echo hi' 'an explicit indentation indicator (run: |2)'
refused alias '      - run: *body' 'an anchor or alias as the run: value'
refused unbalanced '      - run: |
          echo ${{ github.sha' 'an unbalanced ${{'

repo defaults
put .github/workflows/ci.yml <<'YAML'
name: t
on: push
defaults:
  run:
    shell: pwsh
jobs:
  b:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo hi
YAML
expect defaults 2 'ci.yml:3: cannot read a defaults: block that sets run:'

repo no-shellcheck
printf '%s\n%s\n' "$head" '      - run: |
          echo hi' | put .github/workflows/ci.yml
# A PATH holding git alone: the tree still lists, shellcheck is gone.
mkdir -p "$sandbox/git-only" && ln -s "$(command -v git)" "$sandbox/git-only/git" || exit 2
expect no-shellcheck 2 'shellcheck is not on PATH' PATH="$sandbox/git-only"

repo no-yaml
printf '# nothing here\n' | put README.md
expect no-yaml 0 'CHECK-ACTION-RUN-SHELL: clean (no YAML file under .: nothing to lint)'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
