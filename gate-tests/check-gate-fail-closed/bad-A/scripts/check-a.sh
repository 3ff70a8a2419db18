#!/usr/bin/env bash
# An || branch that does not stop the gate guards nothing; a backtick capture is held like $( ).
f=input.txt
names=$(awk -F: '{print $1}' "$f") || true
local_value() { local v; v=`jq -r .x cfg.json`; echo "$v"; }
echo "A: clean ($names)"
