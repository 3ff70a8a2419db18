#!/usr/bin/env bash
# Near miss: the library and what it sources are tracked, so a name no file
# reads is plain dead code.
. ./spec-lib.sh

leftover_name=world
spec_case "greets"
