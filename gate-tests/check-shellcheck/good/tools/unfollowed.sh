#!/bin/sh
# Sets a switch, then sources a file the tree does not hold (put in place
# at run time): that file may read it, so nothing is reported.
MODE_UNDER_TEST=true
. ../elsewhere/mode.sh
echo finished
