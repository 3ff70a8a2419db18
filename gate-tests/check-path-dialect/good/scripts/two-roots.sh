#!/usr/bin/env bash
# Two roots composed after the cwd is anchored to its physical spelling.
cd "$(pwd -P)"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
repo="$(cd "$(git rev-parse --show-toplevel)" && pwd -P)"
echo "$here/lib ${repo#/}"
