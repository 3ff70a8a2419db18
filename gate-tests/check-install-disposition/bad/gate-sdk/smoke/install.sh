#!/usr/bin/env bash
# The kit's smoke recipe: its registry heredoc is the roster.
mkdir -p scripts
cat >scripts/gates.list <<'LIST'
# gates.list
check-listed
LIST
cat >scripts/notes.txt <<'EOF2'
check-not-a-roster-line
EOF2
