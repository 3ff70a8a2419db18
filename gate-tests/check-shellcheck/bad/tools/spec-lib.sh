#!/usr/bin/env bash
# Shared set-up: every file it sources is in the tree.
. ./spec-helpers.sh
