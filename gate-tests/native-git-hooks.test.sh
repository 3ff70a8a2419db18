#!/usr/bin/env bash
# native-git-hooks.test.sh — the placed hooks under real commits: a green
# commit lands, a red one is refused with the bypass line, a linked
# worktree's member sees its own work tree, the launcher reads only its one
# knob, and --refresh re-links the hooks to a rebuilt binary.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
name=native-git-hooks
pass=0
fail=0
sandbox="$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")" || exit 2
trap 'rm -rf "$sandbox"' EXIT
sandbox="$(CDPATH='' cd -- "$sandbox" && pwd -P)" || exit 2

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE CLAUDECODE GATE_SDK_AGENT

# A host with an executable suffix cannot start a sh stub under the
# binary's name, so the two stub cases are skipped there.
exe_suffix=''
case $(uname -s 2>/dev/null) in MINGW* | MSYS* | CYGWIN* | Windows*) exe_suffix=.exe ;; esac

ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$1"
	[ -f "$sandbox/out" ] && cat "$sandbox/out"
}

# gate NAME CODE [BODY] — a consumer gate in scripts/ of the current repo.
gate() {
	mkdir -p "$repo/scripts"
	printf '#!/usr/bin/env bash\n# graph: couples=*.md dir=one valve=none tier=precommit\n%s\nexit %s\n' "${3-}" "$2" >"$repo/scripts/$1.sh"
	chmod +x "$repo/scripts/$1.sh"
}

repo="$sandbox/repo"
mkdir -p "$repo/gate-sdk" "$repo/bin" && git -C "$repo" init -q || exit 2
cp "$GATE_SDK_NATIVE_BIN" "$repo/bin/gates" || exit 2
printf '/bin/\n/.tmp/\n' >"$repo/.gitignore"
: >"$repo/gate-sdk/.keep"
gate check-green 0 'echo GREEN: clean'
gate check-top 0 'git -C sub rev-parse --show-toplevel >"$(git rev-parse --show-toplevel)/.tmp-top"'
printf 'check-green\ncheck-top\n' >"$repo/scripts/gates.list"
mkdir -p "$repo/sub" && : >"$repo/sub/.keep"
git -C "$repo" add -A && git -C "$repo" commit -q --no-verify -m seed || exit 2
printf '.tmp-top\n' >>"$repo/.git/info/exclude"

export GATE_SDK_NATIVE_BIN="$repo/bin/gates"
if (cd "$repo" && bin/gates --install-hooks) >"$sandbox/out" 2>&1 &&
	grep -qx '  pre-commit' "$sandbox/out" && grep -qx '  commit-msg' "$sandbox/out" &&
	[ "$(git -C "$repo" config core.hooksPath)" = ".git/gate-hooks" ] && grep -qx '  pre-merge-commit' "$sandbox/out"; then ok; else bad install; fi

# A green commit lands through the placed hook.
printf 'a\n' >"$repo/a.md" && git -C "$repo" add a.md
if git -C "$repo" commit -q -m 'add a' >"$sandbox/out" 2>&1 && grep -qx 'pre-commit: 2 gate(s) passed.' "$sandbox/out"; then ok; else bad green-commit; fi

# A red commit is refused, names the gate, offers the bypass, and lands with it.
gate check-red 1 'echo "b.md:1: red on purpose"'
printf 'check-green\ncheck-red\ncheck-top\n' >"$repo/scripts/gates.list"
printf 'b\n' >"$repo/b.md" && git -C "$repo" add -A
if ! git -C "$repo" commit -q -m 'add b' >"$sandbox/out" 2>&1 &&
	grep -qx 'pre-commit: check-red failed (see above).' "$sandbox/out" &&
	grep -qx '  Bypass once (use sparingly): git commit --no-verify' "$sandbox/out"; then ok; else bad red-commit; fi
if git -C "$repo" commit -q --no-verify -m 'add b anyway' >"$sandbox/out" 2>&1; then ok; else bad bypass; fi
printf 'check-green\ncheck-top\n' >"$repo/scripts/gates.list"
git -C "$repo" commit -q --no-verify -am 'drop red' || exit 2

# A linked worktree: the hook runs there, and a member's git -C <subdir> sees the worktree.
wt="$sandbox/wt"
git -C "$repo" worktree add -q "$wt" >/dev/null 2>&1 || exit 2
mkdir -p "$wt/bin" && cp "$repo/bin/gates" "$wt/bin/gates"
printf 'c\n' >"$wt/c.md" && git -C "$wt" add c.md
if (cd "$wt" && GATE_SDK_NATIVE_BIN=bin/gates git commit -q -m 'from the worktree') >"$sandbox/out" 2>&1 &&
	[ "$(cat "$wt/.tmp-top" 2>/dev/null)" = "$wt" ]; then ok; else bad linked-worktree; fi

# The launcher reads only its one knob: a name no table holds is never read.
# A knob naming a stub that is not the recorded build is refused, naming
# the knob (the launcher verifies the bytes it starts).
if [ -z "$exe_suffix" ]; then
	printf '#!/bin/sh\nexit 0\n' >"$sandbox/fake" && chmod +x "$sandbox/fake"
	printf 'GATE_SDK_NATIVE_BIN = %s\n' "$sandbox/fake" >"$sandbox/fake.knobs"
	printf 'f\n' >"$repo/f.md" && git -C "$repo" add f.md
	if ! (cd "$repo" && env -u GATE_SDK_NATIVE_BIN GATE_SDK_KNOB_FILE="$sandbox/fake.knobs" git commit -q -m 'add f') >"$sandbox/out" 2>&1 &&
		grep -q "GATE_SDK_NATIVE_BIN=$sandbox/fake (from $sandbox/fake.knobs) points the hooks at" "$sandbox/out"; then ok; else bad stub-refused; fi
	git -C "$repo" reset -q
	# Without the opt-in record nothing is verified, so a stub shows what
	# the launcher itself reads.
	mv "$repo/.git/gate-hooks.placed" "$sandbox/placed" || exit 2
	printf '#!/bin/sh\nexit 0\n' >"$sandbox/stub" && chmod +x "$sandbox/stub"
	printf 'GATE_SDK_KNOB_FROM_A_NEWER_BUILD = yes\nGATE_SDK_NATIVE_BIN = %s\n' "$sandbox/stub" >"$sandbox/stub.knobs"
	printf 'd\n' >"$repo/d.md" && git -C "$repo" add d.md
	if (cd "$repo" && env -u GATE_SDK_NATIVE_BIN GATE_SDK_KNOB_FILE="$sandbox/stub.knobs" git commit -q -m 'add d') >"$sandbox/out" 2>&1; then ok; else bad stub-unknown-knob; fi
	printf 'GATE_SDK_NATIVE_BIN = %s\nGATE_SDK_NATIVE_BIN = %s\n' "$sandbox/stub" "$sandbox/stub" >"$sandbox/twice.knobs"
	printf 'e\n' >"$repo/e.md" && git -C "$repo" add e.md
	if ! (cd "$repo" && env -u GATE_SDK_NATIVE_BIN GATE_SDK_KNOB_FILE="$sandbox/twice.knobs" git commit -q -m 'add e') >"$sandbox/out" 2>&1 &&
		grep -q 'twice.knobs:2:' "$sandbox/out"; then ok; else bad stub-knob-twice; fi
	git -C "$repo" reset -q
	mv "$sandbox/placed" "$repo/.git/gate-hooks.placed" || exit 2
fi

# --refresh after the binary is replaced: both hooks byte-equal the new file.
cp "$repo/bin/gates" "$sandbox/next" && printf 'rebuilt' >>"$sandbox/next" && mv "$sandbox/next" "$repo/bin/gates" || exit 2
if (cd "$repo" && bin/gates --install-hooks --refresh) >"$sandbox/out" 2>&1 &&
	grep -qx "install-hooks: refreshed $repo/.git/gate-hooks" "$sandbox/out" &&
	cmp -s "$repo/bin/gates" "$repo/.git/gate-hooks/pre-commit" && cmp -s "$repo/bin/gates" "$repo/.git/gate-hooks/commit-msg"; then ok; else bad refresh; fi

# Off switch: with core.hooksPath unset, --refresh places nothing and stays silent.
git -C "$repo" config --unset core.hooksPath
rm -rf "$repo/.git/gate-hooks"
if (cd "$repo" && bin/gates --install-hooks --refresh) >"$sandbox/out" 2>&1 && [ ! -s "$sandbox/out" ] &&
	[ ! -e "$repo/.git/gate-hooks" ] && ! git -C "$repo" config core.hooksPath >/dev/null; then ok; else bad refresh-not-opted-in; fi

printf '%s: %s passed, %s failed\n' "$name" "$pass" "$fail"
[ "$fail" -eq 0 ]
