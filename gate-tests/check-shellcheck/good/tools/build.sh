#!/usr/bin/env bash
# A tool under an extra lint dir.
printf 'built\n'
