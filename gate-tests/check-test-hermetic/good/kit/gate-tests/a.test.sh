#!/usr/bin/env bash
# A unit test that starts from the hermetic bootstrap.
. "$(dirname -- "${BASH_SOURCE[0]}")/../lib/test-hermetic.sh"
gate_tests_done
