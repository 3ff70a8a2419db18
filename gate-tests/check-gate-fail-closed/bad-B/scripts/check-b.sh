#!/usr/bin/env bash
#   fail-closed-exempt:   
n=$(awk 'END{print NR}' input.txt)
echo "B: clean ($n)"
