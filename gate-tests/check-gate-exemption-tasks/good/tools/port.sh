#!/usr/bin/env bash
# port-until: live-slug
set -eu
cat <<DOC
# port-until: not-a-header-line
DOC
