#!/usr/bin/env bash
set -euo pipefail
while read -r line; do echo "$line"; done < /etc/hostname | grep -q .
