#!/bin/sh
# spec: demo-kit/SPEC.md §check-bare
# No knob-with-default idiom here: the knob class is empty on both sides.
gate_clean "bare"
