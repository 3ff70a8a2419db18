#!/bin/sh
# A harness sets a switch, then sources the library that reads it, by a
# path from its own directory.
MODE_UNDER_TEST=true
. ../kit/lib/mode.sh
show_mode
