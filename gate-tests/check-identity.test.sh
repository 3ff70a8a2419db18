#!/usr/bin/env bash
# check-identity.test.sh — the graded absence postures of the GitHub CLI
# hosts file (absent: clean with the caveat; unreadable or shapeless:
# exit 2; no block for the host: a finding), the derivation with nothing
# to stand on, the CI step-aside and where it does not bind, the live git
# reads, and the non-repository refusal of a live read.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-identity "$GATE_SDK_ROOT/checks"

# Every case pins the CLI's config dir into the sandbox, so no case reads
# the login of the machine running the test.
export GH_CONFIG_DIR="$GATE_SANDBOX/no-gh-config"
unset XDG_CONFIG_HOME

gate_scratch_repo gh
unset GIT_AUTHOR_EMAIL GIT_COMMITTER_EMAIL # git's identity variables outrank config
git -C "$GATE_SCRATCH" config user.email dev@work.example
printf 'email dev@work.example\ngh-account Work-Bot\n' | gate_put scripts/identity.conf
CI='' gate_expect hosts-absent 0 'IDENTITY: clean (1 identity expectations matched; gh-account unverified: no GitHub CLI hosts file at'
mkdir -p "$GATE_SCRATCH/hosts.yml"
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml gate_expect hosts-unreadable 2 'hosts.yml'
rmdir "$GATE_SCRATCH/hosts.yml"
printf 'gitlab.example:\n    user: Work-Bot\n' >"$GATE_SCRATCH/hosts.yml"
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml gate_expect hosts-no-block 1 'has no block for host github.com, so the CLI is not logged in there'
printf 'github.com:\n    users:\n        user:\n            oauth_token: x\n    git_protocol: ssh\n' >"$GATE_SCRATCH/hosts.yml"
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml gate_expect hosts-no-user-key 2 'has no user key'
printf 'github.com:\n    users:\n        Work-Bot:\n            oauth_token: x\n    user: Work-Bot\n' >"$GATE_SCRATCH/hosts.yml"
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml gate_expect hosts-match 0 'IDENTITY: clean (2 identity expectations matched)'
CI='' GATE_SDK_GH_HOSTS_FILE=hosts.yml GATE_SDK_GH_HOST=ghe.example gate_expect host-knob 1 'has no block for host ghe.example'
mkdir -p "$GATE_SANDBOX/gh-config"
printf 'github.com:\n    user: Other-Bot\n' >"$GATE_SANDBOX/gh-config/hosts.yml"
CI='' GH_CONFIG_DIR="$GATE_SANDBOX/gh-config" gate_expect derived-from-gh-config-dir 1 "the GitHub CLI's active account for github.com is Other-Bot, expected Work-Bot"
saved_home="$HOME"
unset HOME GH_CONFIG_DIR
CI='' gate_expect nothing-to-derive-from 2 'cannot locate the GitHub CLI hosts file'
export HOME="$saved_home" GH_CONFIG_DIR="$GATE_SANDBOX/no-gh-config"

gate_scratch_repo live
# The live reads ask git which identity a commit records, and the identity
# variables outrank config there, so the sandbox's own are cleared.
unset GIT_AUTHOR_EMAIL GIT_COMMITTER_EMAIL
git -C "$GATE_SCRATCH" config user.email dev@home.example
git -C "$GATE_SCRATCH" remote add origin git@gh-work:org/repo.git
printf 'email dev@work.example\nremote-host origin gh-work\nremote-host backup gh-work\n' | gate_put scripts/identity.conf
CI='' gate_expect live-email 1 'email: expected dev@work.example, this clone commits as dev@home.example'
CI='' gate_expect live-absent-remote 1 'remote-host: remote backup is absent from this clone'
gate_lacks live-remote-matches 'remote origin'
git -C "$GATE_SCRATCH" config user.email dev@work.example
GIT_COMMITTER_EMAIL=ci@bot.example CI='' gate_expect live-committer-env 1 'this clone commits as ci@bot.example'
git -C "$GATE_SCRATCH" config author.email dev@home.example
CI='' gate_expect live-author-email 1 'this clone authors commits as dev@home.example'
git -C "$GATE_SCRATCH" config --unset author.email
git -C "$GATE_SCRATCH" config remote.origin.pushurl git@gh-home:org/repo.git
CI='' gate_expect live-pushurl 1 'remote-host: remote origin pushes to host gh-home (git@gh-home:org/repo.git), expected gh-work'
git -C "$GATE_SCRATCH" config --unset remote.origin.pushurl
git -C "$GATE_SCRATCH" config user.email dev@home.example
CI=true gate_expect ci-steps-aside 0 'IDENTITY: clean (CI run:'
printf 'dev@work.example\n' >"$GATE_SCRATCH/email.txt"
printf 'origin git@gh-work:org/repo.git\nbackup ssh://git@gh-work/org/repo.git\n' >"$GATE_SCRATCH/remotes.txt"
CI=true GATE_SDK_GIT_EMAIL_FILE=email.txt GATE_SDK_GIT_REMOTES_FILE=remotes.txt gate_expect ci-configured-read 0 'IDENTITY: clean (3 identity expectations matched)'
CI=true GATE_SDK_GIT_EMAIL_FILE=email.txt gate_expect ci-one-file-still-steps-aside 0 'IDENTITY: clean (CI run:'

gate_scratch_repo malformed
printf 'gh-account github.com Work-Bot\n' | gate_put scripts/identity.conf
CI='' gate_expect three-field-gh-account 2 'scripts/identity.conf:1: gh-account takes 1 field(s) after the key, got 2'
printf 'name dev\n' | gate_put scripts/identity.conf
CI='' gate_expect unknown-key 2 'scripts/identity.conf:1: unknown key "name"'

gate_scratch_dir not-a-repo
printf 'email dev@work.example\n' | gate_put scripts/identity.conf
CI='' gate_expect non-repo-live-read 2 'not inside a git'
printf 'dev@work.example\n' | gate_put email.txt
printf '' | gate_put remotes.txt
CI='' GATE_SDK_GIT_EMAIL_FILE=email.txt GATE_SDK_GIT_REMOTES_FILE=remotes.txt gate_expect non-repo-configured-read 0 'IDENTITY: clean (1 identity expectations matched)'

gate_tests_done
