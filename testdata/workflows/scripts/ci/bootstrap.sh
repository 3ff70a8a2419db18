#!/bin/sh
set -eu
echo "scripts/ci/bootstrap.sh"
