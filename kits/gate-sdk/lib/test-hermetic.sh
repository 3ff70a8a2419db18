# shellcheck shell=bash
# lib/test-hermetic.sh — the first thing every gate-tests/*.test.sh sources,
# so a bespoke test reads no configuration of the tree it runs from, whether
# the fixture runner spawned it or someone ran `bash x.test.sh` by hand.
#
# no-port: its API is shell functions run inside the sourcing test's own shell, and the pins must hold before any gates binary is known to exist.
#
# On source it:
#   - points every kit's <KIT>_KNOB_FILE and <KIT>_LOCAL_KNOB_FILE at one
#     shared empty file, and the retired <KIT>_CONFIG_FILE at an empty .sh
#     (the kits: gate-sdk, every *-kit beside it, and any sibling holding
#     checks/ or smoke/);
#   - unsets GATE_SDK_TMP_DIR and GATE_SDK_WORKFLOW_DIR, so both resolve to
#     their relative defaults in the test's own sandbox;
#   - puts the physical temp dir first in GIT_CEILING_DIRECTORIES, so a
#     stray .git in it never makes a mktemp sandbox look like a repository;
#   - pins GATE_SDK_NATIVE_BIN absolute, only when it is unset, from
#     lib/gate.sh's own answer joined to the repository holding the kit;
#   - exports GATE_SDK_ROOT absolute.
# It reads no knob of its own. A test needing real configuration overrides a
# pin after the source line (a later assignment, or env -u NAME).

_th_lib="$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)" || {
	printf 'test-hermetic.sh: cannot locate its own directory\n' >&2
	exit 2
}
_th_sdk="${_th_lib%/lib}"
_th_parent="${_th_sdk%/*}"
[ -n "$_th_parent" ] || _th_parent=/

_th_tmp="${TMPDIR:-/tmp}"
_th_empty_knobs="$_th_tmp/gate-sdk-hermetic-empty.knobs"
_th_empty_sh="$_th_tmp/gate-sdk-hermetic-empty.sh"
# Fixed paths, always truncated to empty: no trap, no growth.
: >"$_th_empty_knobs" && : >"$_th_empty_sh" || {
	printf 'test-hermetic.sh: cannot create the empty knob files under %s\n' "$_th_tmp" >&2
	exit 2
}

# The kit roster: gate-sdk itself, then every sibling named *-kit or holding
# checks/ or smoke/, as environment prefixes (upper-cased, - to _).
# assertion A: the kit roster from this file's own location.
_th_prefixes=()
_th_kit_prefix() {
	printf '%s\n' "$1" | tr 'abcdefghijklmnopqrstuvwxyz-' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ_'
}
_th_prefixes+=("$(_th_kit_prefix "${_th_sdk##*/}")")
for _th_dir in "$_th_parent"/*/; do
	_th_dir="${_th_dir%/}"
	[ "$_th_dir" != "$_th_sdk" ] || continue
	case ${_th_dir##*/} in
	*-kit) ;;
	*) [ -d "$_th_dir/checks" ] || [ -d "$_th_dir/smoke" ] || continue ;;
	esac
	_th_prefixes+=("$(_th_kit_prefix "${_th_dir##*/}")")
done

# assertion B: tracked and retired files pinned empty.
for _th_p in "${_th_prefixes[@]}"; do
	export "${_th_p}_KNOB_FILE=$_th_empty_knobs"
	export "${_th_p}_CONFIG_FILE=$_th_empty_sh"
done

# assertion C: relative scratch and workflow roots.
unset GATE_SDK_TMP_DIR GATE_SDK_WORKFLOW_DIR

# assertion D: the temp dir heads the ceiling.
_th_ceiling="$(CDPATH='' cd -- "$_th_tmp" && pwd -P)" || _th_ceiling="$_th_tmp"
export GIT_CEILING_DIRECTORIES="$_th_ceiling${GIT_CEILING_DIRECTORIES:+:$GIT_CEILING_DIRECTORIES}"

# shellcheck source=gate.sh
. "$_th_lib/gate.sh"

# The binary pin: the accessor's own answer (suffix included), resolved in
# the repository that holds the kit, joined there when relative. The anchor
# is the nearest directory above the kit carrying a .git entry, else the
# kit's parent. A value the invoker already set is kept as it is.
# assertion E: the binary pin, only when unset.
if [ -z "${GATE_SDK_NATIVE_BIN+set}" ]; then
	_th_anchor="$_th_parent"
	_th_up="$_th_parent"
	while :; do
		if [ -e "$_th_up/.git" ] || [ -L "$_th_up/.git" ]; then
			_th_anchor="$_th_up"
			break
		fi
		[ "$_th_up" != / ] && [ -n "$_th_up" ] || break
		_th_up="${_th_up%/*}"
		[ -n "$_th_up" ] || _th_up=/
	done
	_th_bin="$(CDPATH='' cd -- "$_th_anchor" && gate_native_bin)" || {
		printf 'test-hermetic.sh: cannot resolve GATE_SDK_NATIVE_BIN\n' >&2
		exit 2
	}
	if ! gate_path_rooted "$_th_bin"; then
		_th_bin="${_th_anchor%/}/${_th_bin#./}"
	fi
	export GATE_SDK_NATIVE_BIN="$_th_bin"
fi

# assertion F: the kit root, absolute.
export GATE_SDK_ROOT="$_th_sdk"

# Only now the overlays: a seat's overlay could still place the binary above.
for _th_p in "${_th_prefixes[@]}"; do
	export "${_th_p}_LOCAL_KNOB_FILE=$_th_empty_knobs"
done

# gate_env NAME=VALUE... [-u NAME]... COMMAND [ARG...] — runs COMMAND (a
# shell function too, which env(1) cannot) in a subshell with the given
# variables exported or unset. Use it inside $(...) to steer one case.
# assertion H: gate_env.
gate_env() {
	(
		while [ $# -gt 0 ]; do
			case $1 in
			-u)
				[ $# -ge 2 ] || {
					printf 'gate_env: -u needs a name\n' >&2
					exit 2
				}
				unset "$2"
				shift 2
				;;
			*=*)
				case ${1%%=*} in
				'' | [0-9]* | *[!A-Za-z0-9_]*) break ;;
				esac
				export "${1?}"
				shift
				;;
			*) break ;;
			esac
		done
		if [ $# -eq 0 ]; then
			printf 'gate_env: no command given\n' >&2
			exit 2
		fi
		"$@"
	)
}

# gate_run GATE CHECKS-DIR [ARG...] — runs one gate by name, resolved in
# CHECKS-DIR through gate_command (never a script path), in the working
# directory, and answers its status. A gate that resolves nowhere, or a
# dispatch harness error, is status 2 with the reason on stderr.
# assertion I: gate_run.
gate_run() {
	local name="${1-}" dir="${2-}" argv rc line
	if [ -z "$name" ] || [ -z "$dir" ]; then
		printf 'gate_run: usage: gate_run GATE CHECKS-DIR [ARG...]\n' >&2
		return 2
	fi
	shift 2
	argv="$(gate_command "$name" "$dir")"
	rc=$?
	case $rc in
	0) ;;
	1)
		printf 'gate_run: %s resolves in no check dir (%s)\n' "$name" "$dir" >&2
		return 2
		;;
	*) return 2 ;;
	esac
	local -a cmd=()
	while IFS= read -r line; do
		cmd+=("$line")
	done <<<"$argv"
	"${cmd[@]}" "$@"
}

# gate_arm_run ARM [ARG...] — runs one of the binary's arms (for example
# gate_arm_run --emit kit-roots) and answers its status; an unavailable
# binary is status 2 with the reason on stderr.
# assertion J: gate_arm_run.
gate_arm_run() {
	local bin
	bin="$(gate_native_bin)" || return 2
	if ! _gate_bin_ready "$bin"; then
		_gate_bin_missing gate_arm_run
		return 2
	fi
	"$(_gate_spell "$bin")" "$@"
}
