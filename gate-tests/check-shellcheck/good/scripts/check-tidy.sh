#!/usr/bin/env bash
# A consumer gate ShellCheck has nothing to say about at warning severity.
set -u
dir="${1:-.}"
cd "$dir" || exit 2
# An info-level note (an unquoted expansion) is below the bar.
echo TIDY: clean \($PWD\)
