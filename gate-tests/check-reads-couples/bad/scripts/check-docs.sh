#!/usr/bin/env bash
# graph: couples=docs/*.md dir=one valve=none tier=precommit
# spec: scripts/SPEC.md §check-docs — fixture subject: a couple stopping short of the walk
gate_find "notes" -type f
find "docs" -name '*.md' -print
