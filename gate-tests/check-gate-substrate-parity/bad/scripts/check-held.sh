#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# spec: SPEC.md §check-held — a member held in shell
# port-until: held-cohort
echo 'HELD: clean (stand-in)'
