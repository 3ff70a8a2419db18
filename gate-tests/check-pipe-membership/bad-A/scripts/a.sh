#!/usr/bin/env bash
set -eo pipefail
a=(p q)
x=$(printf '%s\n' "${a[@]:1}" \
  | grep --max-count=1 q)
echo "$x"
printf '%s\n' "${a[@]}" | grep -Fm1 p
