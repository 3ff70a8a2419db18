#!/usr/bin/env bash
# Near misses of the idioms the gate leaves out: each one still splits,
# globs or expands at the wrong time.
trap "rm -f $lock" EXIT
lock=$(mktemp)
cd $(dirname "$0") || exit 1
images=($IMAGES)
echo "${images[@]}" "$lock"
