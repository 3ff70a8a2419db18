#!/usr/bin/env bash
# plain.sh — declares no exit contract.
exit 0
