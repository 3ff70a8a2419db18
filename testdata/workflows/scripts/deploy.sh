#!/bin/sh
set -eu
echo "scripts/deploy.sh"
