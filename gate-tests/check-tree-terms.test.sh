#!/usr/bin/env bash
# check-tree-terms.test.sh — what a case dir cannot hold: the
# non-repository refusal, the required pattern file resolved through the
# knob (the pair passes a positional), the empty-set clean, the path-only
# binary record, the record order, a name git quotes, a GNU escape, the
# link arms (a link is judged by the target string it commits, dangling or
# not), a tracked file missing from the work tree (refused by name), and a
# scan root that names nothing (refused).
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate=check-tree-terms
gate_sandbox "$gate" "$GATE_SDK_ROOT/checks"

# Banned shapes are composed here, not spelled, as everywhere outside a
# fixture tree.
home="/ho""me/alice/"

gate_scratch_dir not-a-repo
printf '/home/[a-z]+/\n' | gate_put p.list
gate_expect non-repo 2 'not inside a git repository' . p.list

gate_scratch_repo knobs
printf 'nothing to see\n' | gate_put README.md
GATE_SDK_MSG_PATTERN_FILES=lists/required.list gate_expect missing-required 2 'lists/required.list (from GATE_SDK_MSG_PATTERN_FILES) does not exist'
GATE_SDK_MSG_PATTERN_FILES=' ' gate_expect blank-knob-takes-default 2 'scripts/msg-patterns.list (from GATE_SDK_MSG_PATTERN_FILES) does not exist'
printf '# no pattern yet\n\n' | gate_put lists/required.list
GATE_SDK_MSG_PATTERN_FILES=lists/required.list gate_expect empty-set 0 'TREE-TERMS: clean (no banned pattern configured: tree unchecked)'
printf 'nothing\n' | gate_put lists/required.list
GATE_SDK_MSG_PATTERN_FILES=lists/required.list GATE_SDK_MSG_PATTERN_FILES_LOCAL=lists/absent.local.list \
	gate_expect knob-set-finds-it 1 'README.md:1:nothing to see'
printf 'foo\\sbar\n' >"$GATE_SCRATCH/gnu.list"
gate_expect gnu-escape 2 'GNU extension' . gnu.list
gate_expect gnu-names-pattern 2 'foo\sbar' . gnu.list

gate_scratch_repo records
printf '/home/[a-z]+/\n' >"$GATE_SCRATCH/p.list"
printf 'a\nsee %sx\n' "$home" | gate_put docs/a.md
printf '\177ELF\000junk %sbuild\000\n' "$home" | gate_put bin/gates
printf 'one %sx\ntwo\none %sx\n' "$home" "$home" | gate_put 'docs/naïve notes.md'
gate_expect binary-path-only 1 'bin/gates' . p.list
gate_check binary-record-is-the-path grep -qx 'bin/gates' "$GATE_OUT"
gate_check binary-has-no-lineno sh -c "! grep -q '^bin/gates:' '$GATE_OUT'"
gate_check record-order sh -c "grep -v '^help:' '$GATE_OUT' | cut -d: -f1,2 | tr '\n' ' ' | grep -qx 'bin/gates docs/a.md:2 docs/naïve notes.md:1 docs/naïve notes.md:3 '"
gate_expect quoted-name 1 "docs/naïve notes.md:1:one ${home}x" . p.list

gate_scratch_repo links
printf '/home/[a-z]+/\n' >"$GATE_SCRATCH/p.list"
printf 'clean\n' | gate_put README.md
if ln -s "${home}gone" "$GATE_SCRATCH/dangling" 2>/dev/null; then
	git -C "$GATE_SCRATCH" add -- dangling
	gate_check dangling-is-120000 test "$(git -C "$GATE_SCRATCH" ls-files -s -- dangling | cut -c1-6)" = 120000
	printf 'untracked target %sx\n' "$home" >"$GATE_SCRATCH/target.txt"
	ln -s target.txt "$GATE_SCRATCH/resolving"
	git -C "$GATE_SCRATCH" add -- resolving
	gate_expect dangling-link-text-scanned 1 "dangling:1:${home}gone" . p.list
	gate_lacks resolving-link-commits-its-path 'resolving'
else
	printf '%s: symlinks unavailable here; the link arms are skipped\n' "$gate"
fi

gate_scratch_repo missing
printf '/home/[a-z]+/\n' >"$GATE_SCRATCH/p.list"
printf 'clean\n' | gate_put README.md
printf 'clean\n' | gate_put docs/gone.md
rm -- "$GATE_SCRATCH/docs/gone.md"
gate_expect deleted-but-tracked-refused 2 'docs/gone.md' . p.list
gate_lacks deleted-but-tracked-no-clean 'clean ('
git -C "$GATE_SCRATCH" rm -q --cached -- docs/gone.md
gate_expect misspelled-root-refused 2 'scan root dosc names nothing' dosc p.list
gate_expect file-root-refused 2 'scan root README.md is a tracked file' README.md p.list
gate_expect dot-spelled-root 0 'TREE-TERMS: clean (1 tracked files' ./. p.list

gate_tests_done
