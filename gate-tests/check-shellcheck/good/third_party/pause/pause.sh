#!/usr/bin/env bash
# A vendored helper the demo sources; it reads SKIP_PAUSE, which the
# demo sets before sourcing it.
pause() {
  if [ "$SKIP_PAUSE" != true ]; then
    read -r _
  fi
}
