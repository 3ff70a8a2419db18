#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# assertion A: one
# assertion B: two
echo "COUNTED: clean (x)"
