#!/usr/bin/env bash
# check-commit-msg.test.sh — the edges a one-verdict pair cannot hold: the
# no-argument clean skip, a named message file that does not exist, the
# required tracked list missing through the knob, an absent local list
# skipped and a present one read, an empty set, and a GNU escape.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-commit-msg "$GATE_SDK_ROOT/checks"

gate_scratch_repo msg
gate_expect no-argument 0 'COMMIT-MSG: clean (no message file given: nothing to check outside a commit)'
gate_expect missing-message 2 'message file /nonexistent does not exist' /nonexistent
printf 'fix: x\n\ninternal codename zephyr\n' >"$GATE_SCRATCH/COMMIT_EDITMSG"
gate_expect missing-required-list 2 'scripts/msg-patterns.list (from GATE_SDK_MSG_PATTERN_FILES) does not exist' COMMIT_EDITMSG
printf '# generic shapes only\n' | gate_put scripts/msg-patterns.list
gate_expect empty-set 0 'COMMIT-MSG: clean (no banned pattern configured: message unchecked)' COMMIT_EDITMSG
printf 'zephyr\n' >"$GATE_SCRATCH/scripts/msg-patterns.local.list"
gate_expect local-list-read 1 'COMMIT_EDITMSG:3: matches banned pattern zephyr (scripts/msg-patterns.local.list:1)' COMMIT_EDITMSG
gate_expect remedy 1 'Add `--amend` only if your command had it' COMMIT_EDITMSG
printf 'foo\\bbar\n' >"$GATE_SCRATCH/gnu.list"
gate_expect gnu-escape 2 'GNU extension' COMMIT_EDITMSG gnu.list
GATE_SDK_MSG_PATTERN_FILES_LOCAL=elsewhere.list gate_expect absent-local-skipped 0 'clean (no banned pattern configured' COMMIT_EDITMSG
# The message judged is the one git records: a CRLF line loses its CR
# (so a $-anchored pattern meets it), and a comment line git strips from
# an edited message is not recorded.
printf '^WIP$\n' >"$GATE_SCRATCH/anchored.list"
printf 'fix: x\r\n\r\nWIP\r\n' >"$GATE_SCRATCH/crlf.msg"
GIT_EDITOR=: gate_expect recorded-crlf 1 'crlf.msg:3: matches banned pattern ^WIP$' crlf.msg anchored.list
printf 'fix: x\n# WIP\nWIP\n' >"$GATE_SCRATCH/comment.msg"
printf '^# WIP$\n' >"$GATE_SCRATCH/comment.list"
GIT_EDITOR='vi' gate_expect recorded-comment-stripped 0 'COMMIT-MSG: clean (message matches none of 1 banned patterns)' comment.msg comment.list

gate_tests_done
