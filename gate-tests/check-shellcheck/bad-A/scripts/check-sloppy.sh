#!/usr/bin/env bash
# cd without a fallback, and a variable assigned but never used.
cd /tmp
unused=1
echo "SLOPPY: clean (x)"
