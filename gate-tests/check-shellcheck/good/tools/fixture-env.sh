#!/usr/bin/env bash
# Sets the paths the fixture generator under test/data reads.
fixture_bin="$PWD/bin/fixture"
