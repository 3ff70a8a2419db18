#!/usr/bin/env bash
# graph: couples=*.txt dir=one valve=none tier=precommit
# spec: SPEC.md §check-reader — a kit's own shell gate
# no-port: the stand-in kit's ruling keeps this member in shell
echo 'KIT-SHELL: clean (stand-in)'
