#!/bin/sh
# spec: demo-kit/SPEC.md §config
FOO_BAR=${DEMO_FOO_LIMIT:-1}
