#!/usr/bin/env bash
# bin/build-native.sh — the one spelling of the gates binary's build.
#
# no-port: a fresh clone has no binary to run its own first build, so the build stays a script.
#
#   bash gate-sdk/bin/build-native.sh [--target <os>/<arch>] [<go-build-arg>...]
#
# Run from the repository root; the Go module is GATE_SDK_NATIVE_CRATE,
# resolved against the working directory, never this script's location.
# The link flags (the source stamp among them) are the Makefile's LDFLAGS:
# GATES_LDFLAGS when the caller passes them (make does), else
# `make -s print-ldflags` in the module, so one variable defines the stamp
# for every build.
#
# A host build (no --target) writes GATE_SDK_NATIVE_BIN and refreshes the
# placed hooks. A --target build writes
# $GATE_SDK_PAYLOAD_ARTIFACTS/<os>/<arch>/gates[.exe] and its .sha256
# sidecar, the shape `gates --pack-installer` takes. Exit 2 with the cause
# when go is missing, the module is absent (a consumer tree carries
# none), or the artifact is absent or carries a builder path.
set -u
_bn_here="$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)" || exit 2
# shellcheck source=../lib/gate.sh
. "$_bn_here/../lib/gate.sh"

BN_TARGET=''
if [ "${1-}" = --target ]; then
	BN_TARGET="${2-}"
	case $BN_TARGET in
	*/*) shift 2 ;;
	*)
		echo "build-native: --target takes <os>/<arch>, e.g. linux/amd64" >&2
		exit 2
		;;
	esac
fi

if ! command -v go >/dev/null 2>&1; then
	echo "build-native: go is not on PATH; building the gates binary needs the Go toolchain go.mod names (a contributor's tool, never an adopter's: adopters install a prebuilt binary)" >&2
	exit 2
fi
crate="$(gate_native_crate)" || exit 2
if [ ! -f "$crate/go.mod" ]; then
	echo "build-native: no go.mod in $crate (GATE_SDK_NATIVE_CRATE); a consumer tree receives a prebuilt, digest-verified binary and never the source, so there is nothing to build here" >&2
	exit 2
fi
# The stamp covers tracked files only: a build that would compile or embed
# an untracked file is refused, so two different binaries never share one.
hidden="$(gate_native_untracked_compiled "$crate")" || {
	echo "build-native: go list could not name the files the build compiles in $crate" >&2
	exit 2
}
if [ -n "$hidden" ]; then
	echo "build-native: the build would compile files git does not track, which the source stamp cannot see:" >&2
	printf '  %s\n' "$hidden" >&2
	echo "track them (git add) or move them out of the module, then build again" >&2
	exit 2
fi
ldflags="${GATES_LDFLAGS-}"
if [ -z "$ldflags" ]; then
	ldflags="$(make -s -C "$crate" print-ldflags)" || {
		echo "build-native: could not read the link flags (make -s print-ldflags in $crate)" >&2
		exit 2
	}
fi

if [ -n "$BN_TARGET" ]; then
	goos="${BN_TARGET%%/*}"
	goarch="${BN_TARGET#*/}"
	arts="${GATE_SDK_PAYLOAD_ARTIFACTS:-.tmp/release}"
	outdir="$arts/$goos/$goarch"
	out="$outdir/gates$(gate_exe_suffix "$BN_TARGET")"
	rm -rf "$outdir"
	mkdir -p "$outdir" || exit 2
else
	goos='' goarch=''
	out="$(gate_native_bin)" || exit 2
fi
if gate_path_rooted "$out"; then
	abs_out="$out"
else
	abs_out="$PWD/$out"
fi

(cd "$crate" && GOOS="${goos:-$(go env GOOS)}" GOARCH="${goarch:-$(go env GOARCH)}" CGO_ENABLED=0 \
	go build -trimpath -ldflags "$ldflags" -o "$abs_out" "$@" ./cmd/gates)
st=$?
[ "$st" -eq 0 ] || exit "$st"

# assertion A: an artifact absent after a successful build is exit 2.
if [ ! -f "$out" ]; then
	echo "build-native: go build succeeded but left no artifact at $out" >&2
	exit 2
fi
# assertion B: no builder path in the artifact. The kit's own fixtures
# ride in the binary and hold banned shapes on purpose, so the check is
# the builder's own locations rather than the banned-pattern lists.
for p in "${HOME-}" "$PWD"; do
	case $p in '' | /) continue ;; esac
	if LC_ALL=C grep -q -a -F -- "$p/" "$out"; then
		echo "build-native: $out carries the builder path $p; build with -trimpath and without a tree under it" >&2
		exit 2
	fi
done

if [ -n "$BN_TARGET" ]; then
	name="${out##*/}"
	if command -v sha256sum >/dev/null 2>&1; then
		(cd "$outdir" && sha256sum "$name" >"$name.sha256") || exit 2
	else
		(cd "$outdir" && shasum -a 256 "$name" >"$name.sha256") || exit 2
	fi
	echo "build-native: $out ($(wc -c <"$out" | tr -d ' ') bytes) and $name.sha256"
	exit 0
fi
# A host build replaces the binary the placed hooks copy; refresh them.
if ! "$(gate_native_bin_spelled)" --install-hooks --refresh; then
	echo "build-native: the placed hooks could not be refreshed; run --install-hooks" >&2
fi
exit 0
