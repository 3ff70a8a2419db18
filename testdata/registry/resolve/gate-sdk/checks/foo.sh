#!/usr/bin/env bash
# graph: couples=scripts/*.md dir=one valve=none tier=precommit
# spec: gate-sdk/SPEC.md §foo — kit shell gate
echo FOO: clean
