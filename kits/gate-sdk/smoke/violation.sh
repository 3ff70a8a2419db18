#!/usr/bin/env bash
# smoke/violation.sh — plants one violation gate-sdk's battery must catch:
# a staged workflow whose action is pinned to a moving tag, not a commit SHA.
#
# no-port: a smoke recipe is the executable form of a planted violation and runs only under the smoke harness.
#
# The first stdout line names the gate expected to catch it.
: "${SMOKE_KIT_ROOT:?run via --run-consumer-smoke on the gate binary}"
set -euo pipefail

mkdir -p .github/workflows
cat >.github/workflows/release-notes.yml <<'YAML'
name: release-notes

on:
  push:
    tags: ["v*"]

permissions:
  contents: read

jobs:
  notes:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Notes
        shell: bash
        run: |
          git log --oneline -5
YAML
git add .github/workflows/release-notes.yml
echo check-action-pinning
