#!/usr/bin/env bash
# graph: couples=*.sh dir=one valve=none tier=precommit
# spec: SPEC.md §check-reader — reads every shell declaration
echo 'READER: clean (stand-in)'
