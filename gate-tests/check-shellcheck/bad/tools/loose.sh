#!/usr/bin/env bash
# Runs one case with no errexit: a failed cd in it goes on elsewhere.
. "$(dirname "$0")/loose-case.sh"
