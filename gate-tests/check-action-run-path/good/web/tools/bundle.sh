#!/bin/sh
echo bundle
