#!/usr/bin/env bash
# A kit library function.
say() { printf '%s\n' "$*"; }
