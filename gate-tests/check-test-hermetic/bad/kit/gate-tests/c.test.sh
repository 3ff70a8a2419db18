#!/usr/bin/env bash
# Sources the kit library directly: the invoker's knob files leak in.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/gate.sh"
