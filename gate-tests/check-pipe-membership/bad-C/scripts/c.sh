#!/usr/bin/env bash
set -euo pipefail
big="$(cat "$0")"
printf '%s\n' "$big" | grep -q needle
echo "$(cat "$0")" | head -1
