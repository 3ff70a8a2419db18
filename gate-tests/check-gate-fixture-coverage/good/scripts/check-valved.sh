#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# no-fixture: reads the live HEAD-versus-worktree diff, which no committed case can hold
echo "VALVED: clean (x)"
