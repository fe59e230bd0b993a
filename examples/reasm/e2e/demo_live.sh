#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# demo_live.sh - a few seconds of the reassembler on live interfaces, for
# scripts/demo.sh: the namespaces of netns_lib.sh, reasm in mid reading m0
# and writing m1 with a stats line every second, real UDP traffic that
# src's kernel fragments at MTU 1280, a receiver in dst that checks every
# payload; then reasm's final summary and what dst got.
#
#   examples/reasm/e2e/demo_live.sh BUILD_DIR [SECONDS]
#
# Exits 77 without doing anything when namespaces cannot be made here
# (not root, no ip netns), so that the caller can fall back to the
# capture file; 0 when every datagram arrived whole, 1 otherwise.
set -u

build=${1:?usage: demo_live.sh BUILD_DIR [SECONDS]}
seconds=${2:-4}
REASM=$build/examples/reasm/reasm
SEND=$build/examples/reasm/e2e/e2e_udp_send
RECV=$build/examples/reasm/e2e/e2e_udp_recv
TMP=${TMPDIR:-/tmp}/grain-demo.$$
E2E_RM_TMP=1
PORT=7777

E2E_NAME=demo
. "$(dirname "$0")/netns_lib.sh"

for prog in "$REASM" "$SEND" "$RECV"; do
	[ -x "$prog" ] || skip "$prog was not built"
done
"$REASM" --help 2>&1 | grep -q -- '--in' || skip "reasm has no live path"
e2e_prepare
e2e_setup

say "src --(MTU 1280)-- mid: reasm --in m0 --out m1 --(MTU 65535)-- dst"
count=$((seconds * 25))
ip netns exec "$NS_DST" "$RECV" --port $PORT --ready "$TMP/ready" \
	--expect $((4 * count)) --idle-ms 3000 --timeout $((seconds + 30)) \
	>"$TMP/rx" 2>&1 &
recv_pid=$!
bg_pids="$bg_pids $recv_pid"
ip netns exec "$NS_MID" "$REASM" --in m0 --out m1 --threads 2 \
	--stats-interval 1 --stats "$TMP/stats.json" &
reasm_pid=$!
bg_pids="$bg_pids $reasm_pid"
for _ in $(seq 100); do
	[ -e "$TMP/ready" ] && break
	sleep 0.05
done
sleep 0.5

# Two senders per family, datagrams of 1300..30000 bytes: 2..24 fragments.
gap=$((1000000 * seconds / count))
in_src "$SEND" --dst $DST4 --port $PORT --senders 2 --count $count \
	--min 1300 --max 30000 --gap-us $gap --first-sender 1 \
	>"$TMP/send4" 2>&1 &
s4=$!
in_src "$SEND" --dst $DST6 --port $PORT --senders 2 --count $count \
	--min 1300 --max 30000 --gap-us $gap --first-sender 101 \
	>"$TMP/send6" 2>&1
wait $s4
wait $recv_pid
recv_rc=$?
bg_forget $recv_pid

kill -TERM $reasm_pid 2>/dev/null
wait $reasm_pid
reasm_rc=$?
bg_forget $reasm_pid

say "dst: $(sed -n 's/^e2e_udp_recv: //p' "$TMP/rx" | head -1)"
say "fragments dst's own kernel had to reassemble (0: every datagram" \
	"arrived whole): $(dst_reasm_reqds)"
if [ $recv_rc != 0 ] || [ $reasm_rc != 0 ]; then
	say "receiver status $recv_rc, reasm status $reasm_rc"
	exit 1
fi
exit 0
