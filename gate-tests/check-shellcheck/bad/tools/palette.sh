# Colours for the scripts that source this file.
amber="\033[0;33m"
printf '%s\n' "${SHADE_NAME}" >/dev/null
