#!/usr/bin/env bash
# port-until: no-such-slug
echo x
