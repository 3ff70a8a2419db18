#!/bin/sh
# spec: elsewhere.md §mine
my_setting=${OUR_OWN_KNOB:-7}
our_helper
