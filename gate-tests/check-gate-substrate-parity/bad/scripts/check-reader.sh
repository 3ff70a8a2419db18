#!/usr/bin/env bash
# graph: couples=*.gate dir=one valve=none tier=precommit
# spec: SPEC.md §check-reader — reads every descriptor
echo 'READER: clean (stand-in)'
