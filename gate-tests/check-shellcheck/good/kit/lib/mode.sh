#!/bin/sh
# Read by tools/harness.sh after it sets MODE_UNDER_TEST.
show_mode() {
  echo "mode: ${MODE_UNDER_TEST:-off}"
}
