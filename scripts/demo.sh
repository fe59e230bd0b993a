#!/bin/sh
# demo.sh - build the release preset and run the fragment reassembler on
# the demo capture: examples/reasm/data/demo.pcap in, build/demo-out.pcap
# out (every datagram whole), build/demo-stats.json with every counter, and
# the summary on the terminal.
#
# Usage: ./scripts/demo.sh   (from any directory; run ./scripts/setup.sh
#                             first on a fresh machine)
set -eu

cd "$(dirname "$0")/.."

echo "demo: building the release preset (cmake --workflow --preset release)"
cmake --workflow --preset release

reasm=build/release/examples/reasm/reasm
if [ ! -x "$reasm" ]; then
	echo "demo: $reasm was not built (is GRAIN_BUILD_EXAMPLES off, or" \
		"libpcap missing?)" >&2
	exit 1
fi

in=examples/reasm/data/demo.pcap
out=build/demo-out.pcap
stats=build/demo-stats.json
echo "demo: $reasm --read $in --write $out --stats $stats"
"$reasm" --read "$in" --write "$out" --stats "$stats"
echo "demo: reassembled capture in $out, counters in $stats"
