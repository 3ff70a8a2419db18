#!/usr/bin/env bash
# A gate whose every awk/jq capture has its status handled.
f=input.txt
out="$(awk '{print $1}' "$f")" || { echo "GUARDED: awk failed" >&2; exit 2; }
rows=$(jq -r '.rows[]' data.json) || exit 2
names=$(gawk -F: '{print $1}' "$f")
st=$?
fail_closed "$st" check-guarded gawk
count=$(awk 'END{print NR}' "$f"); fail_closed "$?" check-guarded awk
if ! keys=$(jq -r 'keys[]' data.json); then exit 2; fi
# fail-closed-exempt: the field selector runs on a value already in memory
first=$(printf '%s\n' "$out" | awk '{print $1; exit}')
inline=$(awk '{print}' <<< "$rows")
match=$(grep -c x "$f")
sum=$(( 1 + 2 ))
# An awk in a comment: x=$(awk '{print}' f)
# A function running awk, its status checked where it is captured.
scan() {
	awk '{print $1}' "$1"
}
fields="$(scan "$f")" || exit 2
echo "GUARDED: clean ($count $names $keys $first $inline $match $sum $fields)"
