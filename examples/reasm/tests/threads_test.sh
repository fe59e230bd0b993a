#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# threads_test.sh - with --threads N on a capture file, the output depends
# only on the file and the flags.
#
# Environment (set by examples/reasm/CMakeLists.txt):
#   REASM              the reasm program
#   REASM_GEN_OVERLAP  reasm-gen-overlap (tests/gen_overlap.c)
#   REASM_PCAPDUMP     reasm-pcapdump
#   REASM_TMPDIR       a scratch directory (emptied first)
#
# An overlap-heavy capture (overlaps with other bytes, copies, second last
# fragments, keys that repeat, a timeout) goes through every policy with
# one thread, then again with one, and three times each with two and four
# threads (four is more than this machine's CPUs: more interleavings).
# Those read the file mapped into memory, every worker walking it (par.c);
# two more runs, at two and four threads, read it from stdin, through the
# reader and the rings (main.c). Every output file and every --stats file
# must equal the one-thread run, byte for byte. Then captures whose end
# the mapped workers leave to libpcap, and one cut short, which must fail
# at two threads exactly as at one. Nothing here depends on timing: a
# difference is a bug, whatever the load.
set -u

: "${REASM:?}" "${REASM_GEN_OVERLAP:?}" "${REASM_PCAPDUMP:?}"
. "$(dirname "$0")/lib.sh"

cap=$tmp/overlap.pcap
if ! "$REASM_GEN_OVERLAP" "$cap" 12 2000; then
	echo "FAIL: reasm-gen-overlap"
	exit 1
fi

# run OUT-PREFIX POLICY THREADS [FLAG...]: one run; the stats without
# bytes_peak (a sampled lower bound, not an outcome). THREADS "N-": N
# threads reading the capture from stdin.
run() {
	out=$1 policy=$2 threads=$3
	shift 3
	case $threads in
	*-)
		"$REASM" --read - --write "$out.pcap" --stats "$out.json" \
			--policy "$policy" --threads "${threads%-}" --quiet \
			"$@" <"$cap" 2>"$tmp/err"
		;;
	*)
		"$REASM" --read "$cap" --write "$out.pcap" --stats "$out.json" \
			--policy "$policy" --threads "$threads" --quiet \
			"$@" 2>"$tmp/err"
		;;
	esac
	rc=$?
	set -- "$out" "$policy" "$threads"

	if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
		fail "$2, $3 thread(s): exit $rc"
		cat "$tmp/err"
		return 1
	fi
	grep -v '"bytes_peak"' "$1.json" >"$1.counts"
	return 0
}

for policy in strict first last bsd bsd-right linux windows solaris; do
	ref=$tmp/$policy-ref
	run "$ref" "$policy" 1 || continue
	oks=$(sed -n 's/.*"ReasmOKs": \([0-9]*\).*/\1/p' "$ref.json")
	dups=$(sed -n 's/.*"duplicates": \([0-9]*\).*/\1/p' "$ref.json")
	over=$(sed -n 's/.*"ReasmOverlaps": \([0-9]*\).*/\1/p' "$ref.json")
	# The capture must exercise what it claims to.
	if [ "${oks:-0}" -lt 300 ] || [ "${over:-0}" -lt 100 ]; then
		fail "$policy: too few outcomes (ReasmOKs '$oks', overlaps '$over')"
	fi
	same=0
	runs=0
	for threads in 1 2 2 2 4 4 4 2- 4-; do
		runs=$((runs + 1))
		out=$tmp/$policy-$threads-$runs
		run "$out" "$policy" "$threads" || continue
		if ! cmp -s "$ref.pcap" "$out.pcap"; then
			fail "$policy, $threads threads (run $runs): output differs"
			"$REASM_PCAPDUMP" "$ref.pcap" >"$ref.txt"
			"$REASM_PCAPDUMP" "$out.pcap" >"$out.txt"
			diff "$ref.txt" "$out.txt" | head -n 4
		elif ! cmp -s "$ref.counts" "$out.counts"; then
			fail "$policy, $threads threads (run $runs): counters differ"
			diff "$ref.counts" "$out.counts"
		else
			same=$((same + 1))
		fi
	done
	[ "$same" -eq "$runs" ] &&
		pass "$policy: $runs runs at 1, 2, 4 threads equal one thread's ($oks reassembled, $over overlaps, $dups duplicates)"
done

# Records the mapped workers leave to libpcap: after the first record that
# libpcap would not give as it lies in the file, the rest is read with
# libpcap on one thread, with the workers' engines. mid.pcap: the capture
# with the seconds of its middle record out of range (libpcap makes them
# negative, and reasm time 0: the walk stops there, half way); snap.pcap:
# the capture with a snapshot length of 64 bytes in its header (libpcap
# cuts every longer record: the walk stops at the second). The same
# outputs and counters at 1, 2 and 4 threads.
off=$("$REASM_PCAPDUMP" "$cap" | awk '{ n[NR] = $2 }
	END { o = 24; for (i = 1; i <= NR / 2; i++) o += 16 + n[i]; print o }')
cp "$cap" "$tmp/mid.pcap"
printf '\000\000\000\360' |
	dd of="$tmp/mid.pcap" bs=1 seek="$off" conv=notrunc 2>/dev/null
cp "$cap" "$tmp/snap.pcap"
printf '\100\000\000\000' |
	dd of="$tmp/snap.pcap" bs=1 seek=16 conv=notrunc 2>/dev/null
for f in mid snap; do
	cap=$tmp/$f.pcap
	for policy in strict last; do
		ref=$tmp/$f-$policy-ref
		run "$ref" "$policy" 1 || continue
		same=0
		runs=0
		for threads in 2 4 2-; do
			runs=$((runs + 1))
			out=$tmp/$f-$policy-$threads
			run "$out" "$policy" "$threads" || continue
			if cmp -s "$ref.pcap" "$out.pcap" &&
				cmp -s "$ref.counts" "$out.counts"; then
				same=$((same + 1))
			else
				fail "$f.pcap, $policy, $threads threads: differs from one thread"
			fi
		done
		[ "$same" -eq "$runs" ] &&
			pass "$f.pcap, $policy: 2, 4 threads equal one thread's"
	done
done
# The patches did what the checks need: mid.pcap's middle record was
# changed, and snap.pcap has records cut to the snapshot length.
cut=$(sed -n 's/.*"truncated": \([0-9]*\).*/\1/p' "$tmp/snap-strict-ref.json")
at=$(cmp "$tmp/overlap.pcap" "$tmp/mid.pcap" | sed -n 's/.* byte \([0-9]*\),.*/\1/p')
if [ "${cut:-0}" -gt 1000 ] && [ "${at:-0}" -eq $((off + 1)) ]; then
	pass "mid.pcap: record at byte $off patched; snap.pcap: $cut records cut"
else
	fail "mid.pcap patched at byte '$at' (not $((off + 1))), or snap.pcap has '$cut' cut"
fi
cap=$tmp/overlap.pcap

# A timeout far shorter than the capture (20 ms): most datagrams time out,
# some retired by the tables on the way (which ones depends on their hash
# keys, new with every run) and the rest by the expiry at the end of the
# file. Every run, at 1, 2 and 4 threads, mapped and from stdin, must
# count the same timeouts and the same pending datagrams.
ref=$tmp/short-ref
if run "$ref" strict 1 --timeout 0.02; then
	tmo=$(sed -n 's/.*"ReasmTimeout": \([0-9]*\).*/\1/p' "$ref.json")
	same=0
	runs=0
	for threads in 1 1 2 4 2- 4-; do
		runs=$((runs + 1))
		out=$tmp/short-$runs
		run "$out" strict "$threads" --timeout 0.02 || continue
		if cmp -s "$ref.pcap" "$out.pcap" &&
			cmp -s "$ref.counts" "$out.counts"; then
			same=$((same + 1))
		else
			fail "--timeout 0.02, $threads threads (run $runs): differs from the first run"
			diff "$ref.counts" "$out.counts"
		fi
	done
	if [ "${tmo:-0}" -lt 500 ]; then
		fail "--timeout 0.02: only '$tmo' timeouts"
	elif [ "$same" -eq "$runs" ]; then
		pass "--timeout 0.02: $runs runs at 1, 2, 4 threads count the same ($tmo timed out)"
	fi
fi

# A capture cut short in the middle of a record: libpcap reads it at any
# thread count (the mapped workers take only whole files), so two threads
# fail as one does, with the same message, and leave no output.
size=$(wc -c <"$cap")
head -c $((size / 2 + 7)) "$cap" >"$tmp/cut.pcap"
for threads in 1 2; do
	"$REASM" --read "$tmp/cut.pcap" --write "$tmp/cut-$threads.pcap" \
		--threads $threads --quiet 2>"$tmp/cut-$threads.err"
	echo $? >"$tmp/cut-$threads.rc"
done
if [ "$(cat "$tmp/cut-2.rc")" -eq 2 ] && [ -s "$tmp/cut-2.err" ] &&
	cmp -s "$tmp/cut-1.err" "$tmp/cut-2.err" &&
	[ "$(cat "$tmp/cut-1.rc")" -eq 2 ] &&
	[ ! -e "$tmp/cut-1.pcap" ] && [ ! -e "$tmp/cut-2.pcap" ]; then
	pass "capture cut short: two threads fail as one ($(cat "$tmp/cut-2.err"))"
else
	fail "capture cut short: one thread exit $(cat "$tmp/cut-1.rc") '$(cat "$tmp/cut-1.err")', two exit $(cat "$tmp/cut-2.rc") '$(cat "$tmp/cut-2.err")'"
fi

finish threads_test
