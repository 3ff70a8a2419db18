#!/usr/bin/env bash
p="$1"
[[ $p == /* ]] && echo rooted
[[ $p != "/"* ]] && echo relative
case $p in
/*) echo rooted ;;
esac
# path-dialect-exempt:
case $p in /*) echo "an empty reason declares nothing" ;; esac
