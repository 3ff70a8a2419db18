#!/usr/bin/env bash
# Shared set-up of the spec tests. The runner itself is fetched at run time
# (make deps clones it next to the tests), so the tree does not hold it.
. ./runner.sh
