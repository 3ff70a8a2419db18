#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# assertion A: one
# assertion B: two
# assertion D: a fourth the SPEC never grew
# assertion A1: a multi-character label
echo "DRIFT: clean (x)"
