#!/usr/bin/env bash
# A gate whose awk runs inside functions whose callers drop the status.
f=input.txt
scan() {
	awk '/TODO/ { print FILENAME ":" FNR }' "$1"
}
keys() { jq -r 'keys[]' "$1"; }
out="$(scan "$f")"
ks=$(keys data.json)
echo "VIAFUNC: clean ($out $ks)"
