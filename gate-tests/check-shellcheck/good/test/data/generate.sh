#!/usr/bin/env bash
# Regenerates the fixtures with the tool fixture-env.sh names.
source "$(dirname "$0")/../../tools/fixture-env.sh"
"$fixture_bin" --out "$(dirname "$0")"
