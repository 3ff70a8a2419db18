#!/usr/bin/env bash
top=$(git rev-parse --show-toplevel)
quiet="$(git rev-parse --git-dir 2>/dev/null)"
root="$(cd "$(git rev-parse --show-toplevel)" && pwd)"
common=$(git rev-parse --git-common-dir)
cd "$common" || exit 2
echo "$top $quiet $root"
