#!/bin/sh
find . -type f -printf '%p\n'
find . -name x -printf '%f\n' # portability-declared:
# portability-declared: a valve two lines up does not reach

find /tmp -printf '%s\n'
