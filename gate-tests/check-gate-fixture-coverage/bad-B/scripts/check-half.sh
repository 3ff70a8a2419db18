#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# no-fixture: the valve does not excuse a half pair
echo "HALF: clean (x)"
