#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tx_bench.sh - reasm's transmit ring against one send() per frame.
#
#   examples/reasm/e2e/tx_bench.sh [--build DIR] [--reps N] [--seconds S]
#                        [--sizes "BYTES..."] [--qdisc-bypass] [--quick]
#                        [--no-build]
#
# Runs as root in the namespaces of netns_lib.sh; everything is sent on
# mid's m1 (MTU 65535) towards d0, addressed to another MAC, so that dst's
# kernel drops each frame as soon as d0 has counted it: the receiving side
# costs as little as it can. For each UDP payload size, the same
# frames (Ethernet, IPv4 UDP, built once in memory, 64 distinct ones in
# turn) are sent by:
#
#   sendto   e2e_pkt_send: one send() per frame on an AF_PACKET socket
#   txring   e2e_tx_ring: reasm's transmit ring (examples/reasm/cli/live_tx.c):
#            each frame copied into a slot, one kick per 32 frames, the
#            clock stopped once the kernel has given every slot back
#   reasm    the whole program: `reasm --read - --out m1` fed a pcap
#            stream of the same frames (passed through), and of the same
#            datagrams cut into 1280-byte fragments (reassembled, then
#            sent): frames read, handled, written to the ring
#
# sendto and txring also run with d0 down ("peer down"): veth then drops
# every frame at transmit, which leaves the sending side alone.
#
# Each run lasts --seconds (default 1; reasm: as many frames as sendto
# managed in that time); --reps runs (default 5) of each, interleaved;
# the table gives medians, and d0's receive counter checks that what was
# counted as sent arrived. Prints a Markdown table on stdout (progress on
# stderr). --quick: 3 reps of 0.3 s, sizes 64 and 1472.
#
# BUILD: the build directory (default build/release if it exists, else
# build/debug); the script builds reasm, e2e_pkt_send and e2e_tx_ring
# there unless --no-build.
set -u
[ -n "${TX_BENCH_TRACE:-}" ] && set -x

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
BUILD=""
REPS=5
SECONDS_PER_RUN=1
SIZES="64 512 1472 8972 65507"
BYPASS=""
BUILD_IT=1
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$2; shift ;;
	--reps) REPS=$2; shift ;;
	--seconds) SECONDS_PER_RUN=$2; shift ;;
	--sizes) SIZES=$2; shift ;;
	--qdisc-bypass) BYPASS=--qdisc-bypass ;;
	--quick) REPS=3 SECONDS_PER_RUN=0.3 SIZES="64 1472" ;;
	--no-build) BUILD_IT=0 ;;
	-h | --help)
		sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//; /^set -u/d'
		exit 0
		;;
	*)
		echo "tx_bench: unknown option $1" >&2
		exit 2
		;;
	esac
	shift
done
if [ -z "$BUILD" ]; then
	BUILD=$root/build/release
	[ -d "$BUILD" ] || BUILD=$root/build/debug
fi
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
PKT=$BUILD/examples/reasm/e2e/e2e_pkt_send
RING=$BUILD/examples/reasm/e2e/e2e_tx_ring
REASM=$BUILD/examples/reasm/reasm

if [ $BUILD_IT = 1 ]; then
	cmake --build "$BUILD" --target reasm e2e_pkt_send e2e_tx_ring \
		>&2 || {
		echo "tx_bench: build failed in $BUILD" >&2
		exit 1
	}
fi
for p in "$PKT" "$RING"; do
	[ -x "$p" ] || {
		echo "tx_bench: $p is missing (build it, or pass --build)" >&2
		exit 1
	}
done
HAVE_REASM=0
if [ -x "$REASM" ] && "$REASM" --help 2>&1 | grep -q -- '--out IFACE'; then
	HAVE_REASM=1
fi

E2E_NAME=tx_bench
TMP=${TMPDIR:-/tmp}/grain-tx-bench.$$
. "$here/netns_lib.sh"
e2e_prepare
e2e_setup >&2
E2E_RM_TMP=1
M1_MAC=$(in_mid cat /sys/class/net/m1/address)
# Not d0's address: dst's kernel drops each frame first thing (another
# host's), after d0 has counted it.
SINK_MAC=02:00:00:00:00:99

d0_rx() { in_dst cat /sys/class/net/d0/statistics/rx_packets; }

# field NAME LINE: the value of NAME=value in LINE.
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

median() { sort -g | awk '{ v[NR] = $1 } END {
	if (NR == 0) { print 0; exit }
	if (NR % 2) print v[(NR + 1) / 2]
	else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

frame_opts() { # size
	echo "--src4 $SRC4 --dst4 $DST4 --dst-mac $SINK_MAC --src-mac $M1_MAC" \
		"--size $1"
}

# run_tool TOOL SIZE: one timed run; prints "pps delivered_fraction".
run_tool() {
	local tool=$1 size=$2 before after line frames pps
	before=$(d0_rx)
	if [ "$tool" = sendto ]; then
		line=$(in_mid "$PKT" --if m1 --duration "$SECONDS_PER_RUN" \
			$BYPASS $(frame_opts "$size"))
	else
		line=$(in_mid "$RING" --if m1 --duration "$SECONDS_PER_RUN" \
			$BYPASS $(frame_opts "$size"))
	fi
	after=$(d0_rx)
	frames=$(field frames "$line")
	pps=$(field pps "$line")
	echo "$tool size $size: $line" >&2
	awk -v p="${pps:-0}" -v f="${frames:-0}" -v d=$((after - before)) \
		'BEGIN { printf "%s %.3f\n", p, (f > 0 ? d / f : 0) }'
}

# run_reasm SIZE COUNT [FRAG_MTU]: reasm --read - --out m1; prints
# "datagrams_per_second delivered_fraction".
run_reasm() {
	local size=$1 count=$2 mtu=${3:-} before after t0 t1 sent
	local json=$TMP/reasm.json frag=""
	[ -n "$mtu" ] && frag="--frag-mtu $mtu"
	before=$(d0_rx)
	t0=$(date +%s.%N)
	in_mid bash -c "'$PKT' --write-pcap - --count $count $frag \
		$(frame_opts "$size") | '$REASM' --read - --out m1 $BYPASS \
		--quiet --stats '$json'" >&2
	t1=$(date +%s.%N)
	after=$(d0_rx)
	sent=$(json_num "$json" tx_frames)
	echo "reasm size $size${mtu:+ frag $mtu}: $count frames in," \
		"${sent:-?} sent, $(awk -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%.3f", b - a }') s" >&2
	awk -v s="${sent:-0}" -v a="$t0" -v b="$t1" -v d=$((after - before)) \
		'BEGIN { printf "%.0f %.3f\n", s / (b - a), (s > 0 ? d / s : 0) }'
}

echo "tx_bench: $REPS runs of ${SECONDS_PER_RUN}s per size and sender;" \
	"sizes: $SIZES${BYPASS:+; qdisc bypass}" >&2
rows=""
for size in $SIZES; do
	: >"$TMP/sendto" && : >"$TMP/txring" && : >"$TMP/pass" &&
		: >"$TMP/frag" && : >"$TMP/sendto.down" && : >"$TMP/txring.down"
	for _ in $(seq "$REPS"); do
		# d0 down: veth drops each frame at transmit (m1 counts it
		# as a TX drop), so only the sending side is measured.
		in_dst ip link set d0 down
		run_tool sendto "$size" >>"$TMP/sendto.down"
		run_tool txring "$size" >>"$TMP/txring.down"
		in_dst ip link set d0 up
		run_tool sendto "$size" >>"$TMP/sendto"
		run_tool txring "$size" >>"$TMP/txring"
		if [ $HAVE_REASM = 1 ]; then
			# As many frames as sendto sent in one run.
			n=$(tail -n 1 "$TMP/sendto" | awk -v s="$SECONDS_PER_RUN" \
				'{ n = int($1 * s); print n < 1000 ? 1000 : n }')
			run_reasm "$size" "$n" >>"$TMP/pass"
			# Fragments of 1256 bytes (1280 - 20, a multiple of
			# 8): as many datagrams as frames above, at most.
			per=$(((size + 8 + 1255) / 1256))
			if [ $per -gt 1 ]; then
				d=$((n / per < 100 ? 100 : n / per))
				run_reasm "$size" $((d * per)) 1280 \
					>>"$TMP/frag"
			fi
		fi
	done
	s=$(cut -d' ' -f1 "$TMP/sendto" | median)
	r=$(cut -d' ' -f1 "$TMP/txring" | median)
	sd=$(cut -d' ' -f2 "$TMP/sendto" | median)
	rd=$(cut -d' ' -f2 "$TMP/txring" | median)
	p=- pd=- f=- fd=-
	if [ -s "$TMP/pass" ]; then
		p=$(cut -d' ' -f1 "$TMP/pass" | median)
		pd=$(cut -d' ' -f2 "$TMP/pass" | median)
	fi
	if [ -s "$TMP/frag" ]; then
		f=$(cut -d' ' -f1 "$TMP/frag" | median)
		fd=$(cut -d' ' -f2 "$TMP/frag" | median)
	fi
	s0=$(cut -d' ' -f1 "$TMP/sendto.down" | median)
	r0=$(cut -d' ' -f1 "$TMP/txring.down" | median)
	rows="$rows$size $s $r $sd $rd $p $pd $f $fd $s0 $r0
"
done

frame_len() { awk -v s="$1" 'BEGIN { print s + 8 + 20 + 14 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {
	if (b + 0 > 0 && a != "-") printf "%.2fx", a / b; else print "-" }'; }
kpps() { awk -v a="$1" 'BEGIN {
	if (a == "-") print "-"; else printf "%.0f", a / 1000 }'; }

echo "### TX ring vs sendto() (veth, $REPS runs of ${SECONDS_PER_RUN} s, medians)"
echo
echo "| UDP payload | frame | sendto kpps | TX ring kpps | TX ring / sendto" \
	"| sendto kpps, peer down | TX ring kpps, peer down | ratio, peer down" \
	"| reasm pass-through kpps | reasm reassembled kdgram/s |" \
	"delivered (sendto / ring / reasm) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
echo -n "$rows" | while read -r size s r sd rd p pd f fd s0 r0; do
	echo "| $size | $(frame_len "$size") | $(kpps "$s") | $(kpps "$r") |" \
		"$(ratio "$r" "$s") | $(kpps "$s0") | $(kpps "$r0") |" \
		"$(ratio "$r0" "$s0") | $(kpps "$p") | $(kpps "$f") |" \
		"$sd / $rd / $pd |"
done
echo
echo "Frames: Ethernet + IPv4 + UDP, 64 distinct ones in turn, sent on m1" \
	"(veth, MTU 65535) in a namespace; the peer d0 counts each and drops" \
	"it on arrival (another host's MAC), or, \"peer down\", veth drops" \
	"it at transmit (sending side alone)." \
	"$(nproc) CPUs; kernel $(uname -r)${BYPASS:+; PACKET_QDISC_BYPASS}."
echo "TX ring: e2e_tx_ring through examples/reasm/cli/live_tx.c (TPACKET_V2," \
	"256 slots asked, a kick per 32 frames, drained at the end)." \
	"reasm columns: \`reasm --read - --out m1\` fed a pcap stream from" \
	"a pipe, the frames whole (pass-through) or as 1280-byte fragments" \
	"(reassembled, one frame out per datagram), start-up included."
