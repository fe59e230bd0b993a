#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# demo.sh - build the fragment reassembler (release preset) and run it.
#
# Only the programs the demo runs are built: reasm, and for the live path
# the sender and receiver of examples/reasm/e2e (cmake --build --target);
# the benchmarks, tests and docs of the preset are left for
# `cmake --workflow --preset release`.
#
# Where network namespaces can be made (root, ip netns): a few seconds of
# the live path (examples/reasm/e2e/demo_live.sh): src's kernel fragments
# UDP at MTU 1280, reasm in a middle namespace reads the packets from an
# AF_PACKET ring and sends the datagrams whole through a PACKET_MMAP
# transmit ring, and a receiver in dst checks every payload; a stats line
# every second, then the summary. Elsewhere (or with DEMO=file): the
# demo capture, examples/reasm/data/demo.pcap in, build/demo-out.pcap out
# (every datagram whole), build/demo-stats.json with every counter, and
# the summary on the terminal.
#
# Usage: ./scripts/demo.sh   (from any directory; run ./scripts/setup.sh
#                             first on a fresh machine)
set -eu

cd "$(dirname "$0")/.."

targets="reasm"
if [ "${DEMO:-live}" != file ]; then
	targets="$targets e2e_udp_send e2e_udp_recv"
fi
echo "demo: configuring the release preset (cmake --preset release)"
cmake --preset release
echo "demo: building $targets" \
	"(cmake --build --preset release --target ...)"
# $targets is a list of target names: split it.
# shellcheck disable=SC2086
if ! cmake --build --preset release --target $targets; then
	echo "demo: the build of $targets failed (is GRAIN_BUILD_EXAMPLES" \
		"off, or libpcap missing?)" >&2
	exit 1
fi

reasm=build/release/examples/reasm/reasm
if [ ! -x "$reasm" ]; then
	echo "demo: $reasm was not built (is GRAIN_BUILD_EXAMPLES off, or" \
		"libpcap missing?)" >&2
	exit 1
fi

if [ "${DEMO:-live}" != file ]; then
	echo "demo: the live path between network namespaces" \
		"(examples/reasm/e2e/demo_live.sh)"
	rc=0
	bash examples/reasm/e2e/demo_live.sh build/release 4 || rc=$?
	if [ $rc -ne 77 ]; then
		exit $rc
	fi
	echo "demo: no network namespaces here; the capture file instead"
fi

in=examples/reasm/data/demo.pcap
out=build/demo-out.pcap
stats=build/demo-stats.json
echo "demo: $reasm --read $in --write $out --stats $stats"
"$reasm" --read "$in" --write "$out" --stats "$stats"
echo "demo: reassembled capture in $out, counters in $stats"
