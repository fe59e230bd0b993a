#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run.sh [SECONDS] - build the `fuzz` preset (Clang, libFuzzer, ASan +
# UBSan) and fuzz examples/reasm for SECONDS (default 60), one job.
#
# The fuzzer starts from the checked-in seeds (examples/reasm/fuzz/corpus/)
# and the kept crashes (examples/reasm/fuzz/crashes/), copied to a
# temporary directory so that what it adds does not touch the repository.
# Exit status 0 if it ran the whole time without a failure; otherwise
# non-zero, with the failing input saved under build/fuzz/crashes/
# (crash-*, leak-*, timeout-*, oom-*). examples/reasm/fuzz/crashes/README.md
# says how to keep one as a regression test.
#
# Extra libFuzzer options may be given in FUZZ_ARGS (e.g. "-seed=1").
set -eu

cd "$(dirname "$0")/../../.."

seconds=${1:-60}
case $seconds in
'' | *[!0-9]*)
	echo "usage: examples/reasm/fuzz/run.sh [SECONDS]" >&2
	exit 2
	;;
esac

if ! command -v clang >/dev/null 2>&1; then
	echo "run.sh: clang not found; ./scripts/setup.sh installs it" >&2
	exit 1
fi

cmake --workflow --preset fuzz

fuzzer=build/fuzz/examples/reasm/fuzz/fuzz_reasm
crashes=build/fuzz/crashes
work=$(mktemp -d "${TMPDIR:-/tmp}/grain-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

mkdir -p "$crashes"
cp examples/reasm/fuzz/corpus/* "$work"/
for f in examples/reasm/fuzz/crashes/*; do
	case ${f##*/} in
	README* | .* | '*') ;;
	*) cp "$f" "$work"/ ;;
	esac
done

inputs=$(find "$work" -type f | wc -l)
echo "run.sh: fuzzing for $seconds s from $inputs inputs;" \
	"failures go to $crashes/"
status=0
# shellcheck disable=SC2086 # FUZZ_ARGS is a list of options
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
	sh test/run-sanitized.sh "$fuzzer" \
	-max_total_time="$seconds" \
	-max_len=8192 \
	-timeout=10 \
	-rss_limit_mb=2048 \
	-print_final_stats=1 \
	-artifact_prefix="$crashes/" \
	${FUZZ_ARGS:-} \
	"$work" || status=$?

if [ "$status" -ne 0 ]; then
	echo "run.sh: the fuzzer failed (status $status); the input is in" \
		"$crashes/. Reproduce: $fuzzer $crashes/<file>" >&2
	exit "$status"
fi
echo "run.sh: no failure in $seconds s"
