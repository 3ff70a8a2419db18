#!/usr/bin/env bash
# check-identity.test.sh — the graded absence postures of the GitHub CLI
# hosts file (absent: clean with the caveat; unreadable or shapeless:
# exit 2; no block for the host: a finding), the derivation with nothing
# to stand on, the CI step-aside and where it does not bind, the live git
# reads, and the non-repository refusal of a live read.
# Exit 0 when every check holds, 1 otherwise.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"

gate=check-identity
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

# Every case pins the CLI's config dir into the sandbox, so no case reads
# the login of the machine running the test.
export GH_CONFIG_DIR="$sandbox/no-gh-config"
unset XDG_CONFIG_HOME

repo gh
git -C "$dir" config user.email dev@work.example
printf 'email dev@work.example\ngh-account Work-Bot\n' | put scripts/identity.conf
CI='' expect hosts-absent 0 'CHECK-IDENTITY: clean (1 identity expectations matched; gh-account unverified: no GitHub CLI hosts file at'
mkdir -p "$dir/hosts.yml"
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml expect hosts-unreadable 2 'hosts.yml'
rmdir "$dir/hosts.yml"
printf 'gitlab.example:\n    user: Work-Bot\n' >"$dir/hosts.yml"
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml expect hosts-no-block 1 'has no block for host github.com, so the CLI is not logged in there'
printf 'github.com:\n    users:\n        user:\n            oauth_token: x\n    git_protocol: ssh\n' >"$dir/hosts.yml"
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml expect hosts-no-user-key 2 'has no user key'
printf 'github.com:\n    users:\n        Work-Bot:\n            oauth_token: x\n    user: Work-Bot\n' >"$dir/hosts.yml"
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml expect hosts-match 0 'CHECK-IDENTITY: clean (2 identity expectations matched)'
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml GATE_SDK_GH_HOST=ghe.example expect host-knob 1 'has no block for host ghe.example'
mkdir -p "$sandbox/gh-config"
printf 'github.com:\n    user: Other-Bot\n' >"$sandbox/gh-config/hosts.yml"
CI='' GH_CONFIG_DIR="$sandbox/gh-config" expect derived-from-gh-config-dir 1 "the GitHub CLI's active account for github.com is Other-Bot, expected Work-Bot"
saved_home="$HOME"
unset HOME GH_CONFIG_DIR
CI='' expect nothing-to-derive-from 2 'cannot locate the GitHub CLI hosts file'
export HOME="$saved_home" GH_CONFIG_DIR="$sandbox/no-gh-config"

repo live
git -C "$dir" config user.email dev@home.example
git -C "$dir" remote add origin git@gh-work:org/repo.git
printf 'email dev@work.example\nremote-host origin gh-work\nremote-host backup gh-work\n' | put scripts/identity.conf
CI='' expect live-email 1 'email: expected dev@work.example, this clone commits as dev@home.example'
CI='' expect live-absent-remote 1 'remote-host: remote backup is absent from this clone'
lacks live-remote-matches 'remote origin'
CI=true expect ci-steps-aside 0 'CHECK-IDENTITY: clean (CI run:'
printf 'dev@work.example\n' >"$dir/email.txt"
printf 'origin git@gh-work:org/repo.git\nbackup ssh://git@gh-work/org/repo.git\n' >"$dir/remotes.txt"
CI=true GATE_SDK_GIT_EMAIL_FILE=email.txt GATE_SDK_GIT_REMOTES_FILE=remotes.txt expect ci-configured-read 0 'CHECK-IDENTITY: clean (3 identity expectations matched)'
CI=true GATE_SDK_GIT_EMAIL_FILE=email.txt expect ci-one-file-still-steps-aside 0 'CHECK-IDENTITY: clean (CI run:'

repo malformed
printf 'gh-account github.com Work-Bot\n' | put scripts/identity.conf
CI='' expect three-field-gh-account 2 'scripts/identity.conf:1: gh-account takes 1 field(s) after the key, got 2'
printf 'name dev\n' | put scripts/identity.conf
CI='' expect unknown-key 2 'scripts/identity.conf:1: unknown key "name"'

plain not-a-repo
printf 'email dev@work.example\n' | put scripts/identity.conf
CI='' expect non-repo-live-read 2 'not inside a git'
printf 'dev@work.example\n' | put email.txt
printf '' | put remotes.txt
CI='' GATE_SDK_GIT_EMAIL_FILE=email.txt GATE_SDK_GIT_REMOTES_FILE=remotes.txt expect non-repo-configured-read 0 'CHECK-IDENTITY: clean (1 identity expectations matched)'

printf '%s: %s passed, %s failed\n' "$gate" "$pass" "$fail"
[ "$fail" -eq 0 ]
