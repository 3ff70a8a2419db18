#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# port-until: bullet-slug
# port-until:
echo "PORT: clean (x)"
