#!/usr/bin/env bash
# smoke/install.sh — gate-sdk's install recipe for the consumer smoke: what
# an adopter's first steps leave behind, in a scratch consumer the harness
# (gates --run-consumer-smoke, gates --run-demo) built and vendored.
#
# no-port: a smoke recipe is the executable form of the README's install steps and runs only under the smoke harness.
#
# Contract: cwd is the scratch consumer's top; SMOKE_KIT_ROOT is the vendored
# copy of this kit. It registers the kit's gates, writes the smallest surface
# those gates read to be green, and proves the placed hooks start.
: "${SMOKE_KIT_ROOT:?run via --run-consumer-smoke on the gate binary}"
set -euo pipefail

mkdir -p scripts .github/workflows

# The registry. Every gate this kit ships is registered here, or left out
# with a reason: check-workflow-tiering reads a workflow directory a fresh
# install does not create (the smoke's probe finds that surface absent).
cat >scripts/gates.list <<'LIST'
# gates.list — one registered gate per line, run in this order.
check-action-gh-repo
check-action-job-ref
check-action-permissions
check-action-pinning
check-action-run-path
check-action-run-shell
check-assertion-strength
check-commit-msg
check-commit-subject
check-core-files
check-enforcement-fresh
check-exec-bit
check-front-end-fail-open
check-gate-exemption-tasks
check-gate-fail-closed
check-gate-fixture-coverage
check-gate-output
check-gate-substrate-parity
check-graph
check-identity
check-install-disposition
check-kit-enum
check-path-dialect
check-pipe-membership
check-portability-floor
check-projection-roster
check-reads-couples
check-readme-roster
check-root-tiering
check-test-hermetic
check-smoke-entry-guard
check-template-copy-parity
check-template-registry-parity
check-tree-terms
# unregistered: check-kit-registration — on-surface: the consumer's README is theirs to write, and a scratch consumer has none
# unregistered: check-workflow-tiering — on-surface: the consumer's workflow directory is theirs to create
# unregistered: check-gate-assertions — on-surface: its corpus is SPEC.md, which the payload withholds; the kit's own SPEC.md also documents the publisher's members, which resolve only in the publisher's tree
# unregistered: check-shellcheck — on-surface: it wraps ShellCheck, which only an adopter who authors shell installs
LIST

# Two members pass in the scratch and are still left out on purpose; the
# registry above declares them too, so check-gate-substrate-parity (I)
# reads the decision in the consumer's own tree:
# smoke-unregistered: check-gate-assertions — on-surface: its corpus is SPEC.md, which the payload withholds; the kit's own SPEC.md also documents the publisher's members, which resolve only in the publisher's tree
# smoke-unregistered: check-shellcheck — on-surface: it wraps ShellCheck, which only an adopter who authors shell installs

# template NAME DEST — installs a kit template verbatim where the kit ships
# one, else the inline body on stdin.
template() {
	if [ -f "$SMOKE_KIT_ROOT/templates/$1" ]; then
		cp "$SMOKE_KIT_ROOT/templates/$1" "$2"
		cat >/dev/null
	else
		cat >"$2"
	fi
}

# The leak ban's pattern list (check-tree-terms, check-commit-msg).
template msg-patterns.list scripts/msg-patterns.list <<'PATTERNS'
# msg-patterns.list — one POSIX ERE per line; a tracked line or a commit
# message matching one is refused.
/(home|Users)/[A-Za-z0-9._-]+/
PATTERNS

# The repository root's allowlist (check-root-tiering): what this tree keeps
# at its top.
cat >scripts/root-allowlist.list <<'ALLOW'
.github
.gitignore
docs
gate-sdk
scripts
ALLOW

# The governed surface the action gates read: one workflow, its one action
# pinned to a full commit SHA, explicit permissions, bash steps.
template gates-workflow.yml .github/workflows/gates.yml <<'YAML'
name: gates

on:
  push:
    branches: [main]

permissions:
  contents: read

jobs:
  gates:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
      - name: Battery
        shell: bash
        run: |
          bash gate-sdk/bin/run-gates.sh
YAML

# The two generated pages the freshness gates compare (check-graph,
# check-enforcement-fresh), emitted last, once every registry surface is
# written and tracked: a page names only the surfaces the tree tracks.
git add -A
mkdir -p docs
bash "$SMOKE_KIT_ROOT/bin/run-gates.sh" --emit graph >scripts/CHECK-GRAPH.html
bash "$SMOKE_KIT_ROOT/bin/run-gates.sh" --emit enforcement-map >docs/enforcement.md

# The hook exercise: opt in, run the placed pre-commit over the staged
# install, then undo the opt-in so the harness's own commits run no hook.
git add -A
bash "$SMOKE_KIT_ROOT/bin/run-gates.sh" --install-hooks >/dev/null
hooks="$(git config core.hooksPath)"
"$hooks/pre-commit"
git config --unset core.hooksPath
