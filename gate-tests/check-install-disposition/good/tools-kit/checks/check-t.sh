#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# install: never
echo "T: clean (x)"
