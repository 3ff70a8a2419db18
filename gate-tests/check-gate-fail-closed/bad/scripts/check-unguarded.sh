#!/usr/bin/env bash
f=input.txt
out=$(awk '{print $1}' "$f")
# fail-closed-exempt:
rows=$(jq -r '.rows[]' data.json)
[ -z "$out" ] && echo "UNGUARDED: clean"
