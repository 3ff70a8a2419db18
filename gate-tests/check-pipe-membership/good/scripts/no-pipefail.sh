#!/usr/bin/env bash
# No pipefail here: a SIGPIPE'd producer changes no status.
set -eu
roster=(a b c)
printf '%s\n' "${roster[@]}" | grep -qxF "$1"
