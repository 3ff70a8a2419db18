#!/bin/sh
# the beta plugin
