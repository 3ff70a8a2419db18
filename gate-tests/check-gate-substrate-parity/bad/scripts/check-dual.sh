#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# spec: SPEC.md §check-reader — one spelling of two
