#!/usr/bin/env bash
# A planted violation that would write into whatever directory it is run in.
echo x >planted.txt
