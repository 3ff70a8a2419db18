#!/usr/bin/env bash
# A fixture case's deliberate violation is the case's business, not the tree's.
set -o pipefail
a=(x)
printf '%s\n' "${a[@]}" | grep -q x
