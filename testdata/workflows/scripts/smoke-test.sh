#!/bin/sh
set -eu
echo "scripts/smoke-test.sh"
