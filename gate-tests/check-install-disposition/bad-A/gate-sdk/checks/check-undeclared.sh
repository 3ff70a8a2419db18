#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
echo "A: clean (x)"
