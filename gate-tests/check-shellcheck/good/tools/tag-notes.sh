#!/usr/bin/env zsh
# Written for zsh on a maintainer's machine: ShellCheck does not read zsh,
# so the gate skips it and counts it.
setopt extendedglob
for tag in ${(f)"$(git tag --sort=-creatordate)"}; do
  print -r -- $tag
done
