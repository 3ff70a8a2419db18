#!/usr/bin/env bash
# run-gate-tests.test.sh — the fixture runner driven over scratch fixture
# trees, from a sandbox that is no repository: a passing pair, a bad case
# missing one expect line, a bad case exiting 0, a good case with no clean
# line, a member exiting 2, an args file with comments and blank runs, an
# expect.txt with blank lines, a stray directory, an empty tests dir, and
# the fail-open probe: a good case whose coupled input is removed must not
# print the same clean verdict, nor exit 1 with no help: line; a case that
# writes in its case dir, a bad case whose expect.txt names a finding with
# no location, and a case past the member budget.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox --run-gate-tests

# The member every tree registers: its case's `mode` file picks what it does.
member='#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
case "$(cat mode 2>/dev/null)" in
count) n=0; for f in *.md; do [ -e "$f" ] && n=$((n + 1)); done; echo "X: clean ($n md files)"; exit 0 ;;
bad) echo "bad.md:1: bad"; echo "help: remove bad.md"; exit 1 ;;
crash) echo "check-x: cannot read its input" >&2; exit 2 ;;
silent) echo "all fine"; exit 0 ;;
refuse1) n=0; for f in *.md; do [ -e "$f" ] && n=$((n + 1)); done; [ "$n" -gt 0 ] || { echo "check-x: no input" >&2; exit 1; }; echo "X: clean (1 case)"; exit 0 ;;
litter) echo "scan" > scan.log; echo "X: clean (1 case)"; exit 0 ;;
unlocated) echo "a bad line"; echo "help: remove it"; exit 1 ;;
slow) sleep 30; echo "X: clean (1 case)"; exit 0 ;;
args) printf "arg:%s\n" "$@"; echo "X: clean (args)"; exit 0 ;;
*) echo "X: clean (1 case)"; exit 0 ;;
esac'

# tree NAME GOOD-MODE BAD-MODE EXPECT — a scratch dir holding the member and
# one pair for it.
tree() {
	gate_scratch_dir "$1"
	printf '%s\n' "$member" | gate_loose scripts/check-x.sh
	chmod +x "$GATE_SCRATCH/scripts/check-x.sh"
	printf '%s\n' "$2" | gate_loose gate-tests/check-x/good/mode
	printf '%s\n' "$3" | gate_loose gate-tests/check-x/bad/mode
	printf '%b' "$4" | gate_loose gate-tests/check-x/bad/expect.txt
}

tree pass ok bad 'bad.md:1: bad\n\n   \n'
gate_expect pass 0 '1 pair (0 failed), 0 tests (0 failed), 0 harness errors' gate-tests scripts

tree missing-line ok bad 'bad.md:1: bad\nbad.md:9: never printed\n'
gate_expect missing-line 1 'missing expected line: bad.md:9: never printed' gate-tests scripts
gate_lacks missing-line-names-only-the-missing 'missing expected line: bad.md:1: bad'

tree bad-exits-zero ok ok 'bad.md:1: bad\n'
gate_expect bad-exits-zero 1 'exit 0, want 1' gate-tests scripts

tree no-clean-line silent bad 'bad.md:1: bad\n'
gate_expect no-clean-line 1 'no clean line X: clean (...)' gate-tests scripts

tree member-exits-two crash bad 'bad.md:1: bad\n'
gate_expect member-exits-two 2 'the gate exited 2, so the fixture is malformed' gate-tests scripts

tree args args bad 'bad.md:1: bad\n'
printf '# a comment\n  # an indented comment\n-a   b\t\tc\n\n*.md\n' | gate_loose gate-tests/check-x/good/args
printf 'arg:-a\narg:b\narg:c\narg:*.md\n' | gate_loose gate-tests/check-x/good/expect.txt
gate_expect args 0 '1 pair (0 failed)' gate-tests scripts

tree fail-open ok bad 'bad.md:1: bad\n'
printf 'input\n' | gate_loose gate-tests/check-x/good/in.md
gate_expect fail-open 1 'fail-open: with the 1 file its couples= selects removed, the gate prints the same clean verdict' gate-tests scripts

tree probe-honest count bad 'bad.md:1: bad\n'
printf 'input\n' | gate_loose gate-tests/check-x/good/in.md
gate_expect probe-honest 0 '1 pair (0 failed)' gate-tests scripts

tree probe-exit-one refuse1 bad 'bad.md:1: bad\n'
printf 'input\n' | gate_loose gate-tests/check-x/good/in.md
gate_expect probe-exit-one 1 'the gate exits 1 with no help: line; a gate that cannot read its input exits 2' gate-tests scripts

tree litter litter bad 'bad.md:1: bad\n'
gate_expect litter 1 'good: the case changed its case dir: scan.log' gate-tests scripts

tree unlocated ok unlocated 'a bad line\nhelp: remove it\n'
gate_expect unlocated 1 'a finding names no location: a bad line' gate-tests scripts

tree past-budget slow bad 'bad.md:1: bad\n'
GATE_SDK_GATE_TIMEOUT=1 gate_expect past-budget 2 'check-x: timed out after 1 s (GATE_SDK_GATE_TIMEOUT)' gate-tests scripts

tree stray ok bad 'bad.md:1: bad\n'
printf 'notes\n' | gate_loose gate-tests/notes/readme.txt
gate_expect stray 1 'notes: missing case dir good/ and bad/' gate-tests scripts

gate_scratch_dir empty
mkdir -p "$GATE_SCRATCH/gate-tests"
gate_expect empty 2 'holds no fixture pair and no *.test.sh' gate-tests

tree absent-checks-dir ok bad 'bad.md:1: bad\n'
gate_expect absent-checks-dir 2 'checks dir nowhere is not a directory' gate-tests nowhere

gate_tests_done
