#!/bin/sh
# Sets a switch, then sources a file that is not among the linted scripts:
# nothing shows the switch read.
MODE_UNDER_TEST=true
. ../elsewhere/mode.sh
echo finished
