#!/usr/bin/env bash
# A kit-shipped gate: its capture checks the status in the same command.
v="$(jq -r .x cfg.json)" || { printf 'KIT-SIDE: jq failed\n' >&2; exit 2; }
echo "KIT-SIDE: clean ($v)"
