#!/usr/bin/env bash
# graph: couples=*.txt dir=one valve=none tier=precommit
