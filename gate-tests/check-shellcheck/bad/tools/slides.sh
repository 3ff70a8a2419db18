#!/usr/bin/env bash
# Sets a name the helper it sources never reads: still unused.
SKIP_WAIT=true
. ../third_party/wait.sh
wait_key
