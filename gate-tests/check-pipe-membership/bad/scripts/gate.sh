#!/usr/bin/env bash
set -euo pipefail
roster=(a b c)
if printf '%s\n' "${roster[@]}" | grep -qxF "$1"; then echo member; fi
for e in "${roster[@]}"; do
  echo "$e"
done | head -n1
big="$(cat "$0")"
printf '%s\n' "$big" | grep -q needle
