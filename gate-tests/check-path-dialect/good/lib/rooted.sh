#!/usr/bin/env bash
# The one absoluteness test, and sites routed through it.
gate_path_rooted() {
	case $1 in
	/* | \\*) return 0 ;;
	[A-Za-z]:/*) return 0 ;;
	esac
	[[ $1 == /* ]] && return 0
	return 1
}
if gate_path_rooted "$1"; then echo rooted; fi
# Prefix and containment globs are not absoluteness tests.
case $1 in
*/* | /dev/* | "$HOME"/* | /*/sub) echo contained ;;
esac
[[ $1 == "/*" ]] && echo "a quoted pattern is a literal string"
url=/api/v1
# path-dialect-exempt: a URL path, which names no file
case $url in /*) echo "an absolute URL path" ;; esac
