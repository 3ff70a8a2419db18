#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# assertion A: first
# assertion B: second
    # assertion C: third, indented
echo "LISTED: clean (x)"
