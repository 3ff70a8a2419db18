#!/usr/bin/env bash
set -euo pipefail
roster=(b a c)
# Full readers drain their input: no early exit, no SIGPIPE.
printf '%s\n' "${roster[@]}" | sort
echo "${roster[*]}" | tr ' ' '\n' | paste -sd,
# A length is one word, not the set.
echo "${#roster[@]}" | grep -q 3
# One-line producers cannot be cut short.
find . -name '*.sh' -print -quit | grep -q sh
# A quoted bar splits nothing.
grep -q 'a|b' "$0" || true
# Membership as a loop: the rewrite the gate asks for.
found=0
for e in "${roster[@]}"; do [[ $e == "$1" ]] && { found=1; break; }; done
echo "$found"
# A commented pipe is no pipe: printf '%s\n' "${roster[@]}" | grep -q x
