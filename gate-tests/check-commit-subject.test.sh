#!/usr/bin/env bash
# check-commit-subject.test.sh — the no-argument clean skip, a missing
# message file, every subject the section lists on both sides, and the
# roster knob narrowing the admitted types.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-commit-subject "$GATE_SDK_ROOT/checks"

gate_scratch_dir subject
gate_expect no-argument 0 'COMMIT-SUBJECT: clean (no message file given: nothing to check outside a commit)'
gate_expect missing-message 2 'message file gone.txt does not exist' gone.txt
for s in 'feat: x' 'fix(internal/ere): y' 'refactor!: z' 'feat(cli)!: z' "Merge branch 'main'" 'Revert "feat: x"' 'fixup! feat: x' 'squash! fix: y' 'amend! feat: x'; do
	printf '%s\n\nbody\n' "$s" >"$GATE_SCRATCH/msg"
	gate_expect "pass: $s" 0 'COMMIT-SUBJECT: clean (subject parses' msg
done
for s in 'Feat: x' 'feature: x' 'wip' 'feat:x' 'feat (cli): x' 'feat(CLI): x' 'feat(): x'; do
	printf '%s\n' "$s" >"$GATE_SCRATCH/msg"
	gate_expect "fail: $s" 1 "msg:1: subject \"$s\" does not parse" msg
done
printf 'docs: x\n' >"$GATE_SCRATCH/msg"
GATE_SDK_COMMIT_TYPES='feat fix' gate_expect roster-knob 1 'with <type> one of: feat fix;' msg
# The subject judged is the one git records after its cleanup: trailing
# blanks and a CRLF's carriage return go, a leading comment goes when the
# message was edited, and the autosquash leads need their blank.
printf 'feat:   \n' >"$GATE_SCRATCH/msg"
GIT_EDITOR=: gate_expect recorded-trailing-blanks 1 'msg:1: subject "feat:" does not parse' msg
printf 'feat: x\r\n\r\nbody\r\n' >"$GATE_SCRATCH/msg"
GIT_EDITOR=: gate_expect recorded-crlf 0 'COMMIT-SUBJECT: clean (subject parses' msg
printf '# Please enter the commit message\nfeat: x\n' >"$GATE_SCRATCH/msg"
GIT_EDITOR='vi' gate_expect recorded-comment-stripped 0 'COMMIT-SUBJECT: clean (subject parses' msg
for s in 'fixup!feat: x' 'squash!feat: x' 'amend!feat: x'; do
	printf '%s\n' "$s" >"$GATE_SCRATCH/msg"
	GIT_EDITOR=: gate_expect "not autosquash: $s" 1 "msg:1: subject \"$s\" does not parse" msg
done

gate_tests_done
