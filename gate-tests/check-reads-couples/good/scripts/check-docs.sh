#!/usr/bin/env bash
# graph: couples=docs/*.md dir=one valve=none tier=precommit
# spec: scripts/SPEC.md §check-docs — fixture subject: a walk its couples cover
find "docs" -name '*.md' -print
# reads-couples-exempt: a scratch cache nobody reads back
find "cache" -type f
find "$unbounded" -type f
