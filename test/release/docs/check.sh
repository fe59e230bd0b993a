#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check.sh - Doxygen gives no warning over the public headers (CTest:
# docs_warnings).
#
# Runs doxygen with the build's Doxyfile (doc/Doxyfile.in), into a
# temporary directory, with every warning written to a log; fails if the
# log is not empty (and shows it) or doxygen fails.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_DOXYGEN    doxygen
#   GRAIN_DOXYFILE   the configured Doxyfile (build/<preset>/doc/Doxyfile)
set -eu

: "${GRAIN_DOXYGEN:?}" "${GRAIN_DOXYFILE:?}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Later lines override earlier ones: same input, temporary output.
{
	cat "$GRAIN_DOXYFILE"
	echo "OUTPUT_DIRECTORY = $tmp/out"
	echo "WARN_LOGFILE = $tmp/warnings.log"
	echo "WARN_AS_ERROR = NO"
	echo "GENERATE_HTML = NO"
} >"$tmp/Doxyfile"
mkdir "$tmp/out"
"$GRAIN_DOXYGEN" "$tmp/Doxyfile" || { echo "FAILED: doxygen"; exit 1; }
if [ -s "$tmp/warnings.log" ]; then
	echo "FAILED: doxygen warns ($(grep -c 'warning:' "$tmp/warnings.log")):"
	cat "$tmp/warnings.log"
	exit 1
fi
echo "doxygen: no warning over include/grain/*.h"
