# SPDX-License-Identifier: BSD-2-Clause
# lib.sh - what the reasm shell tests share: a fresh $REASM_TMPDIR as
# $tmp, fail/pass records, and the summary that sets the exit status.
# Sourced with `. "$(dirname "$0")/lib.sh"` after the test's own checks of
# its variables.

: "${REASM_TMPDIR:?}"

tmp=$REASM_TMPDIR
rm -rf "$tmp"
mkdir -p "$tmp" || exit 1

failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}
pass() {
	echo "ok:   $*"
}

# finish NAME: the summary line, and exit 1 if any check failed.
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$1: $failures check(s) failed"
		exit 1
	fi
	echo "$1: all passed"
}
