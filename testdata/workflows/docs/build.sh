#!/bin/sh
set -eu
echo "docs/build.sh"
