#!/usr/bin/env bash
# A stand-in smoke install.
: "${SMOKE_KIT_ROOT:?run via --run-consumer-smoke}"
echo installed
