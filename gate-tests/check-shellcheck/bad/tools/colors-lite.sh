#!/usr/bin/env bash
# shellcheck disable=SC2034
red=$'\e[31m'
