#!/bin/bash
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PALETTE_NAME=ansi
# shellcheck disable=SC1091 # the library is found through $here
source "$here/colors.sh"
printf '%bready%b %s\n' "${green}" "${plain}" "$PALETTE_NAME"
