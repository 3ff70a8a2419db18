#!/bin/sh
# spec: demo-kit/SPEC.md §check-unpaired — run in place, never copied
gate_clean "unpaired"
