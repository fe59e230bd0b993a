#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli_test.sh - end-to-end checks of the reasm command line.
#
# Environment (set by examples/reasm/CMakeLists.txt):
#   REASM           the reasm program
#   REASM_GEN       reasm-gen
#   REASM_PCAPDUMP  reasm-pcapdump
#   REASM_DEMO      the checked-in capture, examples/reasm/data/demo.pcap
#   REASM_TMPDIR    a scratch directory (emptied first)
#
# Checks: --help; every kind of bad invocation exits 2 with exactly one
# line on stderr, starting "reasm: ", and nothing on stdout; the demo
# capture is what reasm-gen makes by default; it reassembles with exit 0,
# --stats writes every counter and agrees with the output file; one thread
# and four give the same file; one thread gives the same file twice;
# every link type reasm-gen writes goes through, with one thread and two
# giving the same file; a failed run leaves existing outputs alone; a
# closed pipe on --write - is reported; the live options are checked
# (without opening any interface).
set -u

: "${REASM:?}" "${REASM_GEN:?}" "${REASM_PCAPDUMP:?}" "${REASM_DEMO:?}"
. "$(dirname "$0")/lib.sh"

# expect_error NAME ARGS... : reasm ARGS exits 2, prints nothing on stdout
# and one line starting "reasm: " on stderr.
expect_error() {
	name=$1
	shift
	"$REASM" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -ne 2 ]; then
		fail "$name: exit status $rc, not 2"
		cat "$tmp/err"
	elif [ -s "$tmp/out" ]; then
		fail "$name: wrote to stdout"
	elif [ "$lines" -ne 1 ] || ! head -n 1 "$tmp/err" | grep -q '^reasm: '; then
		fail "$name: stderr is not one 'reasm: ' line:"
		cat "$tmp/err"
	else
		pass "$name: $(cat "$tmp/err")"
	fi
}

# run_ok NAME ARGS... : reasm ARGS exits 0. Its stderr is shown, so that a
# sanitizer report there fails the test.
run_ok() {
	name=$1
	shift
	"$REASM" "$@" 2>"$tmp/err"
	rc=$?
	cat "$tmp/err"
	if [ "$rc" -ne 0 ]; then
		fail "$name: exit status $rc"
		return 1
	fi
	pass "$name"
	return 0
}

# --- help ------------------------------------------------------------------------
if "$REASM" --help >"$tmp/out" 2>"$tmp/err" && grep -q '^usage: reasm' \
	"$tmp/out" && [ ! -s "$tmp/err" ]; then
	pass "--help"
else
	fail "--help: status or text wrong"
fi

if "$REASM" -h >"$tmp/out" 2>"$tmp/err" && grep -q '^usage: reasm' \
	"$tmp/out" && [ ! -s "$tmp/err" ]; then
	pass "-h"
else
	fail "-h: status or text wrong"
fi
if "$REASM" --version >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
	grep -Eqx 'reasm [0-9]+\.[0-9]+\.[0-9]+' "$tmp/out" &&
	[ "$(wc -l <"$tmp/out")" -eq 1 ]; then
	pass "--version: $(cat "$tmp/out")"
else
	fail "--version: status or text wrong: '$(cat "$tmp/out" "$tmp/err")'"
fi

# --- bad invocations --------------------------------------------------------------
demo=$REASM_DEMO
out=$tmp/out.pcap
expect_error "no arguments"
expect_error "unknown flag" --read "$demo" --write "$out" --frobnicate
expect_error "stray argument" --read "$demo" --write "$out" extra
expect_error "missing --write" --read "$demo"
expect_error "missing --read" --write "$out"
expect_error "flag without value" --read "$demo" --write
expect_error "value on a plain flag" --read "$demo" --write "$out" --quiet=yes
expect_error "non-numeric --threads" --read "$demo" --write "$out" --threads x
expect_error "zero --threads" --read "$demo" --write "$out" --threads 0
expect_error "negative --timeout" --read "$demo" --write "$out" --timeout -5
expect_error "non-numeric --timeout" --read "$demo" --write "$out" --timeout 3s
expect_error "bad --mem-high" --read "$demo" --write "$out" --mem-high 12Q
expect_error "--mem-low above --mem-high" --read "$demo" --write "$out" \
	--mem-high 1M --mem-low 2M
expect_error "bad --mem-policy" --read "$demo" --write "$out" --mem-policy x
expect_error "bad --max-frags" --read "$demo" --write "$out" --max-frags 0
expect_error "--stripes not a power of two" --read "$demo" --write "$out" \
	--stripes 12
expect_error "unknown --policy" --read "$demo" --write "$out" --policy best
expect_error "--read twice" --read "$demo" --read "$demo" --write "$out"
grep -q "^reasm: --read given twice" "$tmp/err" ||
	fail "--read twice: message is '$(cat "$tmp/err")'"
expect_error "--write twice" --read "$demo" --write "$out" --write "$out"
expect_error "--stats twice" --read "$demo" --write "$out" \
	--stats "$tmp/a.json" --stats "$tmp/b.json"
expect_error "--in twice" --in lo --in lo --write "$out"
expect_error "--stats and --write the same" --read "$demo" --write "$out" \
	--stats "$out"
expect_error "nonexistent input" --read "$tmp/no-such.pcap" --write "$out"
printf 'this is not a capture file\n' >"$tmp/text.pcap"
expect_error "input not a capture" --read "$tmp/text.pcap" --write "$out"
expect_error "unwritable output" --read "$demo" --write "$tmp/no/such/dir.pcap"
expect_error "unwritable --stats" --read "$demo" --write "$out" \
	--stats "$tmp/no/such/dir.json"

# A failing run never touches an existing output: outputs are written to
# temporary files beside them and renamed only when the run succeeds.
mkdir -p "$tmp/keep"
keep=$tmp/keep/out.pcap
printf 'precious\n' >"$keep"
chmod 640 "$keep"
cp "$keep" "$tmp/keep.orig"
expect_error "bad --stats keeps --write" --read "$demo" --write "$keep" \
	--stats "$tmp/no/such/dir.json"
expect_error "bad --read keeps --write" --read "$tmp/no-such.pcap" \
	--write "$keep"
head -c 300 "$demo" >"$tmp/cut.pcap"
"$REASM" --read "$tmp/cut.pcap" --write "$keep" --stats "$tmp/keep/s.json" \
	--quiet 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q '^reasm: .*truncated' "$tmp/err"; then
	pass "capture cut short: exit 2"
else
	fail "capture cut short: exit $rc, stderr '$(cat "$tmp/err")'"
fi
if cmp -s "$keep" "$tmp/keep.orig" && [ ! -e "$tmp/keep/s.json" ]; then
	pass "failed runs left the existing output as it was"
else
	fail "a failed run changed or created an output"
fi
leftover=$(ls -A "$tmp/keep" | grep -v '^out\.pcap$')
if [ -z "$leftover" ]; then
	pass "failed runs left no temporary files"
else
	fail "temporary files left behind: $leftover"
fi
if run_ok "a good run replaces the output" --read "$demo" --write "$keep" \
	--quiet && ! cmp -s "$keep" "$tmp/keep.orig" &&
	[ "$(ls -A "$tmp/keep")" = "out.pcap" ]; then
	pass "replaced, nothing left beside it"
else
	fail "a good run did not replace the output cleanly"
fi
case $(ls -l "$keep") in
-rw-r-----*) pass "the replaced output keeps its mode" ;;
*) fail "mode changed: $(ls -l "$keep")" ;;
esac

# A symbolic link: the file it points to is replaced, the link stays.
mkdir -p "$tmp/link"
printf 'old\n' >"$tmp/link/real.pcap"
ln -s real.pcap "$tmp/link/via.pcap"
if run_ok "--write through a symbolic link" --read "$demo" \
	--write "$tmp/link/via.pcap" --quiet && [ -L "$tmp/link/via.pcap" ] &&
	cmp -s "$tmp/link/real.pcap" "$keep" &&
	[ "$(ls -A "$tmp/link" | wc -l)" -eq 2 ]; then
	pass "the link kept, the file it names replaced"
else
	fail "--write through a symbolic link: $(ls -lA "$tmp/link")"
fi

# --write - into a pipe whose reader goes away: a clear message and exit
# status 2, not a silent death by SIGPIPE. The output (2 MB) is far more
# than a pipe and one read of head can hold.
"$REASM_GEN" --write "$tmp/big.pcap" --count 2000 --seed 3 2>/dev/null ||
	fail "reasm-gen --count 2000"
for threads in 1 2; do
	( "$REASM" --read "$tmp/big.pcap" --write - --threads $threads --quiet \
		2>"$tmp/err"; echo $? >"$tmp/rc" ) | head -c 100 >/dev/null
	rc=$(cat "$tmp/rc")
	if [ "$rc" -eq 2 ] &&
		grep -q '^reasm: stdout: the reader closed the pipe' "$tmp/err"; then
		pass "closed pipe, $threads thread(s): exit 2 with a message"
	else
		fail "closed pipe, $threads thread(s): exit $rc, '$(cat "$tmp/err")'"
	fi
done

# Live options: every mistake is caught before any interface is opened,
# and an interface that does not exist is reported as such (no privilege
# needed for either).
noif=reasm-no-such-if
expect_error "--read with --in" --read "$demo" --in "$noif" --write "$out"
expect_error "--write with --out" --in "$noif" --write "$out" --out "$noif"
expect_error "missing output with --in" --in "$noif"
expect_error "missing input with --out" --out "$noif"
expect_error "--fanout without --in" --read "$demo" --write "$out" --fanout lb
expect_error "bad --fanout" --in "$noif" --out "$noif" --fanout rr
expect_error "--qdisc-bypass without --out" --read "$demo" --write "$out" \
	--qdisc-bypass
expect_error "--tx-frames without --out" --in "$noif" --write "$out" \
	--tx-frames 64
expect_error "zero --tx-frames" --in "$noif" --out "$noif" --tx-frames 0
expect_error "bad --dst-mac" --in "$noif" --out "$noif" --dst-mac 1:2:3
expect_error "--src-mac without --out" --in "$noif" --write "$out" \
	--src-mac 02:00:00:00:00:01
expect_error "--duration without an interface" --read "$demo" \
	--write "$out" --duration 1
expect_error "zero --stats-interval" --in "$noif" --out "$noif" \
	--stats-interval 0
expect_error "no such --in interface" --in "$noif" --write "$out"
if grep -q "^reasm: $noif: no such interface\$" "$tmp/err"; then
	pass "no such interface: message names it"
else
	fail "no such interface: message is '$(cat "$tmp/err")'"
fi
expect_error "no such --out interface" --read "$demo" --out "$noif"

# A pcap file header (little-endian, microseconds, version 2.4, snaplen
# 65535) with link type 0, DLT_NULL (BSD loopback), and no records.
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000' \
	>"$tmp/null.pcap"
printf '\377\377\000\000\000\000\000\000' >>"$tmp/null.pcap"
expect_error "unsupported link type" --read "$tmp/null.pcap" --write "$out"
if grep -q '^reasm: unsupported link type NULL (0)$' "$tmp/err"; then
	pass "unsupported link type: message names it"
else
	fail "unsupported link type: message is '$(cat "$tmp/err")'"
fi

# --- the demo capture --------------------------------------------------------------
if "$REASM_GEN" --write "$tmp/gen-demo.pcap" 2>/dev/null &&
	cmp -s "$tmp/gen-demo.pcap" "$demo"; then
	pass "demo.pcap is reasm-gen's default output"
else
	fail "demo.pcap differs from 'reasm-gen --write OUT' (regenerate it)"
fi

if run_ok "demo, one thread" --read "$demo" --write "$tmp/t1.pcap" \
	--stats "$tmp/t1.json"; then
	for key in packets passed ReasmReqds ReasmOKs ReasmFails ReasmTimeout \
		ReasmOverlaps duplicates evicted refused too_big \
		too_many_frags bad_end past_end bad_ecn truncated malformed \
		bad_checksum incomplete_chain vlan_too_deep atomic nested_frag no_memory \
		frags_truncated frags_too_big frags_no_memory \
		frags_reassembled frags_dropped frags_discarded frags_pending \
		datagrams_pending emitted emitted_bytes bytes_held bytes_peak; do
		grep -q "\"$key\": [0-9]" "$tmp/t1.json" ||
			fail "--stats: no \"$key\""
	done
	oks=$(sed -n 's/.*"ReasmOKs": \([0-9]*\).*/\1/p' "$tmp/t1.json")
	emitted=$(sed -n 's/.*"emitted": \([0-9]*\).*/\1/p' "$tmp/t1.json")
	timeouts=$(sed -n 's/.*"ReasmTimeout": \([0-9]*\).*/\1/p' \
		"$tmp/t1.json")
	frames=$("$REASM_PCAPDUMP" "$tmp/t1.pcap" | wc -l)
	if [ "${oks:-0}" -gt 0 ] && [ "${timeouts:-0}" -gt 0 ]; then
		pass "--stats: $oks reassembled, $timeouts timed out"
	else
		fail "--stats: ReasmOKs '$oks', ReasmTimeout '$timeouts'"
	fi
	if [ "$frames" -eq "${emitted:-x}" ]; then
		pass "output holds the $frames frames emitted"
	else
		fail "output holds $frames frames, stats say '$emitted' emitted"
	fi
fi

if run_ok "demo, one thread again" --read "$demo" --write "$tmp/t1b.pcap" \
	--quiet; then
	if cmp -s "$tmp/t1.pcap" "$tmp/t1b.pcap"; then
		pass "one thread: the same output twice"
	else
		fail "one thread: two runs differ"
	fi
fi

if run_ok "demo, four threads" --read "$demo" --write "$tmp/t4.pcap" \
	--threads 4 --stripes 1 --quiet; then
	if [ -s "$tmp/t1.pcap" ] && cmp -s "$tmp/t1.pcap" "$tmp/t4.pcap"; then
		pass "four threads: the same file as one"
	else
		fail "four threads: the file differs from one thread's"
	fi
fi

# --- every link type reasm-gen writes -------------------------------------------------
for link in raw sll sll2; do
	if ! "$REASM_GEN" --write "$tmp/$link.pcap" --link "$link" \
		--count 40 --seed 7 2>/dev/null; then
		fail "reasm-gen --link $link"
		continue
	fi
	expect_error "$link capture to --out" --read "$tmp/$link.pcap" \
		--out "$noif"
	run_ok "$link, one thread" --read "$tmp/$link.pcap" \
		--write "$tmp/$link-1.pcap" --quiet || continue
	run_ok "$link, two threads" --read "$tmp/$link.pcap" \
		--write "$tmp/$link-2.pcap" --threads 2 --quiet || continue
	if [ -s "$tmp/$link-1.pcap" ] &&
		cmp -s "$tmp/$link-1.pcap" "$tmp/$link-2.pcap"; then
		pass "$link: the same file with one and two threads"
	else
		fail "$link: frames differ between one and two threads"
	fi
done

# --- PPP links: the datagrams of raw IP, behind PPP or PPPoE headers ---------------
# reasm-gen writes the same IP packets on every link but Ethernet (which
# adds VLAN tags, ARP and padding); reasm's output inside DLT_PPP_SERIAL
# (4-byte header) and PPPoE (22 bytes) must be raw IP's, frame by frame,
# and each PPPoE length field must cover its frame.
if "$REASM_GEN" --write "$tmp/praw.pcap" --link raw --count 40 --seed 9 \
	2>/dev/null &&
	run_ok "raw for PPP" --read "$tmp/praw.pcap" \
		--write "$tmp/praw-out.pcap" --quiet; then
	"$REASM_PCAPDUMP" --no-ts "$tmp/praw-out.pcap" |
		awk '{ print $2 - 0, $3 }' >"$tmp/praw.txt"
	for link in ppp:4 pppoe:22; do
		name=${link%:*}
		hl=${link#*:}
		if ! "$REASM_GEN" --write "$tmp/$name.pcap" --link "$name" \
			--count 40 --seed 9 2>/dev/null; then
			fail "reasm-gen --link $name"
			continue
		fi
		run_ok "$name" --read "$tmp/$name.pcap" \
			--write "$tmp/$name-out.pcap" \
			--stats "$tmp/$name.json" --quiet || continue
		"$REASM_PCAPDUMP" --no-ts "$tmp/$name-out.pcap" |
			awk -v hl="$hl" '{
				if (hl == 22 &&
				    substr($3, 37, 4) != sprintf("%04x", $1 - 20))
					print "bad PPPoE length"
				print $2 - hl, substr($3, 2 * hl + 1)
			}' >"$tmp/$name.txt"
		oks=$(sed -n 's/.*"ReasmOKs": \([0-9]*\).*/\1/p' \
			"$tmp/$name.json")
		if [ "${oks:-0}" -gt 0 ] &&
			cmp -s "$tmp/praw.txt" "$tmp/$name.txt"; then
			pass "$name: $oks datagrams, the frames of raw IP"
		else
			fail "$name: output differs from raw IP's ($oks reassembled)"
		fi
	done
fi

finish cli_test
