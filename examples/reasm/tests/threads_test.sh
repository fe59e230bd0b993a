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
# Every output file and every --stats file must equal the one-thread run,
# byte for byte. Nothing here depends on timing: a difference is a bug,
# whatever the load.
set -u

: "${REASM:?}" "${REASM_GEN_OVERLAP:?}" "${REASM_PCAPDUMP:?}"
. "$(dirname "$0")/lib.sh"

cap=$tmp/overlap.pcap
if ! "$REASM_GEN_OVERLAP" "$cap" 12 2000; then
	echo "FAIL: reasm-gen-overlap"
	exit 1
fi

# run OUT-PREFIX POLICY THREADS: one run; the stats without bytes_peak (a
# sampled lower bound, not an outcome).
run() {
	"$REASM" --read "$cap" --write "$1.pcap" --stats "$1.json" \
		--policy "$2" --threads "$3" --quiet 2>"$tmp/err"
	rc=$?
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
	for threads in 1 2 2 2 4 4 4; do
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

finish threads_test
