#!/usr/bin/env bash
# hermetic-exempt: it proves the front end reads the clone's own knob file, so it must see it
bash "$GATE_SDK_ROOT/bin/run-gates.sh" --emit knob-values
