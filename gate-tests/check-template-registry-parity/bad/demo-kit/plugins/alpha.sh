#!/bin/sh
# the alpha plugin
