#!/bin/sh
# demo.sh - build the release preset and run the grain_ring benchmark
# summary: grain_ring against a mutex ring, a two-lock ring and the anchors
# (ck_ring, rte_ring, wfcqueue) that are installed.
#
# Usage: ./scripts/demo.sh   (from any directory; run ./scripts/setup.sh
#                             first on a fresh machine)
set -eu

cd "$(dirname "$0")/.."

echo "demo: building the release preset (cmake --workflow --preset release)"
cmake --workflow --preset release

bench=build/release/bench/grain_bench_ring
if [ ! -x "$bench" ]; then
	echo "demo: $bench was not built (is GRAIN_BUILD_BENCH off, or" \
		"bench/ missing?)" >&2
	exit 1
fi

echo "demo: running $bench --quick --summary"
exec "$bench" --quick --summary
