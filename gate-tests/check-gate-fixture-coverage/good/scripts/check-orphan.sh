#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# Not registered: owes no pair.
echo "ORPHAN: clean (x)"
