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

# ------------------------------------------------------------ test scaffolding
#
# The shape most bespoke tests share: one sandbox, scratch directories in
# it, files written into them, and cases that run the gate under test there
# and compare its status and output. A test reads:
#
#     gate_sandbox check-foo "$GATE_SDK_ROOT/checks"
#     gate_scratch_repo clean
#     printf 'x\n' | gate_put README.md
#     gate_expect clean 0 'FOO: clean ('
#     gate_tests_done
#
# Public state, for a test's own setup steps: GATE_SANDBOX (the sandbox),
# GATE_SCRATCH (the current scratch directory), GATE_OUT and GATE_ERR (the
# last case's stdout and stderr). None is exported.

# _gate_t_die CALLER MESSAGE — a setup step could not run: the reason on
# stderr, a mark in the sandbox (so a step that failed inside a pipeline's
# subshell still reaches gate_tests_done), then exit 2.
_gate_t_die() {
	printf '%s: %s\n' "$1" "$2" >&2
	if [ -n "${GATE_SANDBOX-}" ] && [ -d "$GATE_SANDBOX" ]; then
		printf '%s: %s\n' "$1" "$2" >>"$GATE_SANDBOX/.gate-harness-errors"
	fi
	exit 2
}

# _gate_t_need CALLER — exits 2 unless gate_sandbox ran and a scratch
# directory is current. Builtins only.
_gate_t_need() {
	[ -n "${_GATE_T_GATE-}" ] || _gate_t_die "$1" 'call gate_sandbox first'
	[ -n "${GATE_SCRATCH-}" ] && [ -d "$GATE_SCRATCH" ] ||
		_gate_t_die "$1" 'no scratch directory yet: call gate_scratch_repo or gate_scratch_dir first'
}

# _gate_t_slurp FILE VAR — FILE's text into VAR, builtins only (a NUL byte
# is dropped).
_gate_t_slurp() {
	local text=''
	if [ -f "$1" ]; then
		{ text="$(<"$1")"; } 2>/dev/null
	fi
	printf -v "$2" '%s' "$text"
}

# _gate_t_show — the last case's stdout and stderr, each under a header.
_gate_t_show() {
	local out err
	_gate_t_slurp "$GATE_OUT" out
	_gate_t_slurp "$GATE_ERR" err
	printf -- '--- stdout\n%s%s--- stderr\n%s%s' "$out" "${out:+$'\n'}" "$err" "${err:+$'\n'}"
}

# _gate_t_record STATUS — counts one check: 0 a pass, anything else a fail.
_gate_t_record() {
	if [ "$1" = 0 ]; then
		_GATE_T_PASS=$((_GATE_T_PASS + 1))
	else
		_GATE_T_FAIL=$((_GATE_T_FAIL + 1))
	fi
}

# gate_sandbox GATE [CHECKS-DIR] — starts a test of GATE: makes the sandbox
# ${TMPDIR:-/tmp}/GATE.XXXXXX (GATE_SANDBOX), removed by an EXIT trap that
# replaces any the caller set, and zeroes the counters. With CHECKS-DIR the
# gate is resolved there by name (gate_command, as gate_run does); without
# it, the case command is the gates binary then GATE. Either way the command
# is fixed here, made absolute against the working directory, and an
# unresolvable gate or an absent binary is exit 2 with the reason.
# assertion K: gate_sandbox.
gate_sandbox() {
	local gate="${1-}" checks="${2-}" argv line bin
	if [ -z "$gate" ] || [ $# -gt 2 ]; then
		_gate_t_die gate_sandbox 'usage: gate_sandbox GATE [CHECKS-DIR]'
	fi
	[ -z "${_GATE_T_GATE-}" ] || _gate_t_die gate_sandbox "a sandbox is already open for $_GATE_T_GATE"
	_GATE_T_ARGV=()
	if [ -n "$checks" ]; then
		argv="$(gate_command "$gate" "$checks")"
		case $? in
		0) ;;
		1) _gate_t_die gate_sandbox "$gate resolves in no check dir ($checks)" ;;
		*) _gate_t_die gate_sandbox "cannot resolve $gate in $checks (reason above)" ;;
		esac
		while IFS= read -r line; do
			_GATE_T_ARGV+=("$line")
		done <<<"$argv"
	else
		bin="$(gate_native_bin)" || _gate_t_die gate_sandbox 'cannot resolve GATE_SDK_NATIVE_BIN'
		if ! _gate_bin_ready "$bin"; then
			_gate_bin_missing gate_sandbox
			exit 2
		fi
		_GATE_T_ARGV=("$bin" "$gate")
	fi
	if ! gate_path_rooted "${_GATE_T_ARGV[0]}"; then
		_GATE_T_ARGV[0]="${PWD%/}/${_GATE_T_ARGV[0]#./}"
	fi
	GATE_SANDBOX="$(mktemp -d "${TMPDIR:-/tmp}/$gate.XXXXXX")" ||
		_gate_t_die gate_sandbox "cannot make a sandbox under ${TMPDIR:-/tmp}"
	_GATE_T_SANDBOX="$GATE_SANDBOX"
	trap 'rm -rf -- "$_GATE_T_SANDBOX"' EXIT
	_GATE_T_GATE="$gate"
	_GATE_T_PASS=0
	_GATE_T_FAIL=0
	_GATE_T_RAN=0
	GATE_SCRATCH=''
	GATE_OUT="$GATE_SANDBOX/.gate-out"
	GATE_ERR="$GATE_SANDBOX/.gate-err"
}

# gate_scratch_repo NAME — makes GATE_SANDBOX/NAME a fresh git repository
# and the current scratch directory. A committer identity is exported through
# GIT_AUTHOR_*/GIT_COMMITTER_* (never written to any config), so a test may
# commit on a machine with no identity configured.
# assertion L: gate_scratch_repo and gate_scratch_dir.
gate_scratch_repo() {
	gate_scratch_dir "$@"
	git -C "$GATE_SCRATCH" init -q ||
		_gate_t_die gate_scratch_repo "cannot init a repository at $GATE_SCRATCH"
	export GIT_AUTHOR_NAME=gate-tests GIT_AUTHOR_EMAIL=gate-tests@example.invalid
	export GIT_COMMITTER_NAME=gate-tests GIT_COMMITTER_EMAIL=gate-tests@example.invalid
}

# gate_scratch_dir NAME — makes GATE_SANDBOX/NAME, a plain directory that is
# no repository, the current scratch directory.
gate_scratch_dir() {
	[ -n "${_GATE_T_GATE-}" ] || _gate_t_die gate_scratch_dir 'call gate_sandbox first'
	if gate_path_rooted "${1-}"; then
		_gate_t_die gate_scratch_dir "usage: a scratch NAME is a relative path inside the sandbox, not '${1-}'"
	fi
	case ${1-} in
	'' | . | .. | ./* | ../* | */../* | */..)
		_gate_t_die gate_scratch_dir "usage: a scratch NAME is a relative path inside the sandbox, not '${1-}'"
		;;
	esac
	GATE_SCRATCH="$GATE_SANDBOX/$1"
	mkdir -p -- "$GATE_SCRATCH" || _gate_t_die gate_scratch_dir "cannot make $GATE_SCRATCH"
}

# gate_put PATH — writes stdin to PATH in the current scratch directory
# (parents made) and stages it there when that directory is a repository.
# assertion M: gate_put and gate_loose.
gate_put() {
	_gate_t_write gate_put "$@"
	if [ -d "$GATE_SCRATCH/.git" ]; then
		git -C "$GATE_SCRATCH" add -- "$1" || _gate_t_die gate_put "cannot stage $1 in $GATE_SCRATCH"
	fi
}

# gate_loose PATH — writes stdin to PATH in the current scratch directory
# without staging it.
gate_loose() { _gate_t_write gate_loose "$@"; }

# _gate_t_write CALLER PATH — stdin to PATH in the scratch directory.
_gate_t_write() {
	_gate_t_need "$1"
	[ $# -eq 2 ] && [ -n "$2" ] || _gate_t_die "$1" "usage: $1 PATH"
	mkdir -p -- "$(dirname -- "$GATE_SCRATCH/$2")" && cat >"$GATE_SCRATCH/$2" ||
		_gate_t_die "$1" "cannot write $2 in $GATE_SCRATCH"
}

# gate_expect NAME CODE TEXT [ARG...] — one case: runs the gate under test
# with ARG... in the current scratch directory and passes when it exits CODE
# and TEXT (a fixed string) stands in its stdout or its stderr; a failure
# prints the case, both statuses, TEXT and the output. Everything here but
# the gate itself is a shell builtin, so an assignment prefixed to the call
# (even PATH=...) steers the gate alone.
# assertion N: gate_expect.
gate_expect() {
	_gate_t_need gate_expect
	[ $# -ge 3 ] || _gate_t_die gate_expect 'usage: gate_expect NAME CODE TEXT [ARG...]'
	local name="$1" code="$2" text="$3" rc out err
	shift 3
	(cd -- "$GATE_SCRATCH" && "${_GATE_T_ARGV[@]}" "$@") >"$GATE_OUT" 2>"$GATE_ERR"
	rc=$?
	_GATE_T_RAN=1
	_gate_t_slurp "$GATE_OUT" out
	_gate_t_slurp "$GATE_ERR" err
	if [ "$rc" = "$code" ] && { [[ $out == *"$text"* ]] || [[ $err == *"$text"* ]]; }; then
		_gate_t_record 0
	else
		_gate_t_record 1
		printf 'FAIL: %s: exit %s (want %s); want in stdout or stderr: %s\n' "$name" "$rc" "$code" "$text"
		_gate_t_show
	fi
}

# gate_lacks NAME TEXT — passes when the last case's stdout and stderr both
# lack TEXT (a fixed string). Builtins only.
# assertion O: gate_lacks and gate_check.
gate_lacks() {
	[ $# -eq 2 ] || _gate_t_die gate_lacks 'usage: gate_lacks NAME TEXT'
	[ "${_GATE_T_RAN-0}" = 1 ] || _gate_t_die gate_lacks 'no case has run yet'
	local out err
	_gate_t_slurp "$GATE_OUT" out
	_gate_t_slurp "$GATE_ERR" err
	if [[ $out == *"$2"* ]] || [[ $err == *"$2"* ]]; then
		_gate_t_record 1
		printf 'FAIL: %s: want absent from stdout and stderr: %s\n' "$1" "$2"
		_gate_t_show
	else
		_gate_t_record 0
	fi
}

# gate_check NAME COMMAND [ARG...] — passes when COMMAND exits 0.
gate_check() {
	[ -n "${_GATE_T_GATE-}" ] || _gate_t_die gate_check 'call gate_sandbox first'
	[ $# -ge 2 ] || _gate_t_die gate_check 'usage: gate_check NAME COMMAND [ARG...]'
	local name="$1"
	shift
	if "$@"; then
		_gate_t_record 0
	else
		_gate_t_record 1
		printf 'FAIL: %s\n' "$name"
	fi
}

# gate_tests_done — prints `GATE: N passed, M failed` and exits 0 when
# nothing failed, 1 when a check failed, 2 when no check ran or a setup step
# could not run (its reason was printed when it happened).
# assertion P: gate_tests_done.
gate_tests_done() {
	[ -n "${_GATE_T_GATE-}" ] || _gate_t_die gate_tests_done 'call gate_sandbox first'
	printf '%s: %s passed, %s failed\n' "$_GATE_T_GATE" "$_GATE_T_PASS" "$_GATE_T_FAIL"
	if [ -s "$GATE_SANDBOX/.gate-harness-errors" ]; then
		printf '%s: a setup step could not run:\n' "$_GATE_T_GATE" >&2
		cat -- "$GATE_SANDBOX/.gate-harness-errors" >&2
		exit 2
	fi
	if [ $((_GATE_T_PASS + _GATE_T_FAIL)) -eq 0 ]; then
		printf '%s: no check ran\n' "$_GATE_T_GATE" >&2
		exit 2
	fi
	[ "$_GATE_T_FAIL" -eq 0 ] || exit 1
	exit 0
}
