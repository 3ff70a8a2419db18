# shellcheck shell=bash
# lib/gate.sh — gate-sdk's one sourced shell library: the fail-closed guard,
# the walk adapters over the prune set, gate resolution and dispatch, and the
# few knob readers that must answer before a gates binary exists.
#
# no-port: bash callers source these functions, and the pre-binary accessors answer before any gates binary exists to ask.
#
# Every knob read other than the pre-binary ones goes through the binary
# (gate_knob_values); nothing here re-spells a default the binary owns,
# except the pre-binary rows, which a Go test holds equal to the binary.
# The library sets no shell option and leaves the caller's traps alone.

# The library's own directory, fixed at source time and crossed physically
# (cd && pwd -P), so a later cd in the caller cannot move it.
_GATE_LIB_DIR="$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)" || _GATE_LIB_DIR=''

# ------------------------------------------------------------ fail closed

# fail_closed STATUS [GATE [WHAT...]] — the guard for a capture whose
# non-zero status means the check itself could not run (an awk, jq or parser
# crash):
#     out="$(awk '...' "$f")"; st=$?
#     fail_closed "$st" check-foo awk
# Status 0 passes through; anything else prints `GATE: could not run: WHAT
# exited STATUS` on stderr and exits 2, so a crashed capture never reads as
# clean. GATE defaults to the running script's name. Never hand it grep's 1
# ("no match"): decide that at the capture site.
# assertion A: non-zero is exit 2, never clean.
fail_closed() {
	local status="${1-}" who what
	who="${2:-$(_gate_self_name)}"
	if [ $# -gt 2 ]; then
		shift 2
		what="$*"
	else
		what='a step'
	fi
	case $status in
	0) return 0 ;;
	'' | *[!0-9]*)
		printf '%s: could not run: fail_closed was handed "%s", not an exit status\n' "$who" "$status" >&2
		exit 2
		;;
	esac
	printf '%s: could not run: %s exited %s\n' "$who" "$what" "$status" >&2
	exit 2
}

# _gate_self_name — the name a diagnostic opens with: the running script's
# basename less .sh (a sourced test or gate reports as itself).
_gate_self_name() {
	local n="${0##*/}"
	printf '%s\n' "${n%.sh}"
}

# ------------------------------------------------------------ paths

# gate_path_rooted PATH — status 0 when PATH is absolute in either dialect: a
# leading / or \, or an ASCII letter, a colon, then / or \. Prints nothing and
# converts nothing. The letters are spelled out because a bracket range reads
# by locale collation where globasciiranges is off (bash < 5, /bin/sh).
# assertion F: the one absoluteness test, letters spelled out.
gate_path_rooted() {
	case $1 in
	/* | \\*) return 0 ;;
	[ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz]:/*) return 0 ;;
	[ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz]:\\*) return 0 ;;
	esac
	return 1
}

# _gate_join DIR LEAF — the knob table's template join: a DIR of "" or "."
# drops out with its slash, and a DIR already ending in / gets no second one.
_gate_join() {
	case $1 in
	'' | .) printf '%s\n' "$2" ;;
	*/) printf '%s%s\n' "$1" "$2" ;;
	*) printf '%s/%s\n' "$1" "$2" ;;
	esac
}

# gate_exe_suffix [TARGET] — the one spelling of the executable suffix:
# prints .exe or nothing. A non-empty target, a Go <os>/<arch> pair
# (windows/amd64) or a triple (x86_64-pc-windows-msvc), answers for that
# target; no argument (or an empty one) answers for the host.
# assertion G: the one spelling of .exe.
gate_exe_suffix() {
	if [ -n "${1-}" ]; then
		case $1 in *-windows-* | windows/*) printf '.exe\n' ;; *) printf '\n' ;; esac
		return 0
	fi
	case "$(uname -s 2>/dev/null)" in
	MINGW* | MSYS* | CYGWIN* | Windows_NT) printf '.exe\n' ;;
	*) printf '\n' ;;
	esac
}

# ------------------------------------------------------------ pre-binary knobs

# gate_sdk_gates_dir — the consumer's gates directory (GATE_SDK_GATES_DIR,
# environment only; empty or unset reads as the default).
# assertion D: the gates-dir locator.
gate_sdk_gates_dir() {
	printf '%s\n' "${GATE_SDK_GATES_DIR:-scripts}"
}

# gate_sdk_root — the kit root this library lives in, absolute and physical.
gate_sdk_root() {
	if [ -z "$_GATE_LIB_DIR" ]; then
		printf '%s\n' "lib/gate.sh: cannot locate its own directory" >&2
		return 2
	fi
	printf '%s\n' "${_GATE_LIB_DIR%/lib}"
}

# _gate_knob_file_value FILE NAME — prints the value of the first scalar
# line `NAME = value` in FILE. Status 1 when the file is absent or unreadable
# or carries no such line. Malformed lines are skipped, not refused: the
# binary refuses them at its first read.
_gate_knob_file_value() {
	local file="$1" name="$2" line head value
	[ -f "$file" ] && [ -r "$file" ] || return 1
	while IFS= read -r line || [ -n "$line" ]; do
		line="${line%$'\r'}"
		case $line in *=*) ;; *) continue ;; esac
		head="${line%%=*}"
		head="${head#"${head%%[! $'\t']*}"}"
		head="${head%"${head##*[! $'\t']}"}"
		[ "$head" = "$name" ] || continue
		value="${line#*=}"
		case $value in *$'\t'*) continue ;; esac
		value="${value#"${value%%[! ]*}"}"
		value="${value%"${value##*[! ]}"}"
		printf '%s\n' "$value"
		return 0
	done <"$file"
	return 1
}

# _gate_prebinary_default NAME — the table's default for one pre-binary
# knob, derived the way the table derives it.
# assertion C: defaults derived as the table derives them.
_gate_prebinary_default() {
	case $1 in
	GATE_SDK_NATIVE_BIN) printf 'bin/gates%s\n' "$(gate_exe_suffix '')" ;;
	GATE_SDK_NATIVE_CRATE) printf '.\n' ;;
	GATE_SDK_NATIVE_TARGETS_FILE) _gate_join "$(_gate_prebinary_knob GATE_SDK_NATIVE_CRATE)" targets.list ;;
	GATE_SDK_NATIVE_RUNNERS_FILE) _gate_join "$(_gate_prebinary_knob GATE_SDK_NATIVE_CRATE)" runners.list ;;
	GATE_SDK_MSG_PATTERN_FILES) _gate_join "$(gate_sdk_gates_dir)" msg-patterns.list ;;
	GATE_SDK_MSG_PATTERN_FILES_LOCAL) _gate_join "$(gate_sdk_gates_dir)" msg-patterns.local.list ;;
	*)
		printf '%s\n' "lib/gate.sh: $1 is not a pre-binary knob; read it with gate_knob_values" >&2
		return 2
		;;
	esac
}

# _gate_prebinary_knob NAME — resolves one pre-binary scalar over the static
# precedence: environment (an exported empty value counts), then the local
# overlay, then the tracked knob file (each at its locator or its gates-dir
# default), then the default. Every pre-binary row answers its default for
# an empty value. It refuses nothing.
# assertion B: environment, overlay, tracked file, default; refuses nothing.
_gate_prebinary_knob() {
	local name="$1" value='' found=0 dir overlay tracked
	case $name in
	GATE_SDK_NATIVE_BIN | GATE_SDK_NATIVE_CRATE | GATE_SDK_NATIVE_TARGETS_FILE | \
		GATE_SDK_NATIVE_RUNNERS_FILE | GATE_SDK_MSG_PATTERN_FILES | GATE_SDK_MSG_PATTERN_FILES_LOCAL) ;;
	*)
		_gate_prebinary_default "$name"
		return
		;;
	esac
	if [ -n "${!name+set}" ]; then
		value="${!name}"
		found=1
	fi
	if [ "$found" = 0 ]; then
		dir="$(gate_sdk_gates_dir)"
		overlay="${GATE_SDK_LOCAL_KNOB_FILE:-$dir/gate-sdk-config.local.knobs}"
		tracked="${GATE_SDK_KNOB_FILE:-$dir/gate-sdk-config.knobs}"
		if value="$(_gate_knob_file_value "$overlay" "$name")"; then
			found=1
		elif value="$(_gate_knob_file_value "$tracked" "$name")"; then
			found=1
		fi
	fi
	if [ "$found" = 0 ] || [ -z "$value" ]; then
		value="$(_gate_prebinary_default "$name")" || return 2
	fi
	if [ "$name" = GATE_SDK_NATIVE_CRATE ]; then
		while [ "$value" != / ] && [ "${value%/}" != "$value" ]; do value="${value%/}"; done
	fi
	printf '%s\n' "$value"
}

# gate_native_bin — where the gates binary is: GATE_SDK_NATIVE_BIN resolved
# in shell. A path, relative to the toplevel by default: use it for -x tests
# and dirname, and gate_native_bin_spelled to print or run it.
gate_native_bin() { _gate_prebinary_knob GATE_SDK_NATIVE_BIN; }

# gate_native_crate — the Go module root (GATE_SDK_NATIVE_CRATE), trailing /
# stripped.
gate_native_crate() { _gate_prebinary_knob GATE_SDK_NATIVE_CRATE; }

# gate_native_targets_file / gate_native_runners_file — the platform roster
# and the target-to-runner map.
gate_native_targets_file() { _gate_prebinary_knob GATE_SDK_NATIVE_TARGETS_FILE; }
gate_native_runners_file() { _gate_prebinary_knob GATE_SDK_NATIVE_RUNNERS_FILE; }

# gate_native_bin_spelled — the binary as a command token. A relative value
# with no ./ or ../ anchor gets ./ (a bare name would be a PATH lookup in sh
# and no command at all in PowerShell); a rooted or anchored value is kept.
# assertion E: ./ for an unanchored relative value.
gate_native_bin_spelled() {
	local bin
	bin="$(gate_native_bin)" || return 2
	_gate_spell "$bin"
}

# _gate_spell PATH — the ./-anchoring rule, for any path.
_gate_spell() {
	if gate_path_rooted "$1"; then
		printf '%s\n' "$1"
		return 0
	fi
	case $1 in
	./* | ../*) printf '%s\n' "$1" ;;
	*) printf './%s\n' "$1" ;;
	esac
}

# gate_msg_pattern_files — the banned-pattern file set, one path per line:
# every word of GATE_SDK_MSG_PATTERN_FILES (each required: a missing one is
# named on stderr and the status is 2), then each word of
# GATE_SDK_MSG_PATTERN_FILES_LOCAL that exists. Words are split on blanks and
# expanded by nothing.
# assertion H: tracked lists required, local ones optional.
gate_msg_pattern_files() {
	local tracked local_ f rc=0
	local -a words
	tracked="$(_gate_prebinary_knob GATE_SDK_MSG_PATTERN_FILES)" || return 2
	local_="$(_gate_prebinary_knob GATE_SDK_MSG_PATTERN_FILES_LOCAL)" || return 2
	read -r -a words <<<"$tracked" || true
	for f in ${words[@]+"${words[@]}"}; do
		if [ -f "$f" ]; then
			printf '%s\n' "$f"
		else
			printf '%s\n' "gate_msg_pattern_files: required pattern file $f is missing (GATE_SDK_MSG_PATTERN_FILES)" >&2
			rc=2
		fi
	done
	words=()
	read -r -a words <<<"$local_" || true
	for f in ${words[@]+"${words[@]}"}; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done
	return "$rc"
}

# ------------------------------------------------------------ the binary

# _gate_bin_ready PATH — status 0 when PATH is an executable regular file.
_gate_bin_ready() {
	[ -x "$1" ] && [ ! -d "$1" ]
}

# _gate_bin_answers PATH — status 0 when PATH answers the handshake only
# the gates binary gives: `PATH --handshake <nonce>` prints
# `gates-handshake <nonce>`. An empty file (which a shell would run as an
# empty script, exit 0), a truncated one or another program fails it.
_gate_bin_answers() {
	local nonce reply
	nonce="$$.${RANDOM-0}.${RANDOM-0}"
	reply="$("$1" --handshake "$nonce" 2>/dev/null </dev/null)" || return 1
	[ "$reply" = "gates-handshake $nonce" ]
}

# _gate_bin_missing CALLER — the absent-binary diagnostic, on stderr.
_gate_bin_missing() {
	printf '%s: the gates binary %s is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it\n' \
		"$1" "$(gate_native_bin_spelled)" >&2
}

# gate_knob_values NAME... — each knob's resolved wire value, one line per
# name (an indexed or keyed knob's elements tab-joined), as the binary
# resolves it in the working directory. The binary may answer in the
# roster's line grammar (NAME<TAB>shape<TAB>element, one line per element);
# that is folded into the one-line-per-name form here. Status 2 when the
# binary is unavailable or refuses.
# assertion I: every other knob read asks the binary.
gate_knob_values() {
	local bin out
	bin="$(gate_native_bin)" || return 2
	if ! _gate_bin_ready "$bin"; then
		_gate_bin_missing gate_knob_values
		return 2
	fi
	out="$("$(_gate_spell "$bin")" --emit knob-values "$@" && printf x)"
	[ "${out%x}" != "$out" ] || return 2
	out="${out%x}"
	if ! _gate_roster_grammar "$out" "$@"; then
		printf '%s\n' "lib/gate.sh: gate_knob_values: the binary's --emit knob-values answer is not NAME<TAB>shape<TAB>value lines for the names asked" >&2
		return 2
	fi
	_gate_fold_roster "$out" "$@"
}

# _gate_roster_grammar OUT NAME... — status 0 when every line of OUT is
# NAME<TAB>shape<TAB>value for one of the NAMEs.
_gate_roster_grammar() {
	local out="$1" line n ok
	shift
	[ -n "$out" ] || return 1
	while IFS= read -r line; do
		ok=1
		for n in "$@"; do
			case $line in
			"$n"$'\t'scalar$'\t'* | "$n"$'\t'indexed$'\t'* | "$n"$'\t'keyed$'\t'*)
				ok=0
				break
				;;
			esac
		done
		[ "$ok" = 0 ] || return 1
	done <<<"${out%$'\n'}"
	return 0
}

# _gate_fold_roster OUT NAME... — one line per NAME, its elements from OUT
# tab-joined (a scalar has one).
_gate_fold_roster() {
	local out="$1" line name value joined first
	local -a lines=()
	shift
	while IFS= read -r line; do
		lines+=("$line")
	done <<<"${out%$'\n'}"
	local i=0
	for name in "$@"; do
		joined=''
		first=1
		while [ "$i" -lt "${#lines[@]}" ]; do
			line="${lines[$i]}"
			case $line in "$name"$'\t'*) ;; *) break ;; esac
			value="${line#*$'\t'}"
			value="${value#*$'\t'}"
			if [ "$first" = 1 ]; then joined="$value"; else joined="$joined"$'\t'"$value"; fi
			first=0
			i=$((i + 1))
			case $line in "$name"$'\t'scalar$'\t'*) break ;; esac
		done
		printf '%s\n' "$joined"
	done
}

# gate_kit_roots — the kit roots, one per line relative to the working
# directory, as the binary derives them. With GATE_SDK_ROOT unset the binary
# is handed this library's own kit root, so a direct sourcer reads the roots
# beside the library rather than the working directory's default.
gate_kit_roots() {
	local bin root
	bin="$(gate_native_bin)" || return 2
	if ! _gate_bin_ready "$bin"; then
		_gate_bin_missing gate_kit_roots
		return 2
	fi
	if [ -n "${GATE_SDK_ROOT:-}" ]; then
		"$(_gate_spell "$bin")" --emit kit-roots
	else
		root="$(gate_sdk_root)" || return 2
		GATE_SDK_ROOT="$root" "$(_gate_spell "$bin")" --emit kit-roots
	fi
}

# gate_check_dirs — the gate-declaration directories, consumer-first: the
# gates dir, then each kit root's checks/, those that exist, one per line.
# assertion J: gates dir first, then each kit's checks/.
gate_check_dirs() {
	local roots root dir
	roots="$(gate_kit_roots)" || return 2
	dir="$(gate_sdk_gates_dir)"
	[ -d "$dir" ] && printf '%s\n' "$dir"
	while IFS= read -r root; do
		[ -n "$root" ] || continue
		dir="$(_gate_join "$root" checks)"
		[ -d "$dir" ] && printf '%s\n' "$dir"
	done <<<"$roots"
	return 0
}

# gate_resolve NAME [DIR...] — the declaration path of gate NAME: the first
# DIR/NAME.sh, else DIR/NAME.gate, over DIR... or, when none is given, over
# gate_check_dirs (consumer-first). Status 1 when it resolves nowhere, 2 when
# the directory set itself could not be read.
# assertion K: .sh before .gate, directories in order.
gate_resolve() {
	local name="${1-}" dirs d
	shift || true
	case $name in '' | */* | .*) return 1 ;; esac
	if [ $# -eq 0 ]; then
		dirs="$(gate_check_dirs)" || return 2
		while IFS= read -r d; do
			[ -n "$d" ] && set -- "$@" "$d"
		done <<<"$dirs"
	fi
	for d in "$@"; do
		d="${d%/}"
		if [ -f "$d/$name.sh" ]; then
			printf '%s\n' "$d/$name.sh"
			return 0
		fi
		if [ -f "$d/$name.gate" ]; then
			printf '%s\n' "$d/$name.gate"
			return 0
		fi
	done
	return 1
}

# gate_command NAME [DIR...] — the argv that runs gate NAME, one element per
# line: DIR/NAME.sh alone, or the binary's command token then NAME. No knob
# is baked in. Status 1 (nothing printed) when NAME resolves in no directory;
# a harness error (the binary absent or not executable for a .gate member,
# the directory set unreadable) is an exit 2 from inside, after a reason on
# stderr. Capture it with $(...) and keep stderr apart from stdout.
# assertion L: 1 unresolved, exit 2 from inside for a harness error.
gate_command() {
	local name="${1-}" decl bin rc
	decl="$(gate_resolve "$@")"
	rc=$?
	case $rc in
	0) ;;
	1) return 1 ;;
	*)
		printf 'gate_command: cannot list the gate directories to resolve %s\n' "$name" >&2
		exit 2
		;;
	esac
	case $decl in
	*.sh) printf '%s\n' "$decl" ;;
	*)
		bin="$(gate_native_bin)" || exit 2
		if ! _gate_bin_ready "$bin"; then
			printf 'gate_command: %s is declared by %s and runs in the gates binary, but %s is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it\n' \
				"$name" "$decl" "$(_gate_spell "$bin")" >&2
			exit 2
		fi
		printf '%s\n%s\n' "$(_gate_spell "$bin")" "$name"
		;;
	esac
}

# ------------------------------------------------------------ the prune set

# gate_prune_load — fills the prune set once per process, from one
# gate_knob_values call over GATE_SDK_PRUNE_DIRS then
# GATE_SDK_PRUNE_EXTRA_DIRS, split on blanks and expanded by nothing. It also
# fills GATE_GREP_EXCLUDES (grep's --exclude-dir= form). A binary that cannot
# answer is a harness error: exit 2. A gate splicing GATE_GREP_EXCLUDES calls
# this first; gate_find and gate_path_pruned call it themselves.
# assertion M: one read of the prune set per process.
gate_prune_load() {
	[ "${_GATE_PRUNE_LOADED:-}" = 1 ] && return 0
	local values word
	local -a words
	values="$(gate_knob_values GATE_SDK_PRUNE_DIRS GATE_SDK_PRUNE_EXTRA_DIRS)" || {
		printf '%s: cannot read the prune set (GATE_SDK_PRUNE_DIRS, GATE_SDK_PRUNE_EXTRA_DIRS)\n' "$(_gate_self_name)" >&2
		exit 2
	}
	_GATE_PRUNE=()
	GATE_GREP_EXCLUDES=()
	read -r -d '' -a words <<<"$values" || true
	for word in ${words[@]+"${words[@]}"}; do
		_GATE_PRUNE+=("$word")
		GATE_GREP_EXCLUDES+=("--exclude-dir=$(_gate_glob_quote "$word")")
	done
	_GATE_PRUNE_LOADED=1
}

# _gate_glob_quote WORD — WORD with fnmatch metacharacters escaped, so find
# -name and grep --exclude-dir match it literally.
_gate_glob_quote() {
	local w="$1" out='' c i
	for ((i = 0; i < ${#w}; i++)); do
		c="${w:i:1}"
		case $c in '*' | '?' | '[' | ']' | '\') out+="\\$c" ;; *) out+="$c" ;; esac
	done
	printf '%s\n' "$out"
}

# gate_path_pruned RELPATH — status 0 when any segment of RELPATH is a
# prune-set member. Hand it a path relative to the walk's root: a member is
# matched anywhere in the string.
gate_path_pruned() {
	gate_prune_load
	local d
	for d in ${_GATE_PRUNE[@]+"${_GATE_PRUNE[@]}"}; do
		case "/$1/" in */"$d"/*) return 0 ;; esac
	done
	return 1
}

# gate_find ROOT [EXPR...] — find(1) under ROOT, never descending into a
# prune-set directory; EXPR defaults to -type f. Paths print as find spells
# them (ROOT-prefixed).
# assertion N: pruned leaves matched literally.
gate_find() {
	gate_prune_load
	local root="${1:-.}" d
	shift || true
	local -a names=()
	for d in ${_GATE_PRUNE[@]+"${_GATE_PRUNE[@]}"}; do
		names+=(-o -name "$(_gate_glob_quote "$d")")
	done
	[ $# -gt 0 ] || set -- -type f
	if [ ${#names[@]} -eq 0 ]; then
		find "$root" \( "$@" \) -print
	else
		find "$root" -type d \( "${names[@]:1}" \) -prune -o \( "$@" \) -print
	fi
}

# ------------------------------------------------------------ worktrees

# _gate_main_checkout_root — in a linked worktree whose common dir is
# <main>/.git, prints <main>; status 1 anywhere else (a main checkout, a bare
# repository, a --separate-git-dir checkout, no repository).
_gate_main_checkout_root() {
	local out gd cd
	# spec: gate-sdk/SPEC.md §The path-dialect contract — both answers are entered with cd and read back with pwd -P two lines down
	out="$(git rev-parse --git-dir --git-common-dir 2>/dev/null)" || return 1
	gd="${out%%$'\n'*}"
	cd="${out#*$'\n'}"
	[ -n "$gd" ] && [ -n "$cd" ] && [ "$gd" != "$out" ] || return 1
	gd="$(CDPATH='' cd -- "$gd" 2>/dev/null && pwd -P)" || return 1
	cd="$(CDPATH='' cd -- "$cd" 2>/dev/null && pwd -P)" || return 1
	[ "$gd" != "$cd" ] || return 1
	[ "${cd##*/}" = .git ] || return 1
	printf '%s\n' "${cd%/.git}"
}

# _gate_main_checkout_bin — the main checkout's own resolution of
# GATE_SDK_NATIVE_BIN (its overlay included), rooted: a rooted answer is
# kept, a relative one is joined onto the main checkout. Status 1 outside a
# linked worktree.
_gate_main_checkout_bin() {
	local main bin
	main="$(_gate_main_checkout_root)" || return 1
	bin="$(CDPATH='' cd -- "$main" && gate_native_bin)" || return 1
	if gate_path_rooted "$bin"; then
		printf '%s\n' "$bin"
	else
		printf '%s/%s\n' "$main" "${bin#./}"
	fi
}

# gate_harness_bin — the binary a harness-integration (fail-open) arm runs:
# the local door when executable; else, in a linked worktree, the main
# checkout's binary when executable; else the local answer unchanged. git is
# asked only after the local test fails.
# assertion O: a fail-open arm may borrow main's binary.
gate_harness_bin() {
	local spelled main
	spelled="$(gate_native_bin_spelled)" || return 2
	if _gate_bin_ready "$(gate_native_bin)"; then
		printf '%s\n' "$spelled"
		return 0
	fi
	if main="$(_gate_main_checkout_bin)" && _gate_bin_ready "$main"; then
		printf '%s\n' "$main"
		return 0
	fi
	printf '%s\n' "$spelled"
}

# gate_native_source_stamp [CRATE] — the source stamp of the module tracked
# under CRATE (default gate_native_crate): each path `git ls-files -z` lists,
# in index order, paired with its worktree blob id (`git hash-object --`), one
# "<id> <path>" record ended by a NUL each, and that listing hashed again
# with `git hash-object --stdin`. repo.SourceStamp in the binary is the same
# three calls, and a Go test holds the two equal. Status 1, nothing printed,
# when git cannot answer (not a repository, a tracked path missing on disk).
# assertion R: one derivation, git the only hasher.
gate_native_source_stamp() {
	local crate="${1-}" ids paths n i s
	if [ -z "$crate" ]; then
		crate="$(gate_native_crate)" || return 1
	fi
	mapfile -d '' paths < <(git -C "$crate" ls-files -z 2>/dev/null) || return 1
	git -C "$crate" rev-parse --git-dir >/dev/null 2>&1 || return 1
	n=${#paths[@]}
	ids=()
	if [ "$n" -gt 0 ]; then
		mapfile -t ids < <(printf '%s\0' "${paths[@]}" | (cd -- "$crate" && xargs -0 git hash-object --) 2>/dev/null)
		[ "${#ids[@]}" -eq "$n" ] || return 1
	fi
	s="$(for ((i = 0; i < n; i++)); do printf '%s %s\0' "${ids[i]}" "${paths[i]}"; done | git -C "$crate" hash-object --stdin 2>/dev/null)" || return 1
	[ -n "$s" ] || return 1
	printf '%s\n' "$s"
}

# gate_native_untracked_compiled [CRATE] — every file `go build ./cmd/gates`
# compiles or embeds from the module that git does not track, one path a
# line relative to the module, nothing when the compiled set is all tracked.
# The stamp covers tracked files only, so a build holding one of these would
# share its stamp with a binary built without it. Status 1 when go or git
# cannot answer.
# assertion S: a build the stamp cannot describe is named, never baked.
gate_native_untracked_compiled() {
	local crate="${1-}" mod listing tracked
	if [ -z "$crate" ]; then
		crate="$(gate_native_crate)" || return 1
	fi
	# The module's directory and each file, both as go spells them.
	# shellcheck disable=SC2016 # a go template, not a shell expansion
	listing="$(cd -- "$crate" && go list -deps -e -f '{{if and .Module .Module.Main}}{{$m := .Module.Dir}}{{$d := .Dir}}{{range .GoFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{range .CgoFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$m}}	{{$d}}/{{.}}
{{end}}{{end}}' ./cmd/gates)" || return 1
	tracked="$(git -C "$crate" ls-files -- . 2>/dev/null)" || return 1
	printf '%s\n' "$listing" | while IFS='	' read -r mod file; do
		[ -n "$file" ] && printf '%s\n' "${file#"$mod"/}"
	done | grep -vxF -f <(printf '%s\n' "$tracked")
	return 0
}

# _gate_verdict_resolve — gate_verdict_bin's work: line 1 the command token
# to run, line 2 (only when a linked worktree's link was declined) the
# refused condition.
# assertion P: link only into an ignored door with matching stamps.
_gate_verdict_resolve() {
	local door spelled main mainbin crate want have
	door="$(gate_native_bin)" || return 2
	spelled="$(_gate_spell "$door")"
	if _gate_bin_ready "$door"; then
		printf '%s\n' "$spelled"
		return 0
	fi
	main="$(_gate_main_checkout_root)" || {
		printf '%s\n' "$spelled"
		return 0
	}
	mainbin="$(_gate_main_checkout_bin)" || mainbin=''
	if [ -z "$mainbin" ] || ! _gate_bin_ready "$mainbin"; then
		printf '%s\n%s\n' "$spelled" "no main binary: the main checkout $main has no executable gates binary"
		return 0
	fi
	if ! git check-ignore -q -- "$door" 2>/dev/null; then
		printf '%s\n%s\n' "$spelled" "the door path $door is not ignored by git here, so no link is made into the tree"
		return 0
	fi
	crate="$(gate_native_crate)"
	if [ -f "$(_gate_join "$crate" go.mod)" ]; then
		want="$(gate_native_source_stamp "$crate")" || want=''
		have="$("$mainbin" --source-stamp 2>/dev/null)" || have=''
		if [ -z "$want" ] || [ "$want" != "$have" ]; then
			printf '%s\n%s\n' "$spelled" "stamp skew: the main checkout's binary was built from ${have:-an unknown source}, this tree is ${want:-unreadable}"
			return 0
		fi
	fi
	if mkdir -p -- "$(dirname -- "$door")" 2>/dev/null &&
		{ ln -s -- "$mainbin" "$door" 2>/dev/null || cp -- "$mainbin" "$door" 2>/dev/null; } &&
		_gate_bin_ready "$door"; then
		printf '%s\n' "$spelled"
		return 0
	fi
	printf '%s\n%s\n' "$spelled" "the link to $mainbin could not be made at $door"
}

# gate_verdict_bin — the binary a verdict-bearing arm runs: the local door
# when executable; else, in a linked worktree, main's binary linked (symlink,
# else copy; never built) into the door path when main has one, the door is
# gitignored and the source stamps agree. Otherwise the door unchanged, with
# the refused condition on stderr, so the caller fails closed.
gate_verdict_bin() {
	local out
	out="$(_gate_verdict_resolve)" || return 2
	printf '%s\n' "${out%%$'\n'*}"
	case $out in *$'\n'*) printf 'gate_verdict_bin: %s\n' "${out#*$'\n'}" >&2 ;; esac
	return 0
}

# ------------------------------------------------------------ nested repos

# _gate_gitfile_target FILE — the directory a gitfile names (its gitdir:
# line, the line end stripped), relative targets read against FILE's dir.
_gate_gitfile_target() {
	local line target
	IFS= read -r line <"$1" || [ -n "$line" ] || return 1
	line="${line%$'\r'}"
	case $line in gitdir:*) ;; *) return 1 ;; esac
	target="${line#gitdir:}"
	target="${target#"${target%%[! ]*}"}"
	gate_path_rooted "$target" || target="$(dirname -- "$1")/$target"
	printf '%s\n' "$target"
}

# gate_skipped_mark TOP PREFIX — the nested mark: the first TOP/<run>/.git
# entry of any type (a dangling symlink counts) along PREFIX's leading runs,
# nearest the starting directory first; TOP itself is never tested. Status 1
# with nothing printed when there is none, under a non-empty GIT_DIR, or
# when the entry is the repository git selected (a GIT_WORK_TREE above it).
# assertion Q: the nested mark.
gate_skipped_mark() {
	local top="$1" run="${2%/}" entry phys sel
	[ -z "${GIT_DIR:-}" ] || return 1
	while [ -n "$run" ]; do
		entry="$top/$run/.git"
		if [ -e "$entry" ] || [ -L "$entry" ]; then
			if [ -d "$entry" ]; then
				phys="$(CDPATH='' cd -- "$entry" 2>/dev/null && pwd -P)" || phys=''
			elif [ -f "$entry" ]; then
				phys="$(_gate_gitfile_target "$entry")" &&
					phys="$(CDPATH='' cd -- "$phys" 2>/dev/null && pwd -P)" || phys=''
			else
				phys=''
			fi
			if [ -n "$phys" ]; then
				sel="$(git rev-parse --absolute-git-dir 2>/dev/null)" &&
					sel="$(CDPATH='' cd -- "$sel" 2>/dev/null && pwd -P)" || sel=''
				[ -n "$sel" ] && [ "$sel" = "$phys" ] && return 1
			fi
			printf '%s\n' "$entry"
			return 0
		fi
		case $run in */*) run="${run%/*}" ;; *) run='' ;; esac
	done
	return 1
}

# _gate_ceiling DIR — status 0 when DIR (physical) is a GIT_CEILING_DIRECTORIES
# entry; relative entries are ignored, as git ignores them.
_gate_ceiling() {
	local entry phys rest="${GIT_CEILING_DIRECTORIES:-}"
	while [ -n "$rest" ]; do
		entry="${rest%%:*}"
		case $rest in *:*) rest="${rest#*:}" ;; *) rest='' ;; esac
		gate_path_rooted "$entry" || continue
		phys="$(CDPATH='' cd -- "$entry" 2>/dev/null && pwd -P)" || phys="${entry%/}"
		[ "$phys" = "$1" ] && return 0
	done
	return 1
}

# _gate_cwd_marked — status 0 when the working directory is marked as inside
# a repository although git answered none: a non-empty GIT_DIR, or a .git
# entry of any type at or above the physical working directory, the ascent
# stopping where git's own would (at a GIT_CEILING_DIRECTORIES entry).
_gate_cwd_marked() {
	local d parent
	[ -z "${GIT_DIR:-}" ] || return 0
	d="$(pwd -P 2>/dev/null)" || return 1
	while :; do
		if [ -e "${d%/}/.git" ] || [ -L "${d%/}/.git" ]; then
			return 0
		fi
		[ "$d" != / ] && [ -n "$d" ] || return 1
		parent="${d%/*}"
		[ -n "$parent" ] || parent=/
		_gate_ceiling "$parent" && return 1
		d="$parent"
	done
}
