#!/usr/bin/env bash
# pause.sh — asks whether the work may stop.
# usage: pause.sh
#   exit: 0 OK, 1 PAUSE, 2 STALE RESET-OK
# exit: 3 OK
exit 0
