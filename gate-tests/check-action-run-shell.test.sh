#!/usr/bin/env bash
# check-action-run-shell.test.sh — the postures a one-verdict case cannot
# hold: the refused construct (the workflow's finding, naming it) beside spellings that
# read (a folded block, an indicator, an alias), a host
# with no shellcheck (exit 2, naming it), and a tree with no YAML (clean on
# a zero count). Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-action-run-shell

head='name: t
on: push
jobs:
  b:
    runs-on: ubuntu-latest
    steps:'

refused() { # refused NAME RUN-LINES TEXT: the workflow's finding, never the gate's stop
	gate_scratch_repo "$1"
	printf '%s\n%s\n' "$head" "$2" | gate_put .github/workflows/ci.yml
	gate_expect "$1" 1 "$3"
}
reads() { # reads NAME RUN-LINES TEXT: a spelling GitHub loads is linted
	gate_scratch_repo "$1"
	printf '%s\n%s\n' "$head" "$2" | gate_put .github/workflows/ci.yml
	gate_expect "$1" 0 "$3"
}
reads folded '      - run: >-
          echo hi' 'ACTION-RUN-SHELL: clean (1 run: block and 0 single-line run: values linted'
reads indicator '      - run: |2
            echo hi' 'ACTION-RUN-SHELL: clean (1 run: block and 0 single-line run: values linted'
reads alias '      - run: &body echo hi
      - run: *body' 'ACTION-RUN-SHELL: clean (0 run: blocks and 2 single-line run: values linted'
refused unbalanced '      - run: |
          echo ${{ github.sha' 'an unbalanced ${{'

gate_scratch_repo defaults
gate_put .github/workflows/ci.yml <<'YAML'
name: t
on: push
defaults:
  run:
    shell: ${{ inputs.shell }}
jobs:
  b:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo hi
YAML
gate_expect defaults 0 '1 non-shell block skipped'

# A workflow the YAML parser rejects (a tab indents a step) is a finding at
# the line it names, never read as an empty workflow.
gate_scratch_repo tabs
printf '%s\n\t- run: cd x\n' "$head" | gate_put .github/workflows/ci.yml
gate_expect tabs 1 'ci.yml:7: cannot read the file as YAML: the parser says'

gate_scratch_repo no-shellcheck
printf '%s\n%s\n' "$head" '      - run: |
          echo hi' | gate_put .github/workflows/ci.yml
# A PATH holding git alone: the tree still lists, shellcheck is gone.
mkdir -p "$GATE_SANDBOX/git-only" && ln -s "$(command -v git)" "$GATE_SANDBOX/git-only/git" || exit 2
# gate_expect calls nothing from PATH itself, so the prefix reaches only the gate.
PATH="$GATE_SANDBOX/git-only" gate_expect no-shellcheck 2 'shellcheck is not on PATH'

gate_scratch_repo no-yaml
printf '# nothing here\n' | gate_put README.md
gate_expect no-yaml 0 'ACTION-RUN-SHELL: clean (no YAML file under .: nothing to lint)'

gate_tests_done
