#!/bin/sh
set -eu
echo "scripts/ci/test.sh"
