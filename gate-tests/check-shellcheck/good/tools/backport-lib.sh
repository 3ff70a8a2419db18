#!/usr/bin/env bash
# Settings for the backporting tool under contrib/, which sources this.
release_rx='^v[0-9]+\.[0-9]+\.[0-9]+$'
