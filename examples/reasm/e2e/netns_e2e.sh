#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# netns_e2e.sh - end-to-end test of reasm between network namespaces.
#
#   src --(s0|m0, MTU 1280)-- mid --(m1|d0, MTU 65535)-- dst
#
# netns_lib.sh builds the topology; in mid either tc forwards m0 to m1
# unchanged (dst's own kernel reassembles), or `reasm --in m0 --out m1`
# runs.
#
# Phases
#   0  kernel only (mirred): UDP traffic fragmented by src's kernel gets
#      to dst intact, and dst counted reassemblies (IpReasmReqds > 0): the
#      topology and the helpers work.
#   A  reasm: the same kind of traffic, more of it, several senders per
#      family at once, sizes 1300..65507 (IPv4) and ..65527 (IPv6): every
#      payload intact, none missing, and dst's IpReasmReqds and
#      Ip6ReasmReqds unchanged (datagrams arrived whole).
#   B  reasm: crafted attacks (overlaps, ping of death, teardrop, a flood
#      of incomplete datagrams) between good control datagrams: exactly
#      the controls arrive, and reasm's counters (--stats, written when
#      SIGTERM stops it; SIGINT in phase C) show each attack.
#   C  differential: two sets of generated fragment sequences (diff, every
#      shape; diff-overlap, overlaps, duplicates, second and duplicate
#      last fragments), once through mirred (dst's kernel reassembles),
#      then through reasm --policy strict at 1, 2 and 4 threads, each
#      thread count twice (the default fanout, hash, gives each datagram's
#      fragments to one worker in wire order; the sequences come from 4
#      source addresses per family, so that it has flows to spread); dst
#      must deliver the same datagrams, with the same bytes, every time.
#   D  reasm --duration 1 stops by itself with status 0 and its stats.
#   E  a capture replayed: `reasm --read F --out m1` at --threads 1 (the
#      engine writes each frame straight into the transmit ring's slot)
#      and at 2 (a worker builds it, the transmit thread copies it): dst
#      gets the same datagrams with the same bytes from both, and every
#      counter of the engine and of the ring is the same; then, m1's MTU
#      lowered, datagrams too long for it are dropped and counted
#      tx_oversize, the same in both.
#
# Environment (set by CTest): E2E_REASM (empty: run phase 0 only),
# E2E_UDP_SEND, E2E_UDP_RECV, E2E_FRAG_SEND, E2E_PKT_SEND, E2E_TMPDIR
# (logs; kept). Optional: E2E_PHASES (default "0 A B C D E"), E2E_SEED (phase C's seed,
# default 1), E2E_DIFF_COUNT (diff sequences, default 400),
# E2E_OVERLAP_COUNT (diff-overlap sequences, default 300),
# E2E_DIFF_THREADS (reasm's thread counts in phase C, default "1 2 4"),
# E2E_DIFF_ROUNDS (reasm runs per thread count, default 2),
# E2E_DIFF_SPREAD (source addresses per family the sequences come from,
# default 4, so that the hash fanout spreads them over the workers),
# E2E_DIFF_FANOUT (its --fanout, default reasm's), E2E_KEEP=1 (leave the
# namespaces for inspection).
#
# Exit: 0 pass, 1 fail, 77 skipped (not root, or namespaces cannot be
# made here).
set -u

REASM=${E2E_REASM:-}
SEND=${E2E_UDP_SEND:?E2E_UDP_SEND is not set}
RECV=${E2E_UDP_RECV:?E2E_UDP_RECV is not set}
FRAG=${E2E_FRAG_SEND:?E2E_FRAG_SEND is not set}
PKT=${E2E_PKT_SEND:-}
TMP=${E2E_TMPDIR:-${TMPDIR:-/tmp}/grain-e2e.$$}
SEED=${E2E_SEED:-1}
DIFF_COUNT=${E2E_DIFF_COUNT:-400}
OVERLAP_COUNT=${E2E_OVERLAP_COUNT:-300}
DIFF_THREADS=${E2E_DIFF_THREADS:-1 2 4}
DIFF_ROUNDS=${E2E_DIFF_ROUNDS:-2}
DIFF_SPREAD=${E2E_DIFF_SPREAD:-4}
DIFF_FANOUT=${E2E_DIFF_FANOUT:-}
PHASES=${E2E_PHASES:-0 A B C D E}
PORT=7777

E2E_NAME=e2e
. "$(dirname "$0")/netns_lib.sh"

for prog in "$SEND" "$RECV" "$FRAG"; do
	[ -x "$prog" ] || {
		echo "e2e: missing helper $prog"
		exit 1
	}
done
e2e_prepare
e2e_setup

# --- Receiver -------------------------------------------------------------------
# recv_start NAME ARGS...: e2e_udp_recv in dst, output in $TMP/NAME.rx.
recv_start() {
	local name=$1
	shift
	rm -f "$TMP/$name.ready"
	# Not through in_dst: $! must be the receiver itself (ip netns exec
	# execs it), not a subshell running a function.
	ip netns exec "$NS_DST" "$RECV" --port $PORT \
		--ready "$TMP/$name.ready" "$@" >"$TMP/$name.rx" 2>&1 &
	RECV_PID=$!
	bg_pids="$bg_pids $RECV_PID"
	local i=0
	while [ ! -e "$TMP/$name.ready" ]; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 $RECV_PID 2>/dev/null; then
			show "receiver $name" "$TMP/$name.rx"
			return 1
		fi
		sleep 0.05
	done
}
# recv_wait: wait for the receiver; its exit status.
recv_wait() {
	wait "$RECV_PID"
	local rc=$?
	bg_forget $RECV_PID
	return $rc
}

# --- reasm ----------------------------------------------------------------------
REASM_LIVE=0
if [ -n "$REASM" ] && [ -x "$REASM" ] &&
	"$REASM" --help 2>&1 | grep -q -- '--in'; then
	REASM_LIVE=1
fi

# reasm_start NAME THREADS ARGS...: reasm --in m0 --out m1 in mid, stats
# in $TMP/NAME.json, log in $TMP/NAME.log. Waits until its packet sockets
# exist.
reasm_start() {
	local name=$1 threads=$2
	shift 2
	rm -f "$TMP/$name.json"
	local before
	before=$(in_mid cat /proc/net/packet | wc -l)
	# $! is reasm itself (ip netns exec execs it): signals reach it.
	ip netns exec "$NS_MID" "$REASM" --in m0 --out m1 --threads $threads \
		--stats "$TMP/$name.json" "$@" >"$TMP/$name.log" 2>&1 &
	REASM_PID=$!
	bg_pids="$bg_pids $REASM_PID"
	local i=0
	# A receive socket per thread and the transmit socket.
	while [ "$(in_mid cat /proc/net/packet | wc -l)" -lt \
		$((before + threads + 1)) ]; do
		i=$((i + 1))
		if ! kill -0 $REASM_PID 2>/dev/null; then
			wait $REASM_PID
			fail "reasm $name exited at start (status $?)"
			show "reasm $name" "$TMP/$name.log"
			return 1
		fi
		if [ $i -gt 100 ]; then
			say "note: reasm $name: fewer packet sockets than" \
				"expected after 5 s; going on"
			break
		fi
		sleep 0.05
	done
	sleep 0.2
}
# reasm_stop NAME [SIGNAL]: SIGTERM (or SIGNAL), wait (10 s at most),
# check status 0 and the stats file.
reasm_stop() {
	local name=$1 sig=${2:-TERM} i=0
	kill -$sig $REASM_PID 2>/dev/null
	while kill -0 $REASM_PID 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 200 ]; then
			fail "reasm $name did not exit within 10 s of SIG$sig"
			kill -KILL $REASM_PID 2>/dev/null
			break
		fi
		sleep 0.05
	done
	wait $REASM_PID
	local rc=$?
	bg_forget $REASM_PID
	if [ $rc != 0 ]; then
		fail "reasm $name exited with status $rc after SIG$sig"
		show "reasm $name" "$TMP/$name.log"
		return 1
	fi
	if [ ! -s "$TMP/$name.json" ]; then
		fail "reasm $name wrote no --stats file"
		show "reasm $name" "$TMP/$name.log"
		return 1
	fi
	# Every fragment accounted for once.
	local j=$TMP/$name.json
	local reqds sum
	reqds=$(json_num "$j" ReasmReqds)
	sum=$(($(json_num "$j" frags_reassembled) + $(json_num "$j" frags_dropped) +
		$(json_num "$j" frags_discarded) + $(json_num "$j" frags_pending)))
	if [ "$reqds" != "$sum" ]; then
		fail "reasm $name: ReasmReqds $reqds != reassembled + dropped" \
			"+ discarded + pending ($sum)"
	fi
}
# One line of reasm's counters, for the log.
reasm_summary() {
	local j=$TMP/$1.json k out=""
	for k in packets passed ReasmReqds ReasmOKs ReasmFails ReasmOverlaps \
		duplicates too_big bad_end evicted refused ReasmTimeout \
		datagrams_pending emitted rx_ring_drops tx_frames tx_oversize \
		tx_wrong_format tx_errors tx_unsent; do
		out="$out $k=$(json_num "$j" $k)"
	done
	say "reasm $1:$out"
}

# --- Phase 0: kernel only ----------------------------------------------------------
phase0() {
	say "phase 0: kernel path (mid: $1), UDP fragmented by src's kernel"
	local before after
	before=$(dst_reasm_reqds)
	recv_start p0 --expect 24 --idle-ms 3000 --timeout 30 || {
		fail "phase 0: receiver did not start"
		return
	}
	in_src "$SEND" --dst $DST4 --port $PORT --senders 2 --count 6 \
		>"$TMP/p0.send4" 2>&1 &
	local s4=$!
	in_src "$SEND" --dst $DST6 --port $PORT --senders 2 --count 6 \
		>"$TMP/p0.send6" 2>&1
	local rc6=$?
	wait $s4
	local rc4=$?
	recv_wait
	local rcr=$?
	after=$(dst_reasm_reqds)
	if [ $rc4 != 0 ] || [ $rc6 != 0 ] || [ $rcr != 0 ]; then
		fail "phase 0: send v4 $rc4, send v6 $rc6, receive $rcr"
		show "send v4" "$TMP/p0.send4"
		show "send v6" "$TMP/p0.send6"
		show "receive" "$TMP/p0.rx"
		return
	fi
	if [ $((after - before)) -le 0 ]; then
		fail "phase 0: dst reassembled nothing (ReasmReqds $before ->" \
			"$after): the traffic was not fragmented"
		return
	fi
	say "phase 0: ok: $(grep '^e2e_udp_recv: received' "$TMP/p0.rx" |
		sed 's/^e2e_udp_recv: //'); dst ReasmReqds +$((after - before))"
}

# --- Phase A: real traffic through reasm ----------------------------------------
phaseA() {
	local senders=3 count=40
	local total=$((2 * senders * count))
	say "phase A: reasm, $total UDP datagrams ($senders senders per" \
		"family, at once), 1300..65507 (v4) / ..65527 (v6) bytes"
	reasm_start pA 2 || return
	local before after
	before=$(dst_reasm_reqds)
	# IPv6 datagrams with more than 65487 bytes of UDP payload make
	# packets over 65535 bytes: no interface (veth's MTU is at most
	# 65535) lets them out whole. They are sent all the same (each
	# sender's second one has the largest size): reasm must count them
	# as tx_oversize, and dst cannot get them.
	local over
	over=$("$SEND" --dst $DST6 --port $PORT --senders $senders \
		--count $count --first-sender 101 --over 65487 --dry-run |
		sed -n 's/^e2e_udp_send: over 65487: //p')
	over=${over:-0}
	local expect=$((total - over))
	recv_start pA --expect $expect --idle-ms 5000 --timeout 120 || {
		fail "phase A: receiver did not start"
		reasm_stop pA
		return
	}
	in_src "$SEND" --dst $DST4 --port $PORT --senders $senders \
		--count $count --first-sender 1 --gap-us 4000 \
		>"$TMP/pA.send4" 2>&1 &
	local s4=$!
	in_src "$SEND" --dst $DST6 --port $PORT --senders $senders \
		--count $count --first-sender 101 --gap-us 4000 --over 65487 \
		>"$TMP/pA.send6" 2>&1
	local rc6=$?
	wait $s4
	local rc4=$?
	recv_wait
	after=$(dst_reasm_reqds)
	reasm_stop pA
	[ -s "$TMP/pA.json" ] && reasm_summary pA
	cat "$TMP/pA.send4" "$TMP/pA.send6" | sed 's/^/    /'
	grep -v '^rx ' "$TMP/pA.rx" | sed 's/^/    /' | head -30
	if [ $rc4 != 0 ] || [ $rc6 != 0 ]; then
		fail "phase A: a sender failed (v4 $rc4, v6 $rc6)"
	fi
	local got corrupt dup
	got=$(sed -n 's/^e2e_udp_recv: received \([0-9]*\) .*/\1/p' \
		"$TMP/pA.rx")
	corrupt=$(sed -n 's/.*, corrupt \([0-9]*\),.*/\1/p' "$TMP/pA.rx")
	dup=$(sed -n 's/.*, duplicate \([0-9]*\),.*/\1/p' "$TMP/pA.rx")
	if [ "${got:-0}" != $expect ] || [ "${corrupt:-1}" != 0 ] ||
		[ "${dup:-1}" != 0 ]; then
		fail "phase A: dst received ${got:-?} datagrams, expected" \
			"$expect ($total sent, $over IPv6 ones too long for" \
			"MTU 65535); corrupt ${corrupt:-?}, duplicate ${dup:-?}"
		show "reasm pA" "$TMP/pA.log"
	fi
	if [ "$after" != "$before" ]; then
		fail "phase A: dst's kernel reassembled $((after - before))" \
			"fragments: datagrams did not all arrive whole"
	fi
	[ -s "$TMP/pA.json" ] || return
	local oks oversize
	oks=$(json_num "$TMP/pA.json" ReasmOKs)
	oversize=$(json_num "$TMP/pA.json" tx_oversize)
	[ "${oks:-0}" -ge $total ] ||
		fail "phase A: reasm reassembled ${oks:-0} datagrams," \
			"expected at least $total"
	[ "${oversize:-0}" = "$over" ] ||
		fail "phase A: reasm counted tx_oversize ${oversize:-?}," \
			"expected $over (IPv6 packets over 65535 bytes)"
}

# --- Phase B: crafted attacks through reasm -------------------------------------
phaseB() {
	local flood=6000
	say "phase B: reasm, crafted attacks between control datagrams"
	reasm_start pB 2 || return
	recv_start pB --list --idle-ms 3000 --timeout 60 || {
		fail "phase B: receiver did not start"
		reasm_stop pB
		return
	}
	in_src "$FRAG" attacks --src4 $SRC4 --dst4 $DST4 --src6 $SRC6 \
		--dst6 $DST6 --port $PORT --count $flood --gap-us 500 \
		>"$TMP/pB.plan" 2>"$TMP/pB.send"
	local rcs=$?
	recv_wait
	local rcr=$?
	reasm_stop pB
	[ -s "$TMP/pB.json" ] && reasm_summary pB
	if [ $rcs != 0 ]; then
		fail "phase B: e2e_frag_send failed (status $rcs)"
		show "send" "$TMP/pB.send"
	fi
	# Delivered must be exactly the sets planned "deliver".
	awk '$1 == "set" && $7 == "deliver" { print $2, $3, $4 }' \
		"$TMP/pB.plan" | sort >"$TMP/pB.want"
	awk '$1 == "rx" { print $2, $3, $4 }' "$TMP/pB.rx" | sort \
		>"$TMP/pB.got"
	if ! cmp -s "$TMP/pB.want" "$TMP/pB.got"; then
		fail "phase B: delivered datagrams differ from the controls" \
			"(< planned, > delivered):"
		diff "$TMP/pB.want" "$TMP/pB.got" | grep '^[<>]' | head -20 |
			while read -r side fam sender seq; do
				printf '    %s %s %s %s (%s)\n' "$side" "$fam" \
					"$sender" "$seq" "$(awk -v f="$fam" \
					-v s="$seq" '$1 == "set" && $2 == f &&
					$4 == s { print $5, $6 }' \
					"$TMP/pB.plan")"
			done
	fi
	if [ $rcr != 0 ]; then
		fail "phase B: receiver status $rcr (corrupt or duplicate)"
		grep -v '^rx ' "$TMP/pB.rx" | sed 's/^/    /'
	fi
	[ -s "$TMP/pB.json" ] || return
	local j=$TMP/pB.json
	expect_min() { # counter minimum why
		local v
		v=$(json_num "$j" "$1")
		[ "${v:-0}" -ge "$2" ] ||
			fail "phase B: $1 = ${v:-absent}, expected >= $2 ($3)"
	}
	expect_min ReasmOverlaps 4 "2 overlapping sets per family"
	expect_min too_big 2 "a ping of death per family"
	expect_min bad_end 2 "a teardrop per family"
	expect_min ReasmOKs 10 "the control datagrams"
	expect_min ReasmReqds $flood "the flood alone"
	local held
	held=$(($(json_num "$j" evicted) + $(json_num "$j" refused) +
		$(json_num "$j" datagrams_pending) + $(json_num "$j" ReasmTimeout)))
	[ $held -ge 1 ] ||
		fail "phase B: the flood left no trace (evicted + refused +" \
			"pending + timeout = 0)"
}

# --- Phase C: differential, reasm strict vs dst's kernel -------------------------
# Sets: "diff" (E2E_DIFF_COUNT sequences of every shape) and "diff-overlap"
# (E2E_OVERLAP_COUNT sequences of the shapes where the reassembler picks
# between copies). Run N (0: the kernel, then one per reasm run) sends set
# diff with IP IDs from diff_ids N and diff-overlap from diff_ids N +
# DIFF_COUNT: no two runs share an ID, so nothing a run leaves incomplete
# meets fragments of another.
diff_ids() { echo $((1000 + $1 * (DIFF_COUNT + OVERLAP_COUNT))); }

# diff_run NAME KIND COUNT ID_BASE [EXPECT]: send the generated sequences
# of KIND, list what dst got in $TMP/NAME.got. With EXPECT (the kernel's
# count), the receiver waits for that many datagrams however long they
# take (up to 120 s in all), then drains until nothing more has come for
# 1.5 s, so that a surplus shows. Without (the kernel's run, which
# delivers as the sender sends), it drains for 1.5 s once the sender has
# finished ($TMP/NAME.done), however long sending took.
diff_run() {
	local name=$1 kind=$2 count=$3 idbase=$4 expect=${5:-}
	rm -f "$TMP/$name.done"
	if [ -n "$expect" ]; then
		recv_start "$name" --list --expect "$expect" --drain-ms 1500 \
			--idle-ms 20000 --timeout 120 || return 1
	else
		recv_start "$name" --list --done-file "$TMP/$name.done" \
			--drain-ms 1500 --idle-ms 60000 --timeout 120 ||
			return 1
	fi
	in_src "$FRAG" "$kind" --seed "$SEED" --count "$count" --show-frags \
		--src-spread "$DIFF_SPREAD" --id-base "$idbase" --src4 $SRC4 --dst4 $DST4 --src6 $SRC6 \
		--dst6 $DST6 --port $PORT >"$TMP/$name.plan" \
		2>"$TMP/$name.send" || {
		fail "phase C: e2e_frag_send failed in run $name"
		show "send" "$TMP/$name.send"
	}
	: >"$TMP/$name.done"
	recv_wait
	# The receiver's status is not the verdict here: the atomic shape
	# delivers a datagram twice, and a corrupt one is compared too.
	awk '$1 == "rx" { print $2, $3, $4, $6 }' "$TMP/$name.rx" | sort \
		>"$TMP/$name.got"
}

# diff_report KERNEL REASM: the sequences whose deliveries differ, with
# their shapes and fragments (from KERNEL's plan).
diff_report() {
	local k=$TMP/$1 r=$TMP/$2
	printf '    %-4s %-6s %-30s %-14s %s\n' fam seq shape kernel reasm
	diff "$k.got" "$r.got" | grep '^[<>]' |
		awk '{ print $2, $4 }' | sort -u -k2n | head -30 |
		while read -r fam seq; do
			printf '    %-4s %-6s %-30s %-14s %s\n' "$fam" "$seq" \
				"$(awk -v s="$seq" '$1 == "set" && $4 == s {
					print $6 }' "$k.plan")" \
				"$(awk -v s="$seq" '$3 == s { n++; v = $4 }
					END { print n + 0, v }' "$k.got")" \
				"$(awk -v s="$seq" '$3 == s { n++; v = $4 }
					END { print n + 0, v }' "$r.got")"
		done
	say "phase C: the first differing sequences, fragments in the order" \
		"sent (offset, length):"
	diff "$k.got" "$r.got" | grep '^[<>]' |
		awk '{ print $4 }' | sort -un | head -5 | while read -r seq; do
		awk -v s="$seq" '$1 == "set" { p = $4 == s }
			p && $1 == "set" { printf "    %s %s %s:", $2, $4, $6 }
			p && $1 == "frag" { printf " %s+%s%s%s", $2, $3,
				$4 == "last" ? "(last)" : "",
				$5 == "other-bytes" ? "(other bytes)" : "" }
			END { }' "$k.plan"
		echo
	done
}

# diff_compare KERNEL REASM KIND COUNT: whether reasm's run delivered what
# the kernel's did.
diff_compare() {
	local nl nr
	nl=$(wc -l <"$TMP/$1.got")
	nr=$(wc -l <"$TMP/$2.got")
	if cmp -s "$TMP/$1.got" "$TMP/$2.got"; then
		say "phase C: $2: ok: same $nl datagrams delivered of $4" \
			"$3 sequences"
		return 0
	fi
	fail "phase C: $2: reasm (strict) and Linux delivered different" \
		"datagrams of the $3 sequences (kernel $nl, reasm $nr); by" \
		"sequence:"
	diff_report "$1" "$2"
	return 1
}

phaseC() {
	say "phase C: differential, $DIFF_COUNT diff and $OVERLAP_COUNT" \
		"diff-overlap sequences (seed $SEED): dst's kernel vs reasm" \
		"--policy strict${DIFF_FANOUT:+ --fanout $DIFF_FANOUT}, threads" \
		"$DIFF_THREADS, $DIFF_ROUNDS run(s) each"
	local threads round run=0 runs last nl no name differ=0
	runs=$(($(echo $DIFF_THREADS | wc -w) * DIFF_ROUNDS))
	last=$(($(diff_ids $((runs + 1))) - 1))
	if [ "$last" -gt 65535 ]; then
		fail "phase C: $((runs + 1)) runs of" \
			"$((DIFF_COUNT + OVERLAP_COUNT)) sequences need IPv4" \
			"IDs up to $last: fewer rounds, threads or sequences"
		return
	fi
	l2_on || {
		fail "phase C: cannot make mid a plain forwarder"
		return
	}
	diff_run pC.linux diff "$DIFF_COUNT" "$(diff_ids 0)"
	diff_run pC.olap.linux diff-overlap "$OVERLAP_COUNT" \
		$(($(diff_ids 0) + DIFF_COUNT))
	l2_off
	nl=$(wc -l <"$TMP/pC.linux.got")
	no=$(wc -l <"$TMP/pC.olap.linux.got")
	say "phase C: the kernel delivered $nl of $DIFF_COUNT diff and $no" \
		"of $OVERLAP_COUNT diff-overlap sequences"
	if [ "$nl" -eq 0 ] || [ "$nl" -ge "$DIFF_COUNT" ] ||
		[ "$no" -eq 0 ] || [ "$no" -ge "$OVERLAP_COUNT" ]; then
		fail "phase C: the kernel delivered $nl of $DIFF_COUNT and" \
			"$no of $OVERLAP_COUNT: the sequences test nothing"
	fi
	if [ $REASM_LIVE = 0 ]; then
		say "phase C: kernel runs only"
		return
	fi
	for threads in $DIFF_THREADS; do
		for round in $(seq 1 "$DIFF_ROUNDS"); do
			run=$((run + 1))
			name=pC.t$threads.r$round
			reasm_start "$name" "$threads" --policy strict \
				${DIFF_FANOUT:+--fanout $DIFF_FANOUT} || {
				differ=$((differ + 1))
				continue
			}
			diff_run "$name.reasm" diff "$DIFF_COUNT" \
				"$(diff_ids $run)" "$nl"
			diff_run "$name.olap.reasm" diff-overlap \
				"$OVERLAP_COUNT" \
				$(($(diff_ids $run) + DIFF_COUNT)) "$no"
			reasm_stop "$name" INT
			[ -s "$TMP/$name.json" ] && reasm_summary "$name"
			diff_compare pC.linux "$name.reasm" diff \
				"$DIFF_COUNT" || differ=$((differ + 1))
			diff_compare pC.olap.linux "$name.olap.reasm" \
				diff-overlap "$OVERLAP_COUNT" ||
				differ=$((differ + 1))
		done
	done
	if [ $differ -eq 0 ]; then
		say "phase C: ok: $run reasm runs (threads $DIFF_THREADS)," \
			"each delivered what the kernel did"
		return
	fi
	say "phase C: replay: E2E_SEED=$SEED E2E_DIFF_COUNT=$DIFF_COUNT" \
		"E2E_OVERLAP_COUNT=$OVERLAP_COUNT; plans and listings in" \
		"$TMP/pC.*; offline: e2e_frag_send diff|diff-overlap --seed" \
		"$SEED --count N --write-pcap F.pcap ... then reasm --read F.pcap"
}

# --- Phase D: reasm stops by itself ------------------------------------------------
phaseD() {
	say "phase D: reasm --duration 1 stops by itself, status 0, stats written"
	rm -f "$TMP/pD.json"
	local t0=$SECONDS
	timeout 15 ip netns exec "$NS_MID" "$REASM" --in m0 --out m1 \
		--threads 2 --duration 1 --stats "$TMP/pD.json" \
		>"$TMP/pD.log" 2>&1
	local rc=$?
	if [ $rc != 0 ]; then
		fail "phase D: reasm --duration 1 exited with status $rc" \
			"(124: still running after 15 s)"
		show "reasm pD" "$TMP/pD.log"
	elif [ ! -s "$TMP/pD.json" ]; then
		fail "phase D: reasm --duration 1 wrote no --stats file"
	else
		say "phase D: ok ($((SECONDS - t0)) s)"
	fi
}

# --- Phase E: a capture replayed onto m1 ---------------------------------------------
# replay_run NAME THREADS PCAP ARGS...: reasm --read PCAP --out m1 in mid,
# what dst received listed in $TMP/NAME.got, stats in $TMP/NAME.json.
replay_run() {
	local name=$1 threads=$2 pcap=$3 rc
	shift 3
	rm -f "$TMP/$name.done" "$TMP/$name.json"
	recv_start "$name" --list --done-file "$TMP/$name.done" \
		--drain-ms 1500 --idle-ms 60000 --timeout 120 || {
		fail "phase E: receiver $name did not start"
		return 1
	}
	timeout 60 ip netns exec "$NS_MID" "$REASM" --read "$pcap" --out m1 \
		--threads "$threads" --dst-mac "$D0_MAC" --quiet \
		--stats "$TMP/$name.json" "$@" >"$TMP/$name.log" 2>&1
	rc=$?
	: >"$TMP/$name.done"
	recv_wait
	awk '$1 == "rx" { print $2, $3, $4, $6 }' "$TMP/$name.rx" | sort \
		>"$TMP/$name.got"
	if [ $rc != 0 ]; then
		fail "phase E: reasm $name exited with status $rc"
		show "reasm $name" "$TMP/$name.log"
		return 1
	fi
}

# replay_same A B: the same datagrams arrived and every counter is equal.
replay_same() {
	local a=$TMP/$1 b=$TMP/$2 k va vb
	if ! cmp -s "$a.got" "$b.got"; then
		fail "phase E: $1 and $2 delivered different datagrams" \
			"($(wc -l <"$a.got") and $(wc -l <"$b.got"))"
		diff "$a.got" "$b.got" | head -10 | sed 's/^/    /'
	fi
	for k in packets passed ReasmReqds ReasmOKs ReasmFails \
		ReasmOverlaps duplicates too_big bad_end atomic \
		frags_reassembled frags_dropped frags_discarded emitted \
		emitted_bytes tx_frames tx_bytes tx_oversize tx_truncated \
		tx_runt tx_wrong_format tx_unsent; do
		va=$(json_num "$a.json" $k)
		vb=$(json_num "$b.json" $k)
		[ -n "$va" ] && [ "$va" = "$vb" ] ||
			fail "phase E: $k: ${va:-?} in $1, ${vb:-?} in $2"
	done
}

phaseE() {
	local count=${E2E_REPLAY_COUNT:-300} t n sent
	say "phase E: a capture of $count diff sequences replayed by reasm" \
		"--read F --out m1 at 1 thread (into the ring slot) and 2" \
		"(copied): the same datagrams, the same counters"
	local start=$failures
	in_src "$FRAG" diff --seed "$SEED" --count "$count" --src4 $SRC4 \
		--dst4 $DST4 --src6 $SRC6 --dst6 $DST6 --port $PORT \
		--write-pcap "$TMP/pE.pcap" >"$TMP/pE.plan" 2>"$TMP/pE.gen" || {
		fail "phase E: e2e_frag_send --write-pcap failed"
		show "e2e_frag_send" "$TMP/pE.gen"
		return
	}
	for t in 1 2; do
		replay_run pE.t$t $t "$TMP/pE.pcap" --policy strict || return
	done
	replay_same pE.t1 pE.t2
	n=$(wc -l <"$TMP/pE.t1.got")
	sent=$(json_num "$TMP/pE.t1.json" tx_frames)
	[ "$n" -gt 0 ] || fail "phase E: nothing arrived"
	[ "${sent:-0}" -ge "$n" ] ||
		fail "phase E: $n datagrams arrived of ${sent:-0} frames sent"
	if [ -z "$PKT" ] || [ ! -x "$PKT" ]; then
		say "phase E: no e2e_pkt_send: the oversize half skipped"
	else
		# 20000-byte datagrams in 1280-byte fragments, with m1's
		# MTU at 9000: every one is reassembled, then dropped at
		# the ring (tx_oversize; the direct path declines the
		# reservation and the copy path counts it).
		"$PKT" --write-pcap "$TMP/pE.big.pcap" --count 800 \
			--src4 $SRC4 --dst4 $DST4 --port $PORT --size 20000 \
			--frag-mtu 1280 >"$TMP/pE.big.gen" 2>&1 || {
			fail "phase E: e2e_pkt_send --write-pcap failed"
			show "e2e_pkt_send" "$TMP/pE.big.gen"
			return
		}
		in_mid ip link set m1 mtu 9000
		for t in 1 2; do
			replay_run pE.big.t$t $t "$TMP/pE.big.pcap" || break
		done
		in_mid ip link set m1 mtu 65535
		replay_same pE.big.t1 pE.big.t2
		# --count is frames: 50 datagrams of 16 fragments.
		local over oks
		over=$(json_num "$TMP/pE.big.t1.json" tx_oversize)
		oks=$(json_num "$TMP/pE.big.t1.json" ReasmOKs)
		[ "${oks:-0}" = 50 ] && [ "${over:-0}" = 50 ] ||
			fail "phase E: ${oks:-?} datagrams reassembled," \
				"tx_oversize ${over:-?}; expected 50 and 50"
	fi
	[ $failures = $start ] &&
		say "phase E: ok: $n datagrams delivered alike," \
			"$(json_num "$TMP/pE.t1.json" tx_frames) frames sent by each"
}

# --- Run ---------------------------------------------------------------------------
has_phase() { case " $PHASES " in *" $1 "*) return 0 ;; esac; return 1; }

if has_phase 0; then
	if ! l2_on; then
		fail "cannot make mid a plain L2 forwarder (tc mirred or bridge)"
		exit 1
	fi
	phase0 "$L2_MODE"
	l2_off
fi

if [ $REASM_LIVE = 1 ]; then
	has_phase A && phaseA
	has_phase B && phaseB
	has_phase D && phaseD
	has_phase E && phaseE
else
	if [ -z "$REASM" ]; then
		say "SKIPPING phases A, B, D, E and the reasm half of C: reasm" \
			"was not built" \
			"(libpcap missing)"
	else
		say "SKIPPING phases A, B, D, E and the reasm half of C: $REASM has no" \
			"live mode (--in IFACE) yet"
	fi
fi
has_phase C && phaseC

# The programs' own output went to files: bring any sanitizer report
# (sanitizer builds) into this script's output, where CTest looks.
for f in "$TMP"/*; do
	[ -f "$f" ] || continue
	if grep -qE 'ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error: |WARNING: ThreadSanitizer|ERROR: ThreadSanitizer|FATAL: ThreadSanitizer' "$f"; then
		fail "sanitizer report in $(basename "$f"):"
		show "$(basename "$f")" "$f" 200
	fi
done

if [ $failures -gt 0 ]; then
	say "$failures check(s) failed; logs in $TMP"
	exit 1
fi
if [ $REASM_LIVE = 0 ]; then
	say "kernel-only checks passed; reasm phases skipped (see above)"
else
	say "all checks passed"
fi
exit 0
