#!/usr/bin/env bash
# Runs inside the image, where the Dockerfile puts env.sh beside it; the
# port is that file's.
source ./env.sh
echo "control plane on :$control_port"
