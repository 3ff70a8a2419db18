# Colours for the scripts that source this file.
green="\033[0;32m"
plain="\033[0m"
printf '%s\n' "${PALETTE_NAME:?set by the sourcing script}" >/dev/null
