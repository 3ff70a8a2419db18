#!/usr/bin/env bash
# Sourced by workflow steps for their summary table.
readonly mark_ok="passed"
readonly mark_bad="failed"
