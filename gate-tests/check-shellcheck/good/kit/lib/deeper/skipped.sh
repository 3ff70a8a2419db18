#!/usr/bin/env bash
# Nested one level below lib/: not a target (the dirs are read one level).
cd /nowhere
