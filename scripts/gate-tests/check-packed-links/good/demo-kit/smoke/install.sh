#!/bin/sh
: "${SMOKE_KIT_ROOT:?run via --run-consumer-smoke}"
