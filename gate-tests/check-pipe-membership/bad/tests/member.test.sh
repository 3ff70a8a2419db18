#!/usr/bin/env bash
set -o errexit -o pipefail
hits=(x y)
echo "${hits[*]}" | grep -m1 y
