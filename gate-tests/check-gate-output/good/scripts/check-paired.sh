#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# Its fixture pair proves its output; the source is not read.
exit 0
