#!/usr/bin/env bash
# A kit-shipped gate with a warning.
for f in $(ls); do echo "$f"; done
