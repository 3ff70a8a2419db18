#!/bin/sh
printf 'nothing listed here\n'
