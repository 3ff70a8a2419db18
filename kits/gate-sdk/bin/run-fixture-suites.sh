#!/usr/bin/env bash
# bin/run-fixture-suites.sh — runs every fixture suite of the tree: each row
# of `--emit fixture-suites` (suite, tests dir, checks dir) goes to
# `--run-gate-tests <tests-dir> [<checks-dir>]`, all through run-gates.sh.
#
# no-port: a loop over the binary's own arms, kept as the shell wrapper CI and make fixtures call; it resolves nothing itself.
#
# Exit: 0 when every suite passed; 1 when a suite failed a case or a unit
# test; 2 when a suite could not run, the suite list could not be read, or
# it named no suite at all (so an empty enrolment never reads green).

usage() {
	cat <<'EOF'
usage: run-fixture-suites.sh
  Runs --run-gate-tests once per row of --emit fixture-suites, through
  run-gates.sh. Exit 0 all passed, 1 a suite failed, 2 a suite could not run
  or no suite was found.
EOF
}

case ${1-} in
-h | --help)
	usage
	exit 0
	;;
--) shift ;;
-*)
	printf 'run-fixture-suites: unrecognized option %s\n' "$1" >&2
	usage >&2
	exit 2
	;;
esac
if [ $# -gt 0 ]; then
	printf 'run-fixture-suites: takes no operand, got %s\n' "$1" >&2
	usage >&2
	exit 2
fi

here="$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)" || {
	printf 'run-fixture-suites: cannot locate its own directory\n' >&2
	exit 2
}
front="$here/run-gates.sh"

# Capture first, loop after: a loop reading a process substitution would lose
# the arm's status and could run zero suites green.
# assertion J: capture whole before looping.
suites="$(bash "$front" --emit fixture-suites)" || {
	printf 'run-fixture-suites: --emit fixture-suites failed; no suite was run\n' >&2
	exit 2
}

total=0
passed=0
failed=0
harness=0
failures=()
# assertion K: one --run-gate-tests per row, stdin closed.
while IFS= read -r row; do
	[ -n "$row" ] || continue
	suite="${row%%$'\t'*}"
	rest="${row#*$'\t'}"
	if [ "$rest" = "$row" ]; then
		printf 'run-fixture-suites: malformed suite row (want suite<TAB>tests-dir<TAB>checks-dir): %s\n' "$row" >&2
		harness=$((harness + 1))
		continue
	fi
	tests="${rest%%$'\t'*}"
	checks=''
	[ "$tests" = "$rest" ] || checks="${rest#*$'\t'}"
	total=$((total + 1))
	printf '== %s (%s) ==\n' "$suite" "$tests"
	if [ -n "$checks" ]; then
		bash "$front" --run-gate-tests "$tests" "$checks" </dev/null
	else
		bash "$front" --run-gate-tests "$tests" </dev/null
	fi
	rc=$?
	case $rc in
	0) passed=$((passed + 1)) ;;
	1)
		failed=$((failed + 1))
		failures+=("$suite")
		;;
	*)
		harness=$((harness + 1))
		failures+=("$suite (exit $rc)")
		;;
	esac
done <<<"$suites"

# assertion L: no suite, or a suite that could not run, is 2.
if [ "$total" -eq 0 ] && [ "$harness" -eq 0 ]; then
	printf 'run-fixture-suites: --emit fixture-suites named no suite; nothing was tested\n' >&2
	exit 2
fi

bad=$((failed + harness))
if [ "$bad" -gt 0 ]; then
	printf 'run-fixture-suites: %s of %s suites failed: %s\n' "$bad" "$total" "${failures[*]}"
fi
printf 'suites: %s passed, %s failed\n' "$passed" "$bad"
if [ "$harness" -gt 0 ]; then
	exit 2
fi
if [ "$failed" -gt 0 ]; then
	exit 1
fi
exit 0
