#!/usr/bin/env bash
# The file it sources is in the tree and does not set the port: still
# referenced but never assigned.
source ./colors-lite.sh
echo "stopping :$control_port"
