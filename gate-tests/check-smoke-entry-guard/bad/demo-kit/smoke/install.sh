#!/usr/bin/env bash
# A stand-in smoke install with its guard.
: "${SMOKE_KIT_ROOT:?run via --run-consumer-smoke}"
echo installed
