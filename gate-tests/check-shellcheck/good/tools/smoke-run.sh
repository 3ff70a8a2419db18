#!/usr/bin/env bash
# Run by the smoke workflow, whose env: sets the lower-case names below.
set -euo pipefail
tar -xzf "dist/relay-${channel}-${arch_name}.tar.gz" -C "$unpack_dir"
"$unpack_dir/relay" --version
