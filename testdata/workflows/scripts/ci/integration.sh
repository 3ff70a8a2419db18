#!/bin/sh
set -eu
echo "scripts/ci/integration.sh"
