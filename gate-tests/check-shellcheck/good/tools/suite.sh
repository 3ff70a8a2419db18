#!/usr/bin/env bash
# Runs the suite's cases; any failing command ends the run.
set -eo pipefail
suite_dir="$(dirname "$0")/cases"
. "$(dirname "$0")/suite-case.sh"
