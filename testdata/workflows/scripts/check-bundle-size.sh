#!/bin/sh
set -eu
echo "scripts/check-bundle-size.sh"
