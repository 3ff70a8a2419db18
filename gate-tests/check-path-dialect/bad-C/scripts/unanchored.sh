#!/usr/bin/env bash
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
repo="$(cd "$(git rev-parse --show-toplevel)" && pwd -P)"
echo "${repo}/x $here"
