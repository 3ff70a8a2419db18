# A case sourced by loose.sh, which does not set -e.
cd /tmp/cases
rm -f ./*.out
