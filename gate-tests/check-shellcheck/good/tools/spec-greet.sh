#!/usr/bin/env bash
# The runner reads the description, and runs each quoted body later with
# eval: the names set and read there are invisible to a linter.
spec_title="greeting prints the name"

. ./spec-lib.sh

expected_name=world

spec_case "greets" '
  greeting=$(echo "hello $expected_name")
'

echo "last: $greeting"
