#!/usr/bin/env bash
# A stand-in planted violation.
: "${SMOKE_KIT_ROOT:?run via --run-consumer-smoke}"
echo check-x
