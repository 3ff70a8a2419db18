#!/usr/bin/env bash
set -euo pipefail
names=(one two)
[[ " ${names[*]} " == *" two "* ]] && echo ok
