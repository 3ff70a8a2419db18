#!/usr/bin/env bash
# lib-gate.test.sh — direct tests of lib/gate.sh: fail_closed (no fixture can
# crash a well-formed awk, so the guard is proved here), the pre-binary
# accessors, gate_path_rooted's corpus, gate_command's statuses and the
# nested-repository mark. Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u

pass=0
fail=0
check() { # check NAME EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf 'FAIL: %s\n  want: %q\n  got:  %q\n' "$1" "$2" "$3"
	fi
}

sandbox="$(mktemp -d "${TMPDIR:-/tmp}/lib-gate-test.XXXXXX")" || {
	printf 'lib-gate.test.sh: cannot make a sandbox\n' >&2
	exit 2
}
trap 'rm -rf "$sandbox"' EXIT
cd "$sandbox" || exit 2

# ---------------------------------------------------------------- fail_closed

# A crashed awk capture under fail_closed exits 2 and never prints clean.
out="$(
	bash -c '
		. "$1"
		res="$(awk "{ unterminated" /dev/null 2>/dev/null)"
		fail_closed "$?" check-demo awk
		echo "DEMO: clean (0 files)"
	' _ "$GATE_SDK_ROOT/lib/gate.sh" 2>"$sandbox/err"
)"
check 'fail_closed: crashed awk exits 2' 2 "$?"
check 'fail_closed: crashed awk prints no clean line' '' "$out"
awk '{ unterminated' /dev/null 2>/dev/null
check 'fail_closed: names the gate, the step and its status' "check-demo: could not run: awk exited $?" "$(cat "$sandbox/err")"

# A zero status passes through silently.
out="$(bash -c '. "$1"; fail_closed 0 check-demo awk; echo after' _ "$GATE_SDK_ROOT/lib/gate.sh" 2>&1)"
check 'fail_closed: status 0 passes' after "$out"

# A missing or non-numeric status is itself a harness error.
bash -c '. "$1"; fail_closed "" check-demo awk; echo after' _ "$GATE_SDK_ROOT/lib/gate.sh" >/dev/null 2>&1
check 'fail_closed: empty status exits 2' 2 "$?"

# grep's exit 1 means "no match": the capture site tells it from a crash and
# only a status above 1 reaches the guard.
out="$(
	bash -c '
		. "$1"
		printf "alpha\n" >"$2/in.txt"
		hits="$(grep -n beta "$2/in.txt")"; st=$?
		[ "$st" -le 1 ] || fail_closed "$st" check-demo grep
		[ -z "$hits" ] && echo "DEMO: clean (1 files)"
	' _ "$GATE_SDK_ROOT/lib/gate.sh" "$sandbox"
)"
check 'grep no-match is not wrapped: clean and 0' "0:DEMO: clean (1 files)" "$?:$out"

# A grep that could not read its input (status 2) does reach the guard.
bash -c '
	. "$1"
	hits="$(grep -n beta "$2/absent.txt" 2>/dev/null)"; st=$?
	[ "$st" -le 1 ] || fail_closed "$st" check-demo grep
	echo clean
' _ "$GATE_SDK_ROOT/lib/gate.sh" "$sandbox" >/dev/null 2>&1
check 'grep read error exits 2' 2 "$?"

# ---------------------------------------------------------------- gate_path_rooted

rooted() { if gate_path_rooted "$1"; then echo yes; else echo no; fi; }
while IFS='|' read -r path want; do
	check "gate_path_rooted '$path'" "$want" "$(rooted "$path")"
	check "gate_path_rooted '$path' (C.UTF-8 collation)" "$want" "$(LC_ALL=C.UTF-8 rooted "$path")"
done <<'EOF'
/|yes
/abs/x|yes
\x|yes
\\server\share|yes
C:/x|yes
c:\x|yes
Z:\|yes
a:/|yes
C:|no
C:x|no
1:/x|no
é:/x|no
ß:\x|no
:/x|no
./x|no
x/y|no
|no
~/x|no
EOF

# ---------------------------------------------------------------- exe suffix

check 'gate_exe_suffix windows triple' .exe "$(gate_exe_suffix x86_64-pc-windows-msvc)"
check 'gate_exe_suffix linux triple' '' "$(gate_exe_suffix x86_64-unknown-linux-gnu)"
case "$(uname -s)" in
MINGW* | MSYS* | CYGWIN* | Windows_NT) host=.exe ;;
*) host='' ;;
esac
check 'gate_exe_suffix host' "$host" "$(gate_exe_suffix)"

# ---------------------------------------------------------------- accessors

# The hermetic pins aim both knob files at one empty file; these cases use
# real files in the sandbox, so un-pin them and the binary pin.
acc() { # acc FUNCTION — the accessor's answer with the pins lifted
	gate_env -u GATE_SDK_KNOB_FILE -u GATE_SDK_LOCAL_KNOB_FILE -u GATE_SDK_NATIVE_BIN \
		-u GATE_SDK_NATIVE_CRATE -u GATE_SDK_GATES_DIR "$@"
}
mkdir -p "$sandbox/acc/scripts"
cd "$sandbox/acc" || exit 2
check 'native bin: default' "bin/gates$host" "$(acc gate_native_bin)"
check 'native bin: spelled default' "./bin/gates$host" "$(acc gate_native_bin_spelled)"
check 'native crate: default' . "$(acc gate_native_crate)"
check 'targets file: default drops "."' targets.list "$(acc gate_native_targets_file)"
check 'runners file: default' runners.list "$(acc gate_native_runners_file)"

printf '# a comment\nGATE_SDK_NATIVE_BIN = tracked/gates  \r\nGATE_SDK_NATIVE_CRATE = mod//\nnot a knob line\nGATE_SDK_NATIVE_RUNNERS_FILE = has\ttab\n' >scripts/gate-sdk-config.knobs
check 'native bin: tracked file' tracked/gates "$(acc gate_native_bin)"
check 'native crate: trailing slashes stripped' mod "$(acc gate_native_crate)"
check 'targets file: derived from the resolved crate' mod/targets.list "$(acc gate_native_targets_file)"
check 'runners file: a tab-bearing line is skipped' mod/runners.list "$(acc gate_native_runners_file)"

printf 'GATE_SDK_NATIVE_BIN=overlay/gates\n' >scripts/gate-sdk-config.local.knobs
check 'native bin: overlay beats tracked' overlay/gates "$(acc gate_native_bin)"
check 'native bin: env beats overlay' env/gates "$(acc GATE_SDK_NATIVE_BIN=env/gates gate_native_bin)"
check 'native bin: exported empty takes the default' "bin/gates$host" "$(acc GATE_SDK_NATIVE_BIN= gate_native_bin)"

printf 'GATE_SDK_NATIVE_BIN =\n' >scripts/gate-sdk-config.local.knobs
check 'native bin: empty overlay takes the default' "bin/gates$host" "$(acc gate_native_bin)"
rm -f scripts/gate-sdk-config.local.knobs

mkdir -p elsewhere
printf 'GATE_SDK_NATIVE_BIN = located/gates\n' >elsewhere/t.knobs
check 'native bin: tracked locator' located/gates "$(acc GATE_SDK_KNOB_FILE=elsewhere/t.knobs gate_native_bin)"
check 'native bin: a missing located file is skipped' "bin/gates$host" \
	"$(acc GATE_SDK_KNOB_FILE=elsewhere/none.knobs gate_native_bin)"
mkdir -p other
printf 'GATE_SDK_NATIVE_BIN = other-dir/gates\n' >other/gate-sdk-config.knobs
check 'native bin: GATE_SDK_GATES_DIR moves the files' other-dir/gates "$(acc GATE_SDK_GATES_DIR=other gate_native_bin)"
check 'msg patterns: default under the gates dir' other/msg-patterns.list \
	"$(acc GATE_SDK_GATES_DIR=other _gate_prebinary_knob GATE_SDK_MSG_PATTERN_FILES)"

while IFS='|' read -r value want; do
	check "gate_native_bin_spelled '$value'" "$want" "$(acc GATE_SDK_NATIVE_BIN="$value" gate_native_bin_spelled)"
done <<'EOF'
native/target/release/x|./native/target/release/x
bin/gates|./bin/gates
./bin/gates|./bin/gates
../up/gates|../up/gates
/abs/gates|/abs/gates
C:\x\gates.exe|C:\x\gates.exe
\x\gates|\x\gates
d:/x|d:/x
EOF

# gate_msg_pattern_files: tracked files are required, local ones optional.
printf 'secret\n' >scripts/msg-patterns.list
check 'msg pattern files: tracked present, local absent' scripts/msg-patterns.list "$(acc gate_msg_pattern_files)"
printf 'mine\n' >scripts/msg-patterns.local.list
check 'msg pattern files: local appended' "scripts/msg-patterns.list
scripts/msg-patterns.local.list" "$(acc gate_msg_pattern_files)"
rm -f scripts/msg-patterns.list
acc gate_msg_pattern_files >/dev/null 2>&1
check 'msg pattern files: a missing tracked file is status 2' 2 "$?"
cd "$sandbox" || exit 2

# ---------------------------------------------------------------- gate_command

mkdir -p "$sandbox/cmd/consumer" "$sandbox/cmd/kit"
cd "$sandbox/cmd" || exit 2
printf '#!/bin/sh\necho ran\n' >consumer/check-a.sh
: >kit/check-a.gate
: >kit/check-b.gate
: >kit/check-c.sh
: >kit/check-c.gate
printf '#!/bin/sh\nexit 0\n' >fakebin
chmod +x fakebin consumer/check-a.sh

out="$(gate_command check-a consumer kit 2>"$sandbox/err")"
check 'gate_command: consumer .sh first' '0:consumer/check-a.sh' "$?:$out"
out="$(gate_command check-c kit 2>"$sandbox/err")"
check 'gate_command: .sh beats .gate in one dir' '0:kit/check-c.sh' "$?:$out"
out="$(GATE_SDK_NATIVE_BIN=fakebin gate_command check-b consumer kit 2>"$sandbox/err")"
check 'gate_command: .gate is the binary then the name' "0:./fakebin
check-b" "$?:$out"
check 'gate_command: nothing on stderr when it resolves' '' "$(cat "$sandbox/err")"
out="$(GATE_SDK_NATIVE_BIN="$sandbox/cmd/fakebin" gate_command check-b kit 2>/dev/null)"
check 'gate_command: an absolute binary is kept' "$sandbox/cmd/fakebin
check-b" "$out"
out="$(gate_command check-none consumer kit 2>"$sandbox/err")"
check 'gate_command: unresolved is status 1, empty argv' '1:' "$?:$out"
check 'gate_command: unresolved leaves the naming to the caller' '' "$(cat "$sandbox/err")"
out="$(GATE_SDK_NATIVE_BIN=absent/gates gate_command check-b kit 2>"$sandbox/err")"
check 'gate_command: absent binary is exit 2, empty argv' '2:' "$?:$out"
case "$(cat "$sandbox/err")" in
*./absent/gates*) check 'gate_command: absent binary named spelled' yes yes ;;
*) check 'gate_command: absent binary named spelled' 'a reason naming ./absent/gates' "$(cat "$sandbox/err")" ;;
esac
: >not-exec
out="$(GATE_SDK_NATIVE_BIN=not-exec gate_command check-b kit 2>/dev/null)"
check 'gate_command: non-executable binary is exit 2' '2:' "$?:$out"
# The exit inside gate_command ends only the capture's subshell; the caller
# must read the status, which this shell still has.
check 'gate_command: the caller survives the exit' ok ok

# Under an ignored SIGPIPE the capture still carries argv alone.
out="$( (trap '' PIPE; GATE_SDK_NATIVE_BIN=fakebin gate_command check-b kit) 2>"$sandbox/err")"
check 'gate_command: argv intact with SIGPIPE ignored' "./fakebin
check-b" "$out"
check 'gate_command: no diagnostic with SIGPIPE ignored' '' "$(cat "$sandbox/err")"

# gate_run dispatches through gate_command.
out="$(gate_run check-a consumer 2>&1)"
check 'gate_run: runs the resolved script' '0:ran' "$?:$out"
gate_run check-none consumer >/dev/null 2>&1
check 'gate_run: unresolved is status 2' 2 "$?"
cd "$sandbox" || exit 2

# ---------------------------------------------------------------- prune set

mkdir -p "$sandbox/prune"
cd "$sandbox/prune" || exit 2
printf '#!/bin/sh\n[ "$1 $2" = "--emit knob-values" ] || exit 2\nprintf "GATE_SDK_PRUNE_DIRS\\tscalar\\ttarget .git node_modules\\nGATE_SDK_PRUNE_EXTRA_DIRS\\tscalar\\tstar*dir\\n"\n' >fakeknobs
chmod +x fakeknobs
mkdir -p tree/a/target tree/star1dir tree/star*dir tree/b
: >tree/a/target/x.md
: >tree/a/keep.md
: >tree/star1dir/kept.md
: >"tree/star*dir/gone.md"
: >tree/b/keep2.md
out="$(gate_env GATE_SDK_NATIVE_BIN="$sandbox/prune/fakeknobs" gate_find tree -name '*.md' | LC_ALL=C sort)"
check 'gate_find: prunes leaf names literally' "tree/a/keep.md
tree/b/keep2.md
tree/star1dir/kept.md" "$out"
pruned() { if gate_path_pruned "$1"; then echo yes; else echo no; fi; }
out="$(gate_env GATE_SDK_NATIVE_BIN="$sandbox/prune/fakeknobs" bash -c '
	. "$1"
	for p in a/target/x target src/targets/x "star*dir/y" star1dir/y node_modules; do
		if gate_path_pruned "$p"; then printf "%s " yes; else printf "%s " no; fi
	done
	gate_prune_load
	printf "%s " "${GATE_GREP_EXCLUDES[@]}"
' _ "$GATE_SDK_ROOT/lib/gate.sh")"
check 'gate_path_pruned and GATE_GREP_EXCLUDES' 'yes yes no yes no yes --exclude-dir=target --exclude-dir=.git --exclude-dir=node_modules --exclude-dir=star\*dir ' "$out"
gate_env GATE_SDK_NATIVE_BIN="$sandbox/prune/absent" bash -c '. "$1"; gate_find . >/dev/null; echo reached' _ "$GATE_SDK_ROOT/lib/gate.sh" >/dev/null 2>&1
check 'gate_find: an unreadable prune set is exit 2' 2 "$?"
cd "$sandbox" || exit 2

# ---------------------------------------------------------------- skipped mark

mkdir -p "$sandbox/nest"
cd "$sandbox/nest" || exit 2
git init -q . 2>/dev/null
mkdir -p sub/.git sub/deep/deeper
check 'gate_skipped_mark: nearest .git above the start' "$sandbox/nest/sub/.git" \
	"$(gate_skipped_mark "$sandbox/nest" sub/deep/deeper/)"
mkdir -p sub/deep/.git
check 'gate_skipped_mark: nearest first' "$sandbox/nest/sub/deep/.git" \
	"$(gate_skipped_mark "$sandbox/nest" sub/deep/deeper/)"
out="$(gate_skipped_mark "$sandbox/nest" '')"
check 'gate_skipped_mark: the toplevel itself is never tested' '1:' "$?:$out"
out="$(GIT_DIR="$sandbox/nest/.git" gate_skipped_mark "$sandbox/nest" sub/deep/)"
check 'gate_skipped_mark: a GIT_DIR disables the mark' '1:' "$?:$out"
rm -rf sub/deep/.git sub/.git
ln -s "$sandbox/nowhere" sub/.git
check 'gate_skipped_mark: a dangling symlink counts' "$sandbox/nest/sub/.git" \
	"$(gate_skipped_mark "$sandbox/nest" sub/deep/)"
rm -f sub/.git
out="$(gate_skipped_mark "$sandbox/nest" sub/deep/)"
check 'gate_skipped_mark: none found is status 1' '1:' "$?:$out"
cd "$sandbox" || exit 2

printf 'lib-gate.test.sh: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
