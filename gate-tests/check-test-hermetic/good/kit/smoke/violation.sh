#!/usr/bin/env bash
# No credential knob here: its calls are not held.
"$SMOKE_KIT_ROOT/bin/tool.sh" --plant
