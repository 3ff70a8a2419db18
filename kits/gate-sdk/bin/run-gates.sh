#!/usr/bin/env bash
# bin/run-gates.sh — the shell front end of the gates binary.
#
# no-port: the front end locates the gates binary it then executes, which the binary cannot do for itself.
#
# The stub does five things: it reads the fail-open set against the first
# argument, finds the repository toplevel and enters it, exports GATE_SDK_ROOT
# from its own location, resolves the binary over GATE_SDK_NATIVE_BIN, and
# execs it. Every other argv rule, the usage text and every refusal past
# those steps are the binary's. bin/run-gates.ps1 is its PowerShell twin and
# behaves the same way.
#
#   run-gates.sh [<gates-dir>]        exec: gates --run [<gates-dir>]
#   run-gates.sh -<anything> ...      exec: gates -<anything> ... (unchanged)

# The arms whose caller is a harness that reads exit 0 as "let it through":
# when the binary cannot run, they decline at 0 instead of 2. The binary's
# internal/failopen (held equal to the arm table) is the authoritative copy;
# check-front-end-fail-open holds this line and the twin's to it.
# assertion A: one declaration line, read before anything else.
FAIL_OPEN_ARMS='--hook --statusline'

ARM_UNAVAILABLE_STATUS=2
for _rg_arm in $FAIL_OPEN_ARMS; do
	if [ "${1-}" = "$_rg_arm" ]; then
		ARM_UNAVAILABLE_STATUS=0
	fi
done

# The fixed envelopes a fail-open --hook prints when the binary cannot run.
# They are literals: nothing is interpolated, so nothing needs escaping; the
# path-bearing reason goes to stderr.
# assertion G: fixed literals, nothing interpolated.
_RG_ENVELOPE_BIN='{"systemMessage": "gate-sdk: the hook guards of this tree are not running: the gates binary is absent or not executable. Build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it; run-gates.sh names the path on stderr."}'
_RG_ENVELOPE_GIT='{"systemMessage": "gate-sdk: the hook guards of this tree are not running: git found no repository here, refuses it, or skipped a nested one. Run git status here, or git --git-dir=<that .git> status for a skipped nested repository; run-gates.sh names it on stderr."}'
_RG_ENVELOPE_NOGIT='{"systemMessage": "gate-sdk: the hook guards of this tree are not running: git is not installed or not on PATH. Install git, the one program gates needs; run-gates.sh says so on stderr."}'

# _rg_decline ENVELOPE LINE... — prints each LINE on stderr with the
# run-gates: prefix, the envelope on stdout for --hook, and exits with the
# arm's unavailable status.
# assertion I: every line the stub prints opens with run-gates:.
_rg_decline() {
	local envelope="$1" line
	shift
	for line in "$@"; do
		printf 'run-gates: %s\n' "$line" >&2
	done
	if [ "${_RG_FIRST-}" = --hook ]; then
		printf '%s\n' "$envelope"
	fi
	exit "$ARM_UNAVAILABLE_STATUS"
}
_RG_FIRST="${1-}"

# Everything above is POSIX sh; everything below is bash. Started as
# `sh run-gates.sh` (dash, busybox), the stub hands itself to bash before
# reading a bash word, so every shell gives one answer.
# assertion L: under another sh, re-run under bash, or decline naming bash.
if [ -z "${BASH_VERSION-}" ]; then
	command -v bash >/dev/null 2>&1 ||
		_rg_decline "$_RG_ENVELOPE_BIN" "bash is not on PATH; run-gates.sh is a bash script, so install bash or run the gates binary directly"
	exec bash "$0" "$@"
fi

# Anchor the working directory physically before deriving anything from it.
CDPATH='' cd -- "$(pwd -P 2>/dev/null)" 2>/dev/null || true

_rg_here="$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" 2>/dev/null && pwd -P)" || _rg_here=''
if [ -z "$_rg_here" ] || [ ! -r "${_rg_here%/bin}/lib/gate.sh" ]; then
	_rg_decline "$_RG_ENVELOPE_BIN" "cannot find lib/gate.sh beside this script (${BASH_SOURCE[0]})"
fi
# shellcheck source=../lib/gate.sh
. "${_rg_here%/bin}/lib/gate.sh"

# assertion K: git itself missing is said as such, never read as a
# repository git refuses.
if ! command -v git >/dev/null 2>&1; then
	_rg_decline "$_RG_ENVELOPE_NOGIT" "git is not installed or not on PATH; install git (the one program gates needs) or put it on PATH"
fi

# One lookup answers both the toplevel and the prefix; the toplevel ends at
# the first newline, the prefix runs to its own (a newline inside a path
# component survives).
# assertions B, C: no repository, or one git refuses.
# spec: gate-sdk/SPEC.md §The path-dialect contract — the answer is entered with cd and read back with pwd -P below; the text form only walks the prefix for a skipped nested repository
_rg_out="$(git rev-parse --show-toplevel --show-prefix 2>/dev/null && printf x)"
if [ "${_rg_out%x}" = "$_rg_out" ]; then
	if _gate_cwd_marked; then
		_rg_decline "$_RG_ENVELOPE_GIT" "git refuses the repository here; run git status to see why"
	fi
	_rg_decline "$_RG_ENVELOPE_GIT" "not inside a git repository"
fi
_rg_out="${_rg_out%x}"
_rg_top="${_rg_out%%$'\n'*}"
_rg_prefix="${_rg_out#*$'\n'}"
_rg_prefix="${_rg_prefix%$'\n'}"

# assertion D: a nested repository git skipped.
if _rg_mark="$(gate_skipped_mark "$_rg_top" "$_rg_prefix")"; then
	_rg_decline "$_RG_ENVELOPE_GIT" \
		"git skipped the nested repository at $_rg_mark and answered the one enclosing it; run git --git-dir=$_rg_mark status to see why"
fi

# A failed lookup must never reach cd as "" (an older bash takes cd "" as
# success), so an empty answer becomes a path that is never a directory.
# assertion E: enter the toplevel, export GATE_SDK_ROOT.
CDPATH='' cd -- "${_rg_top:-/dev/null/no-toplevel}" 2>/dev/null ||
	_rg_decline "$_RG_ENVELOPE_GIT" "cannot enter the repository toplevel git answered"
_rg_top="$(pwd -P)"

_rg_sdk="$(gate_sdk_root)" || _rg_decline "$_RG_ENVELOPE_BIN" "cannot locate the gate-sdk root"
case $_rg_sdk in
"$_rg_top") GATE_SDK_ROOT=. ;;
"$_rg_top"/*) GATE_SDK_ROOT="${_rg_sdk#"$_rg_top"/}" ;;
*) GATE_SDK_ROOT="$_rg_sdk" ;;
esac
export GATE_SDK_ROOT

# A fail-open arm may borrow the main checkout's binary from a linked
# worktree; a verdict arm only through the stamp-checked link.
# assertion F: resolve the binary; decline naming its spelled form.
_rg_note=''
if [ "$ARM_UNAVAILABLE_STATUS" = 0 ]; then
	_rg_bin="$(gate_harness_bin)"
else
	_rg_res="$(_gate_verdict_resolve)"
	_rg_bin="${_rg_res%%$'\n'*}"
	case $_rg_res in *$'\n'*) _rg_note="${_rg_res#*$'\n'}" ;; esac
fi
if [ -z "$_rg_bin" ] || ! _gate_bin_ready "$_rg_bin"; then
	if [ -n "$_rg_note" ]; then
		_rg_decline "$_RG_ENVELOPE_BIN" \
			"the gates binary ${_rg_bin:-(unresolved)} is absent or not executable; this is a linked worktree, so build or install the gates binary in the main checkout and run it there, or point GATE_SDK_NATIVE_BIN at it" \
			"no link to the main checkout's binary: $_rg_note"
	fi
	_rg_decline "$_RG_ENVELOPE_BIN" \
		"the gates binary ${_rg_bin:-(unresolved)} is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it"
fi
# assertion J: the file must prove it is the gates binary before the stub
# hands over: an empty or truncated file would otherwise run as an empty
# script and exit 0 having checked nothing.
if ! _gate_bin_answers "$_rg_bin"; then
	_rg_decline "$_RG_ENVELOPE_BIN" \
		"the gates binary $_rg_bin does not answer as the gates binary (empty, truncated or another program); rebuild or reinstall it, or point GATE_SDK_NATIVE_BIN at a working one"
fi

# No argument, or a first one that is not an option: the battery, the first
# positional being the gates dir, read where it was typed.
# assertion H: argv routing.
if [ $# -eq 0 ]; then
	exec -a run-gates "$_rg_bin" --run
fi
case $1 in
-*) exec -a run-gates "$_rg_bin" "$@" ;;
esac
if [ -n "$_rg_prefix" ] && ! gate_path_rooted "$1"; then
	_rg_dir="$_rg_prefix$1"
	shift
	set -- "$_rg_dir" "$@"
fi
exec -a run-gates "$_rg_bin" --run "$@"
