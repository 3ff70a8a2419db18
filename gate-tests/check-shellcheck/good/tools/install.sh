#!/bin/sh
# Installer for any /bin/sh: dash, bash and busybox ash all have local.
fetch() {
  local url="$1"
  curl -fsSL "$url"
}
fetch "${1:-https://example.invalid/tool}" >/dev/null
