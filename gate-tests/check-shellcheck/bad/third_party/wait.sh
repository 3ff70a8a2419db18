#!/usr/bin/env bash
# A vendored helper that waits for a key; it reads no setting.
wait_key() {
  read -r _
}
