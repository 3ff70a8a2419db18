#!/bin/sh
# bin/install.sh — the installer bootstrap for Linux and macOS (POSIX sh;
# bin/install.ps1 is its Windows twin).
#
# no-port: the bootstrap places the binary, so no binary exists yet to run it.
#
#   sh install.sh [--no-init] [--sha256 <hex>] <payload> [<init-arg>...]
#
# <payload> is a payload directory or a .tar.gz, a local path, a file://
# URL or an http(s) URL (fetched with curl or wget). Run from inside the git
# repository to install into. The bootstrap picks the host's target from
# the payload's targets.list, verifies that artifact against its .sha256
# sidecar (and, given --sha256, a tarball against that digest), and only
# then runs the verified binary's `init`, which places it at
# GATE_SDK_NATIVE_BIN and vendors the kit; a payload given as a URL is
# handed to init with its sha256 (GATES_PAYLOAD_URL, GATES_PAYLOAD_SHA256)
# for the CI workflow it seeds. --no-init places the binary
# alone, the way CI resolves it in an already-initialized checkout.
# A host the roster does not carry, a missing artifact or a digest that
# does not match is refused at exit 2 with nothing placed.
set -u

say() { printf 'install: %s\n' "$*" >&2; }
die() {
	say "$@"
	exit 2
}

no_init=0
want_sum=''
while [ $# -gt 0 ]; do
	case $1 in
	--no-init) no_init=1 ;;
	--sha256)
		[ $# -ge 2 ] || die "--sha256 needs a digest"
		# assertion D: the digest is 64 hex digits, never empty: an unset
		# variable expanded to "" must not switch the tarball check off.
		want_sum="$(printf '%s' "$2" | tr 'A-F' 'a-f')"
		case $want_sum in
		'') die "--sha256 was given an empty digest (an unset variable?); nothing placed" ;;
		*[!0-9a-f]*) die "--sha256 $2 is not a hex sha256 digest; nothing placed" ;;
		esac
		[ "${#want_sum}" -eq 64 ] || die "--sha256 $2 has ${#want_sum} hex digits, not 64; nothing placed"
		shift
		;;
	-h | --help)
		sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	--) shift; break ;;
	-*) die "unknown option $1 (usage: sh install.sh [--no-init] [--sha256 <hex>] <payload> [<init-arg>...])" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] || die "usage: sh install.sh [--no-init] [--sha256 <hex>] <payload> [<init-arg>...]"
src="$1"
given="$1"
shift

command -v git >/dev/null 2>&1 || die "git is not on PATH; git is the one program gates needs"
git rev-parse --show-toplevel >/dev/null 2>&1 || die "$(pwd) is not inside a git repository; run the installer from the repository to install into"
top="$(cd "$(git rev-parse --show-toplevel)" && pwd -P)" || die "cannot enter the repository top"

# sha256_of FILE — the file's lowercase hex sha256, with whichever hasher
# the host has.
sha256_of() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d' ' -f1
	elif command -v openssl >/dev/null 2>&1; then
		openssl dgst -sha256 -r "$1" | cut -d' ' -f1
	else
		return 1
	fi
}

scratch="$(mktemp -d "${TMPDIR:-/tmp}/gates-install.XXXXXX")" || die "cannot make a scratch directory"
trap 'rm -rf "$scratch"' EXIT HUP INT TERM

case $src in
file://*)
	# A file URL is the local path it names.
	src="${src#file://}"
	;;
http://* | https://*)
	fetched="$scratch/payload.tar.gz"
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL -o "$fetched" "$src" || die "could not fetch $src"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$fetched" "$src" || die "could not fetch $src"
	else
		die "fetching $src needs curl or wget"
	fi
	src="$fetched"
	;;
esac

# assertion E: a tarball is copied into the scratch directory once; the
# copy is what is hashed and what is unpacked, so the file cannot change
# between the check and the unpack.
if [ -f "$src" ] && [ "$src" != "$scratch/payload.tar.gz" ]; then
	cp "$src" "$scratch/payload.tar.gz" || die "cannot copy $given into the scratch directory"
	src="$scratch/payload.tar.gz"
fi

if [ -n "$want_sum" ]; then
	[ -f "$src" ] || die "--sha256 verifies a payload tarball, and $given is not a file"
	got="$(sha256_of "$src")" || die "no sha256 tool (sha256sum, shasum or openssl) on this host"
	[ "$got" = "$want_sum" ] || die "the payload $given has sha256 $got, not the published $want_sum; nothing placed"
fi

if [ -d "$src" ]; then
	payload="$src"
elif [ -f "$src" ]; then
	mkdir "$scratch/payload" || die "cannot make a scratch directory"
	# assertion F: gzip's own status decides, not only tar's: a corrupt
	# stream is refused even when tar accepted what came out before it.
	gzip -dc "$src" >"$scratch/payload.tar" || die "$given is not a readable .tar.gz (gzip refused it); nothing placed"
	(cd "$scratch/payload" && tar -xf "$scratch/payload.tar") || die "$given is neither a payload directory nor a readable .tar.gz"
	rm -f "$scratch/payload.tar"
	payload="$scratch/payload"
else
	die "no payload at $given"
fi

roster="$payload/targets.list"
[ -f "$roster" ] || die "the payload $src carries no targets.list, so it declares no platform; nothing placed"

# The host as a target: the kernel name and the machine, in Go's words.
case "$(uname -s)" in
Linux) os=linux ;;
Darwin) os=darwin ;;
MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
FreeBSD) os=freebsd ;;
*) os="$(uname -s | tr 'A-Z' 'a-z')" ;;
esac
case "$(uname -m)" in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
i386 | i686) arch=386 ;;
*) arch="$(uname -m)" ;;
esac
host="$os/$arch"
# GATES_INSTALL_HOST stands in for the detected host (a test of the
# refusal, or a second opinion on an unusual uname).
host="${GATES_INSTALL_HOST:-$host}"

# assertion A: a host the roster does not carry is refused, naming both.
if ! sed -e 's/#.*//' -e 's/[[:space:]]//g' "$roster" | grep -qxF "$host"; then
	carried="$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$roster" | grep . | tr '\n' ' ')"
	die "this host is $host, which the payload's roster ($roster: $carried) does not carry; no artifact is built for it, so nothing was placed"
fi

# assertion B: exactly one artifact beside its sidecar, or a broken payload.
dir="$payload/artifact/$host"
[ -d "$dir" ] || die "the roster carries $host but the payload has no $dir: a broken payload; fetch the release again. Nothing placed"
name=''
count=0
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	case $f in *.sha256) continue ;; esac
	name="${f##*/}"
	count=$((count + 1))
done
[ "$count" -eq 1 ] || die "$dir holds $count artifacts, not one: a broken payload; nothing placed"
[ -f "$dir/$name.sha256" ] || die "$dir/$name has no $name.sha256 sidecar: a broken payload; nothing placed"
want="$(cut -d' ' -f1 <"$dir/$name.sha256")"

# assertion C: verified in the scratch copy that runs, before anything lands.
cp "$dir/$name" "$scratch/$name" || die "cannot copy the artifact"
got="$(sha256_of "$scratch/$name")" || die "no sha256 tool (sha256sum, shasum or openssl) on this host; nothing placed"
[ "$got" = "$want" ] || die "$dir/$name has sha256 $got but its sidecar says $want; refusing it, nothing placed"
chmod 755 "$scratch/$name" || die "cannot make the artifact executable"

cd "$top" || die "cannot enter $top"
if [ "$no_init" -eq 1 ]; then
	bin="$("$scratch/$name" --emit knob-values GATE_SDK_NATIVE_BIN | cut -f3-)" && [ -n "$bin" ] || die "the verified binary could not resolve GATE_SDK_NATIVE_BIN"
	mkdir -p "$(dirname -- "$bin")" && cp "$scratch/$name" "$bin.install-tmp" && chmod 755 "$bin.install-tmp" && mv -f "$bin.install-tmp" "$bin" ||
		die "cannot place the binary at $bin"
	say "placed $bin ($host, sha256 $got)"
	exit 0
fi
# assertion G: the payload's address and digest go to init, which seeds the CI workflow
# with both, so a runner installs this same payload. A payload given as a
# plain path is not handed on: a runner cannot reach it.
case $given in
http://* | https://* | file://*)
	GATES_PAYLOAD_URL="$given"
	export GATES_PAYLOAD_URL
	if [ -f "$scratch/payload.tar.gz" ]; then
		GATES_PAYLOAD_SHA256="$(sha256_of "$scratch/payload.tar.gz")" || die "no sha256 tool (sha256sum, shasum or openssl) on this host"
		export GATES_PAYLOAD_SHA256
	fi
	;;
esac
"$scratch/$name" init "$@"
