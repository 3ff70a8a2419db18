#!/usr/bin/env bash
spec_case() { echo "case: $1"; }
