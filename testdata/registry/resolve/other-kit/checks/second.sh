#!/usr/bin/env bash
# graph: couples=scripts/*.md dir=one valve=none tier=precommit
