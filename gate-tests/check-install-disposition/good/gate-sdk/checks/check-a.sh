#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# install: zero-config
# armed-by: GATE_SDK_PORTABILITY_PATHS
echo "A: clean (x)"
