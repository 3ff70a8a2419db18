#!/bin/sh
# Wait up to ten seconds for the local server; the loop only counts tries.
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  nc -z 127.0.0.1 8080 && exit 0
  sleep 1
done
echo "server never listened on 8080" >&2
exit 1
