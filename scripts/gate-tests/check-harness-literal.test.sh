#!/usr/bin/env bash
# check-harness-literal.test.sh — the cases a fixture pair cannot hold:
# each unarmed knob gives its own clean line; arming both finds the literal;
# a literal with regex metacharacters still matches only itself; binary
# files are skipped and counted; a path git would quote; and the refusal
# outside a repository.
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/../../kits/gate-sdk}/lib/test-hermetic.sh"

set -u
checks="$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
gate_sandbox check-harness-literal "$checks"

gate_scratch_repo literal
printf '# Doc\n\nexport $HARNESS_PROJECT_DIR\n' | gate_put README.md
printf 'pattern text A.*B stays literal\nAxxB is not it\n' | gate_put docs/syntax.md
printf '\000HARNESS_PROJECT_DIR in a blob\n' | gate_put docs/blob.md
gate_expect no-corpus 0 'HARNESS-LITERAL: clean (no corpus configured: GATE_SDK_HARNESS_LITERAL_PATHS is empty, gate off)'
GATE_SDK_HARNESS_LITERAL_PATHS='*.md' gate_expect no-literal 0 'HARNESS-LITERAL: clean (no literal listed: GATE_SDK_HARNESS_LITERALS is empty, gate off)'
GATE_SDK_HARNESS_LITERALS=HARNESS_PROJECT_DIR GATE_SDK_HARNESS_LITERAL_PATHS='*.md' \
	gate_expect knobs-find-it 1 'README.md:3:export $HARNESS_PROJECT_DIR (harness literal HARNESS_PROJECT_DIR)'
GATE_SDK_HARNESS_LITERALS='A.*B' GATE_SDK_HARNESS_LITERAL_PATHS='docs' \
	gate_expect fixed-string 1 'docs/syntax.md:1:pattern text A.*B stays literal (harness literal A.*B)'
gate_lacks not-a-pattern 'AxxB'
GATE_SDK_HARNESS_LITERALS=HARNESS_PROJECT_DIR GATE_SDK_HARNESS_LITERAL_PATHS='docs' \
	gate_expect binary-skip-count 0 'HARNESS-LITERAL: clean (1 files carry none of 1 harness literals outside a harness-binding; 1 binary members skipped)'
printf 'uses HARNESS_PROJECT_DIR\n' | gate_put 'docs/naïve page.md'
GATE_SDK_HARNESS_LITERALS=HARNESS_PROJECT_DIR GATE_SDK_HARNESS_LITERAL_PATHS='docs' \
	gate_expect quoted-name 1 'docs/naïve page.md:1:uses HARNESS_PROJECT_DIR'

gate_scratch_dir not-a-repo
printf 'HARNESS_PROJECT_DIR\n' | gate_put a.md
GATE_SDK_HARNESS_LITERALS=HARNESS_PROJECT_DIR GATE_SDK_HARNESS_LITERAL_PATHS='*.md' gate_expect non-repo 2 'not a git repository'

gate_tests_done
