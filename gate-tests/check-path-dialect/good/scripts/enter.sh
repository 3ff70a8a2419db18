#!/usr/bin/env bash
# Producers that cross where they are produced.
cd "$(git rev-parse --show-toplevel)" || exit 2
top="$(cd "$(git rev-parse --show-toplevel)" && pwd -P)"
# A presence probe reads only the status.
if git rev-parse --git-dir >/dev/null 2>&1; then :; fi
x="$(git rev-parse --git-common-dir >/dev/null && echo yes)"
# A commented producer is no producer: y=$(git rev-parse --show-toplevel)
# spec: gate-sdk/SPEC.md §The path-dialect contract — compared with another of git's own answers only, never joined
gd="$(git rev-parse --git-dir)"
echo "$top $x $gd"
