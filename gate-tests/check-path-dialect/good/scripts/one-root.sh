#!/usr/bin/env bash
# One root alone may be composed: there is no second spelling to disagree.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
echo "$here/lib"
