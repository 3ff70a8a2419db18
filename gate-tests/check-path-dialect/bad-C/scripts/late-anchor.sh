#!/usr/bin/env bash
export A="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
cd "$(pwd -P)"
readonly B="$(cd "$(git rev-parse --show-toplevel)" && pwd -P)"
echo "${A%/bin} $B"
