#!/usr/bin/env bash
echo "NO-GRAPH: clean (x)"
