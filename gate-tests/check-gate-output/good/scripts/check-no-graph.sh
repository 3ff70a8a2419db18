#!/usr/bin/env bash
# no-fixture: reads the live HEAD-versus-worktree diff, which no committed case can hold
if [ -n "$(git diff HEAD --name-only)" ]; then
	echo "README.md:1: the tree moved"
	echo "help: commit or stash the change"
	exit 1
fi
echo "NO-GRAPH: clean (the worktree matches HEAD)"
