#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# assertion A: one
# assertion C: three
echo "SKIPPED: clean (x)"
