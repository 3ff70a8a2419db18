#!/usr/bin/env bash
# check-exec-bit.test.sh — the live index path a dump-driven pair cannot
# reach: a KPI staged 100644 then 100755, the script class masking the
# descriptor class, a descriptor staged executable, a name git quotes, and
# the non-repository refusal.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

gate=check-exec-bit
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

repo live
printf '#!/bin/sh\necho ok\n' | put drift-kit/kpis/kpi-y.sh
git -C "$dir" update-index --chmod=-x -- drift-kit/kpis/kpi-y.sh
check "index holds the KPI at 100644" test "$(git -C "$dir" ls-files -s -- drift-kit/kpis/kpi-y.sh | cut -c1-6)" = 100644
expect kpi-100644 1 'drift-kit/kpis/kpi-y.sh: index mode 100644, a script under an exec glob must be 100755'
git -C "$dir" update-index --chmod=+x -- drift-kit/kpis/kpi-y.sh
expect kpi-100755 0 'CHECK-EXEC-BIT: clean (1 scripts under the exec globs are 100755'

# The worktree mode is not read: only the index counts.
chmod -x "$dir/drift-kit/kpis/kpi-y.sh"
expect worktree-only 0 'CHECK-EXEC-BIT: clean ('

repo masked
printf '#!/bin/sh\n' | put kit/checks/check-a.sh
git -C "$dir" update-index --chmod=-x -- kit/checks/check-a.sh
printf '# graph: couples=* dir=one valve=none tier=precommit\n' | put kit/checks/check-b.gate
git -C "$dir" update-index --chmod=+x -- kit/checks/check-b.gate
expect script-first 1 'kit/checks/check-a.sh: index mode 100644'
lacks script-first-hides-descriptor 'check-b.gate'
git -C "$dir" update-index --chmod=+x -- kit/checks/check-a.sh
expect descriptor-next 1 'kit/checks/check-b.gate: index mode 100755, a .gate descriptor must be 100644'

repo quoted
printf '#!/bin/sh\n' | put 'kit/bin/naïve tool.sh'
git -C "$dir" update-index --chmod=-x -- 'kit/bin/naïve tool.sh'
expect quoted-name 1 'kit/bin/naïve tool.sh: index mode 100644'

repo gates-dir
printf '#!/bin/sh\n' | put .gates/check-local.sh
git -C "$dir" update-index --chmod=-x -- .gates/check-local.sh
GATE_SDK_GATES_DIR=.gates expect computed-glob 1 '.gates/check-local.sh: index mode 100644'

plain not-a-repo
expect non-repo 2 'not inside a git repository'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
