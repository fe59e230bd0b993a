#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cli_test.sh - end-to-end checks of the reasm command line.
#
# Environment (set by examples/reasm/CMakeLists.txt):
#   REASM           the reasm program
#   REASM_GEN       reasm-gen
#   REASM_PCAPDUMP  reasm-pcapdump
#   REASM_DEMO      the checked-in capture, examples/reasm/data/demo.pcap
#   REASM_SLOW_MKSTEMP  tests/slow_mkstemp.c built (optional)
#   REASM_TMPDIR    a scratch directory (emptied first)
#
# Checks: --help; every kind of bad invocation exits 2 with exactly one
# line on stderr, starting "reasm: ", and nothing on stdout; the demo
# capture is what reasm-gen makes by default; it reassembles with exit 0,
# --stats writes every counter and agrees with the output file; one thread
# and four give the same file; one thread gives the same file twice;
# every link type reasm-gen writes goes through, with one thread and two
# giving the same file; a failed run (a bad option, a bad or unreadable
# input, a capture cut short, an output that cannot be written, a signal)
# leaves existing outputs alone and no temporary file; a
# closed pipe on --write - is reported; the live options are checked
# (without opening any interface). Also: the output's pcap header; the
# summary the README shows; the documented defaults of --policy,
# --timeout, --max-frags and --mem-low, and --mem-policy refuse; '-',
# FIFOs and pcapng input; reasm-gen's and reasm-pcapdump's errors.
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

# said NAME PATTERN: the last run's stderr matches the shell PATTERN.
said() {
	# shellcheck disable=SC2254 # PATTERN is a pattern
	case $(cat "$tmp/err") in
	$2) pass "$1: the message says so" ;;
	*) fail "$1: message '$(cat "$tmp/err")', want '$2'" ;;
	esac
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

# header FILE: a pcap file header's magic number (in this machine's byte
# order, as reasm writes it), snapshot length and link type.
header() {
	echo "$(od -An -tx4 -N4 "$1" | tr -d ' ')$(od -An -tu4 -j16 -N8 "$1" |
		tr -s ' ')"
}

# check_header NAME OUT IN: OUT is a pcap file with nanosecond timestamps,
# a snapshot length of 262144 and IN's link type.
check_header() {
	want="a1b23c4d 262144 $(od -An -tu4 -j20 -N4 "$3" | tr -d ' ')"
	if [ "$(header "$2")" = "$want" ]; then
		pass "$1: pcap header '$want'"
	else
		fail "$1: pcap header '$(header "$2")', want '$want'"
	fi
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
# grain's version is the project's, in the top CMakeLists.txt.
top=$(dirname "$0")/../../..
version=$(sed -n '/^project(grain/,/)/s/^ *VERSION \([0-9.]*\).*/\1/p' \
	"$top/CMakeLists.txt")
if [ -n "$version" ] && [ "$(cat "$tmp/out")" = "reasm $version" ]; then
	pass "--version is grain's ($version)"
else
	fail "--version: '$(cat "$tmp/out")', grain is '$version'"
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
said "--stats and --write the same" \
	"reasm: $out: --stats and --write name the same file"
# The same file under another spelling, before it exists, and stdout (a
# regular file here) named by its path.
expect_error "--stats names --write differently" --read "$demo" \
	--write "$tmp/new.pcap" --stats "$tmp/./new.pcap"
said "--stats names --write differently" \
	"reasm: $tmp/./new.pcap: --stats and --write name the same file"
[ -e "$tmp/new.pcap" ] && fail "--stats names --write differently: file left"
expect_error "--stats names stdout" --read "$demo" --write - \
	--stats /dev/stdout
said "--stats names stdout" \
	"reasm: /dev/stdout: --stats and --write name the same file"
expect_error "nonexistent input" --read "$tmp/no-such.pcap" --write "$out"
said "nonexistent input" \
	"reasm: $tmp/no-such.pcap: No such file or directory"
printf 'this is not a capture file\n' >"$tmp/text.pcap"
expect_error "input not a capture" --read "$tmp/text.pcap" --write "$out"
said "input not a capture" "reasm: $tmp/text.pcap: *"
expect_error "empty stdin" --read - --write "$out" </dev/null
said "empty stdin" "reasm: -: *"
expect_error "unwritable output" --read "$demo" --write "$tmp/no/such/dir.pcap"
said "unwritable output" \
	"reasm: $tmp/no/such/dir.pcap: No such file or directory"
mkdir -p "$tmp/adir"
expect_error "output a directory" --read "$demo" --write "$tmp/adir"
said "output a directory" "reasm: $tmp/adir: Is a directory"
expect_error "unwritable --stats" --read "$demo" --write "$out" \
	--stats "$tmp/no/such/dir.json"
said "unwritable --stats" \
	"reasm: $tmp/no/such/dir.json: No such file or directory"

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

# A failed run through the link leaves the link and the file it names.
cp "$tmp/link/real.pcap" "$tmp/link.orig"
expect_error "failed run through a symbolic link" --read "$tmp/text.pcap" \
	--write "$tmp/link/via.pcap"
if [ -L "$tmp/link/via.pcap" ] &&
	cmp -s "$tmp/link/real.pcap" "$tmp/link.orig" &&
	[ "$(ls -A "$tmp/link" | wc -l)" -eq 2 ]; then
	pass "failed run through a symbolic link: link and file kept"
else
	fail "failed run through a symbolic link: $(ls -lA "$tmp/link")"
fi
# A link to a file that does not exist yet: the link stays, the file is
# created.
ln -s new.pcap "$tmp/link/dangling.pcap"
if run_ok "--write through a dangling link" --read "$demo" \
	--write "$tmp/link/dangling.pcap" --quiet &&
	[ -L "$tmp/link/dangling.pcap" ] &&
	cmp -s "$tmp/link/new.pcap" "$keep"; then
	pass "dangling link kept, the file it names created"
else
	fail "--write through a dangling link: $(ls -lA "$tmp/link")"
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

# --- bad input leaves existing outputs alone ------------------------------------
# $kept holds an existing capture and stats file; every run below fails
# and must leave both as they were, with nothing beside them.
kept=$tmp/kept
mkdir -p "$kept"
printf 'old capture\n' >"$kept/out.pcap"
printf '{"old": 1}\n' >"$kept/out.json"
cp "$kept/out.pcap" "$tmp/kept.pcap.orig"
cp "$kept/out.json" "$tmp/kept.json.orig"

# expect_kept NAME ARGS... : expect_error NAME ARGS..., then $kept is as
# it was.
expect_kept() {
	expect_error "$@"
	if cmp -s "$kept/out.pcap" "$tmp/kept.pcap.orig" &&
		cmp -s "$kept/out.json" "$tmp/kept.json.orig" &&
		[ "$(ls -A "$kept" | tr '\n' ' ')" = "out.json out.pcap " ]; then
		pass "$1: existing outputs kept"
	else
		fail "$1: existing outputs changed: $(ls -lA "$kept")"
	fi
}

w="--write $kept/out.pcap --stats $kept/out.json"
size=$(wc -c <"$demo")
head -c $((size / 2 + 7)) "$demo" >"$tmp/half.pcap"
# $w unquoted: the outputs' options, split into words (no spaces in $tmp).
# shellcheck disable=SC2086
{
	expect_kept "kept: bad --threads" --read "$demo" $w --threads 0
	expect_kept "kept: --mem-low above --mem-high" --read "$demo" $w \
		--mem-low 5M
	expect_kept "kept: input not a capture" --read "$tmp/text.pcap" $w
	expect_kept "kept: input a directory" --read "$tmp/adir" $w
	said "kept: input a directory" "reasm: $tmp/adir: *"
	: >"$tmp/empty.pcap"
	expect_kept "kept: empty input" --read "$tmp/empty.pcap" $w
	said "kept: empty input" "reasm: $tmp/empty.pcap: *"
	expect_kept "kept: unsupported link type" --read "$tmp/null.pcap" $w
	expect_kept "kept: unwritable --write" --read "$demo" \
		--write "$tmp/no/such/dir.pcap" --stats "$kept/out.json"
	for threads in 1 2; do
		expect_kept "kept: capture cut short, $threads thread(s)" \
			--read "$tmp/half.pcap" $w --threads $threads --quiet
	done
	expect_kept "kept: capture cut short, from stdin, 2 threads" \
		--read - $w --threads 2 --quiet <"$tmp/half.pcap"
	expect_kept "kept: --stats names the existing --write" \
		--read "$demo" --write "$kept/out.pcap" \
		--stats "$kept/./out.pcap"
}
said "kept: --stats names the existing --write" \
	"reasm: $kept/./out.pcap: --stats and --write name the same file"
# An empty output name is refused with the arguments, before the input is
# even opened (here it does not exist).
expect_kept "kept: --stats ''" --read "$demo" --write "$kept/out.pcap" \
	--stats ""
said "kept: --stats ''" "reasm: --stats must not be empty"
expect_kept "kept: --write ''" --read "$tmp/no-such.pcap" --write "" \
	--stats "$kept/out.json"
said "kept: --write ''" "reasm: --write must not be empty"
for opt in read; do
	expect_error "--$opt ''" --$opt "" --write "$kept/out.pcap"
	said "--$opt ''" "reasm: --$opt must not be empty"
done

# A run whose last step fails, renaming one of its outputs over the old
# file (its temporary file is taken away during the run here; a file
# made immutable does the same), replaces neither: the stats file is
# renamed first, and put back if the capture's rename fails. The input
# is a FIFO held open on descriptor 3 until the temporary files are
# there. With "fresh": no stats file before the run (none may be left).
rename_fails() {
	which=$1 fresh=${2:-} what="the $1 rename fails"
	[ -z "$fresh" ] || what="$what, no stats file before"
	d=$tmp/rename-$which$fresh
	mkdir -p "$d"
	cp "$tmp/kept.pcap.orig" "$d/out.pcap"
	[ -n "$fresh" ] || cp "$tmp/kept.json.orig" "$d/out.json"
	mkfifo "$d/fifo"
	"$REASM" --read - --write "$d/out.pcap" --stats "$d/out.json" \
		--quiet <"$d/fifo" 2>"$tmp/err" &
	pid=$!
	exec 3>"$d/fifo"
	cat "$demo" >&3
	n=0
	while set -- "$d"/.out.* && [ $# -lt 2 ] && [ $n -lt 600 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	rm -f "$d"/.out."$which".*
	exec 3>&-
	wait "$pid"
	rc=$?
	rm -f "$d/fifo"
	want="out.json out.pcap "
	[ -z "$fresh" ] || want="out.pcap "
	if [ "$rc" -eq 2 ] && cmp -s "$d/out.pcap" "$tmp/kept.pcap.orig" &&
		{ [ -n "$fresh" ] ||
			cmp -s "$d/out.json" "$tmp/kept.json.orig"; } &&
		[ "$(ls -A "$d" | tr '\n' ' ')" = "$want" ]; then
		pass "$what: outputs kept, exit 2"
	else
		fail "$what: exit $rc, $(cat "$tmp/err"), $(ls -lA "$d")"
	fi
	said "$what" "reasm: $d/out.$which: No such file or directory"
}
rename_fails json
rename_fails pcap
rename_fails pcap fresh

# A --write that names the --read file, under any spelling, is refused
# and the input left whole.
cp "$demo" "$tmp/in.pcap"
expect_error "--write names --read" --read "$tmp/in.pcap" \
	--write "$tmp/./in.pcap"
said "--write names --read" \
	"reasm: $tmp/./in.pcap: --write would overwrite --read"
if cmp -s "$tmp/in.pcap" "$demo"; then
	pass "--write names --read: the input is whole"
else
	fail "--write names --read: the input changed"
fi

# Permissions (not enforced for root): an input that cannot be read, and
# an existing output in a folder where no file can be created.
mkdir -p "$tmp/ro"
printf 'old capture\n' >"$tmp/ro/out.pcap"
cp "$demo" "$tmp/noread.pcap"
chmod 000 "$tmp/noread.pcap"
chmod 555 "$tmp/ro"
if cat "$tmp/noread.pcap" >/dev/null 2>&1; then
	pass "skipped: permissions are not enforced for this user"
else
	expect_kept "kept: unreadable input" --read "$tmp/noread.pcap" \
		--write "$kept/out.pcap" --stats "$kept/out.json"
	said "kept: unreadable input" \
		"reasm: $tmp/noread.pcap: Permission denied"
	expect_error "read-only folder" --read "$demo" \
		--write "$tmp/ro/out.pcap"
	said "read-only folder" "reasm: $tmp/ro/out.pcap: Permission denied"
	if [ "$(cat "$tmp/ro/out.pcap")" = "old capture" ] &&
		[ "$(ls -A "$tmp/ro")" = "out.pcap" ]; then
		pass "read-only folder: the existing output kept"
	else
		fail "read-only folder: $(ls -lA "$tmp/ro")"
	fi
fi
chmod 755 "$tmp/ro"
chmod 644 "$tmp/noread.pcap"

# A signal during a file run (SIGINT, SIGTERM, SIGHUP) ends it by that
# signal, removes the temporary outputs and leaves the existing ones. The
# input is a FIFO that stays open after the demo, so the run is still
# going, its temporary files made, when the signal comes. With "slow",
# reasm runs with tests/slow_mkstemp.c preloaded: it pauses once each
# temporary file exists, so the signal comes between the file's making
# and its registration for removal (where a busy machine can also stop
# reasm), every time.
killed() {
	sig=$1 threads=$2 slow=${3:-}
	d=$tmp/sig-$sig-$threads$slow
	mkdir -p "$d"
	cp "$tmp/kept.pcap.orig" "$d/out.pcap"
	cp "$tmp/kept.json.orig" "$d/out.json"
	mkfifo "$d/fifo"
	if [ -n "$slow" ]; then
		# LD_PRELOAD puts the module before ASan's runtime, which
		# ASan refuses unless told not to check.
		LD_PRELOAD=$REASM_SLOW_MKSTEMP \
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
			"$REASM" --read - --write "$d/out.pcap" \
			--stats "$d/out.json" --threads "$threads" --quiet \
			<"$d/fifo" 2>"$tmp/err" &
	else
		"$REASM" --read - --write "$d/out.pcap" --stats "$d/out.json" \
			--threads "$threads" --quiet <"$d/fifo" 2>"$tmp/err" &
	fi
	pid=$!
	(cat "$demo" && exec sleep 60) >"$d/fifo" &
	feeder=$!
	n=0
	while set -- "$d"/.out.* && [ $# -lt 2 ] && [ $n -lt 600 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	kill -"$sig" "$pid"
	wait "$pid" 2>/dev/null
	rc=$?
	kill "$feeder" 2>/dev/null
	wait "$feeder" 2>/dev/null
	rm -f "$d/fifo"
	if [ "$rc" -gt 128 ] && [ "$(kill -l "$rc")" = "$sig" ] &&
		cmp -s "$d/out.pcap" "$tmp/kept.pcap.orig" &&
		cmp -s "$d/out.json" "$tmp/kept.json.orig" &&
		[ "$(ls -A "$d" | tr '\n' ' ')" = "out.json out.pcap " ]; then
		pass "SIG$sig, $threads thread(s)$slow: outputs kept, no temporary file"
	else
		fail "SIG$sig, $threads thread(s)$slow: exit $rc, $(ls -lA "$d")"
	fi
}
killed INT 1
killed HUP 1
killed TERM 2
if [ -n "${REASM_SLOW_MKSTEMP:-}" ]; then
	killed HUP 1 slow
	killed TERM 2 slow
fi

# SIGINT or SIGTERM during --write - ends the run by that signal, but
# only once the record being written is whole: the reader of the pipe
# never gets one cut short. The reader here reads nothing until told, so
# reasm fills the pipe (the demo's output is larger) and blocks in the
# middle of a record; then the signal comes, and then the reader reads.
# Where /proc shows no wait channel, a second's wait stands in.
cut_by() {
	sig=$1 threads=$2
	d=$tmp/cut-$sig-$threads
	mkdir -p "$d"
	mkfifo "$d/pipe"
	{
		while [ ! -e "$d/go" ]; do sleep 0.05; done
		cat >"$d/out.pcap"
	} <"$d/pipe" &
	reader=$!
	"$REASM" --read "$demo" --write - --threads "$threads" --quiet \
		>"$d/pipe" 2>"$tmp/err" &
	pid=$!
	n=0
	while [ $n -lt 600 ]; do
		case $(cat /proc/"$pid"/task/*/wchan 2>/dev/null) in
		*pipe_write*) break ;;
		*[a-z]*) ;;
		*) [ $n -ge 20 ] && break ;;
		esac
		sleep 0.05
		n=$((n + 1))
	done
	kill -"$sig" "$pid"
	: >"$d/go"
	wait "$pid" 2>/dev/null
	rc=$?
	wait "$reader"
	records=$("$REASM_PCAPDUMP" "$d/out.pcap" 2>"$d/dump.err" | wc -l)
	if [ "$rc" -gt 128 ] && [ "$(kill -l "$rc")" = "$sig" ] &&
		[ ! -s "$d/dump.err" ] && [ "$records" -gt 0 ]; then
		pass "SIG$sig during --write -, $threads thread(s): $records whole records"
	else
		fail "SIG$sig during --write -, $threads thread(s): exit $rc," \
			"$records records, $(cat "$d/dump.err")"
	fi
}
cut_by INT 1
cut_by TERM 1
cut_by INT 2

# --- the demo capture --------------------------------------------------------------
if "$REASM_GEN" --write "$tmp/gen-demo.pcap" 2>/dev/null &&
	cmp -s "$tmp/gen-demo.pcap" "$demo"; then
	pass "demo.pcap is reasm-gen's default output"
else
	fail "demo.pcap differs from 'reasm-gen --write OUT' (regenerate it)"
fi

if run_ok "demo, one thread" --read "$demo" --write "$tmp/t1.pcap" \
	--stats "$tmp/t1.json"; then
	cp "$tmp/err" "$tmp/t1.summary"
	check_header "demo output" "$tmp/t1.pcap" "$demo"
	for key in packets passed ReasmReqds ReasmOKs ReasmFails ReasmTimeout \
		ReasmOverlaps duplicates evicted refused too_big \
		too_many_frags bad_end past_end bad_ecn truncated malformed \
		bad_checksum incomplete_chain vlan_too_deep atomic nested_frag \
		bad_ext no_memory \
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

# The summary is the one the README shows for the demo, but for the
# memory line: its peak is sampled (a lower bound) and varies.
readme=$(dirname "$0")/../README.md
awk '/The summary goes to stderr:/ { f = 1; next }
	f == 1 && /^```$/ { f = 2; next }
	f == 2 && /^```$/ { exit }
	f == 2' "$readme" >"$tmp/readme.summary"
if [ -s "$tmp/readme.summary" ] &&
	grep -v '^memory:' "$tmp/readme.summary" >"$tmp/readme.cmp" &&
	grep -v '^memory:' "$tmp/t1.summary" | cmp -s - "$tmp/readme.cmp" &&
	grep -Eq '^memory: +peak [0-9]+ bytes, 0 held$' "$tmp/t1.summary"; then
	pass "the demo's summary is the README's"
else
	fail "the demo's summary differs from the README's:"
	diff "$tmp/readme.summary" "$tmp/t1.summary"
fi

# --- defaults, and what the engine's options change, on the demo --------------
# demo_run NAME ARGS... : the demo through reasm ARGS into $tmp/NAME.pcap
# and $tmp/NAME.json; its counters but the sampled bytes_peak in
# $tmp/NAME.counts.
demo_run() {
	dname=$1
	shift
	if "$REASM" --read "$demo" --write "$tmp/$dname.pcap" \
		--stats "$tmp/$dname.json" --quiet "$@" 2>"$tmp/err"; then
		grep -v '"bytes_peak"' "$tmp/$dname.json" >"$tmp/$dname.counts"
	else
		fail "$dname: exit status $?: $(cat "$tmp/err")"
		echo "{}" >"$tmp/$dname.json"
		: >"$tmp/$dname.counts"
	fi
}

# counter NAME KEY: a counter of demo_run NAME (-1 if missing).
counter() {
	v=$(sed -n "s/.*\"$2\": \([0-9]*\).*/\1/p" "$tmp/$1.json")
	echo "${v:--1}"
}

grep -v '"bytes_peak"' "$tmp/t1.json" >"$tmp/t1.counts"
# --policy is strict by default; the demo's overlapping set tells the
# policies apart.
demo_run strict --policy strict
demo_run last --policy last
if cmp -s "$tmp/t1.pcap" "$tmp/strict.pcap" &&
	cmp -s "$tmp/t1.counts" "$tmp/strict.counts" &&
	[ -s "$tmp/last.pcap" ] && ! cmp -s "$tmp/t1.pcap" "$tmp/last.pcap"; then
	pass "--policy strict is the default"
else
	fail "--policy: the default run is not strict's"
fi

# --timeout: IPv4's default is 30 s. Two IPv4 datagrams are left
# incomplete before the demo's 31.5 s pause: 30 s times them out, 40 s
# leaves them pending.
demo_run t30 --timeout 30
demo_run t40 --timeout 40
if cmp -s "$tmp/t1.counts" "$tmp/t30.counts" &&
	[ "$(counter t1 ReasmTimeout)" -eq 2 ] &&
	[ "$(counter t40 ReasmTimeout)" -eq 0 ] &&
	[ "$(counter t40 datagrams_pending)" -eq 2 ]; then
	pass "--timeout: 30 s for IPv4 by default"
else
	fail "--timeout: $(counter t1 ReasmTimeout) timed out by default," \
		"$(counter t40 ReasmTimeout) at 40 s"
fi

# --max-frags: the demo's datagram of 45 fragments passes the default,
# and is dropped at 44.
demo_run mf44 --max-frags 44
if [ "$(counter t1 too_many_frags)" -eq 0 ] &&
	[ "$(counter mf44 too_many_frags)" -eq 1 ] &&
	[ "$(counter mf44 ReasmOKs)" -eq $(($(counter t1 ReasmOKs) - 1)) ]; then
	pass "--max-frags: 45 fragments pass the default, not 44"
else
	fail "--max-frags 44: too_many_frags $(counter mf44 too_many_frags)"
fi

# --mem-high, --mem-low, --mem-policy. With one stripe the tables evict
# in one LRU order, the same on every run: --mem-high 2K alone evicts as
# with --mem-low 1536 (3/4), not as with 256; refuse refuses instead.
demo_run m2k --stripes 1 --mem-high 2K
demo_run m2k-1536 --stripes 1 --mem-high 2K --mem-low 1536
demo_run m2k-256 --stripes 1 --mem-high 2K --mem-low 256
demo_run m2k-refuse --stripes 1 --mem-high 2K --mem-policy refuse
if [ "$(counter m2k evicted)" -gt 0 ] && [ "$(counter m2k refused)" -eq 0 ] &&
	cmp -s "$tmp/m2k.counts" "$tmp/m2k-1536.counts" &&
	[ "$(counter m2k-256 evicted)" -ne "$(counter m2k evicted)" ]; then
	pass "--mem-low: 3/4 of --mem-high by default ($(counter m2k evicted) evicted)"
else
	fail "--mem-low: evicted $(counter m2k evicted) by default," \
		"$(counter m2k-1536 evicted) at 1536," \
		"$(counter m2k-256 evicted) at 256"
fi
if [ "$(counter m2k-refuse refused)" -gt 0 ] &&
	[ "$(counter m2k-refuse evicted)" -eq 0 ]; then
	pass "--mem-policy refuse: $(counter m2k-refuse refused) refused, none evicted"
else
	fail "--mem-policy refuse: refused $(counter m2k-refuse refused)," \
		"evicted $(counter m2k-refuse evicted)"
fi

# --- outputs written in place ----------------------------------------------------
# '-' is stdout and reads stdin; a FIFO is written in place and stays one.
if "$REASM" --read "$demo" --write - --quiet >"$tmp/stdout.pcap" \
	2>"$tmp/err" && cmp -s "$tmp/stdout.pcap" "$tmp/t1.pcap"; then
	pass "--write -: the file on stdout"
else
	fail "--write -: $(cat "$tmp/err")"
fi
if "$REASM" --read - --write "$tmp/stdin.pcap" --quiet <"$demo" \
	2>"$tmp/err" && cmp -s "$tmp/stdin.pcap" "$tmp/t1.pcap"; then
	pass "--read -: the capture from stdin"
else
	fail "--read -: $(cat "$tmp/err")"
fi
mkfifo "$tmp/out.fifo"
cat "$tmp/out.fifo" >"$tmp/fifo.pcap" &
reader=$!
run_ok "--write FIFO" --read "$demo" --write "$tmp/out.fifo" --quiet
wait "$reader"
if [ -p "$tmp/out.fifo" ] && cmp -s "$tmp/fifo.pcap" "$tmp/t1.pcap"; then
	pass "--write FIFO: written in place, still a FIFO"
else
	fail "--write FIFO: $(ls -l "$tmp/out.fifo")"
fi

# --- pcapng input ----------------------------------------------------------------
# to_pcapng IN OUT: the records of the pcap file IN as a pcapng file OUT:
# a Section Header Block, an Interface Description Block (IN's link
# type, if_tsresol 9: nanoseconds) and an Enhanced Packet Block per
# record, every byte an octal escape for printf. A timestamp's 64-bit
# nanosecond count is split exactly in doubles: seconds = a * 65536 + b.
to_pcapng() {
	# shellcheck disable=SC2059 # the format is the file
	printf "$("$REASM_PCAPDUMP" "$1" |
		awk -v lt="$(od -An -tu4 -j20 -N4 "$1" | tr -d ' ')" '
		function le(x, n,   s, i) {
			s = ""
			for (i = 0; i < n; i++) {
				s = s oct[x % 256]
				x = int(x / 256)
			}
			return s
		}
		BEGIN {
			for (i = 0; i < 256; i++)
				oct[i] = sprintf("\\%03o", i)
			hex = "0123456789abcdef"
			printf "%s", le(168627466, 4) le(28, 4) \
				le(439041101, 4) le(1, 2) le(0, 2) \
				le(4294967295, 4) le(4294967295, 4) le(28, 4)
			printf "%s", le(1, 4) le(32, 4) le(lt, 2) le(0, 2) \
				le(262144, 4) le(9, 2) le(1, 2) le(9, 4) \
				le(0, 4) le(32, 4)
		}
		{
			split($1, t, ".")
			a = int(t[1] / 65536)
			b = t[1] % 65536
			lo = (a * 1e9) % 65536 * 65536 + b * 1e9 + t[2]
			hi = int(a * 1e9 / 65536) + int(lo / 4294967296)
			lo %= 4294967296
			pad = (4 - $2 % 4) % 4
			data = ""
			for (i = 1; i < 2 * $2; i += 2)
				data = data oct[(index(hex, substr($4, i, 1)) - 1) * \
					16 + index(hex, substr($4, i + 1, 1)) - 1]
			printf "%s", le(6, 4) le(32 + $2 + pad, 4) le(0, 4) \
				le(hi, 4) le(lo, 4) le($2, 4) le($3, 4) data \
				le(0, pad) le(32 + $2 + pad, 4)
		}')" >"$2"
}

# The demo as pcapng (libpcap reads back the same records) gives the
# pcap file's output, with one thread and, through the rings, with two.
to_pcapng "$demo" "$tmp/demo.pcapng"
if [ "$(od -An -tx1 -N4 "$tmp/demo.pcapng" | tr -d ' ')" = 0a0d0d0a ] &&
	"$REASM_PCAPDUMP" "$demo" >"$tmp/demo.txt" &&
	"$REASM_PCAPDUMP" "$tmp/demo.pcapng" | cmp -s - "$tmp/demo.txt"; then
	for threads in 1 2; do
		if run_ok "pcapng, $threads thread(s)" --read "$tmp/demo.pcapng" \
			--write "$tmp/ng-$threads.pcap" --threads $threads --quiet &&
			cmp -s "$tmp/ng-$threads.pcap" "$tmp/t1.pcap"; then
			pass "pcapng, $threads thread(s): the pcap file's output"
		else
			fail "pcapng, $threads thread(s): the output differs"
		fi
	done
else
	fail "to_pcapng: the pcapng copy of the demo is wrong"
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
	said "$link capture to --out" \
		"reasm: $tmp/$link.pcap: --out sends Ethernet frames, and this capture's link type is * (*)"
	run_ok "$link, one thread" --read "$tmp/$link.pcap" \
		--write "$tmp/$link-1.pcap" --quiet || continue
	check_header "$link output" "$tmp/$link-1.pcap" "$tmp/$link.pcap"
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

# --- reasm-gen -------------------------------------------------------------------
# Its defaults (--seed 1 --count 100 --link ether) make the demo; --help
# prints the usage on stdout; a bad argument exits 2 with one
# "reasm-gen: " line and leaves an existing --write file alone.
if "$REASM_GEN" --write "$tmp/gen-1.pcap" --seed 1 --count 100 \
	--link ether 2>/dev/null && cmp -s "$tmp/gen-1.pcap" "$demo"; then
	pass "reasm-gen: the defaults spelt out make the demo"
else
	fail "reasm-gen --seed 1 --count 100 --link ether: not the demo"
fi
if "$REASM_GEN" --help >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
	grep -q '^usage: reasm-gen --write OUT.pcap' "$tmp/out"; then
	pass "reasm-gen --help"
else
	fail "reasm-gen --help: status or text wrong"
fi

# gen_refused MESSAGE ARGS... : reasm-gen ARGS exits 2, prints nothing on
# stdout and exactly "reasm-gen: MESSAGE" on stderr, and $tmp/gen-keep.pcap
# is as it was.
printf 'old capture\n' >"$tmp/gen-keep.pcap"
gen_refused() {
	want="reasm-gen: $1"
	shift
	"$REASM_GEN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 2 ] || [ -s "$tmp/out" ] ||
		[ "$(cat "$tmp/err")" != "$want" ]; then
		fail "reasm-gen $*: exit $rc, '$(cat "$tmp/err")', want '$want'"
	elif [ "$(cat "$tmp/gen-keep.pcap")" != "old capture" ]; then
		fail "reasm-gen $*: the existing output changed"
	else
		pass "reasm-gen $*: $want"
	fi
}
gk=$tmp/gen-keep.pcap
gen_refused "--write is required (try --help)"
gen_refused "bad argument '--count' (try --help)" --write "$gk" --count
gen_refused "bad argument '--frob' (try --help)" --write "$gk" --frob 1
gen_refused "bad --seed '-1'" --write "$gk" --seed -1
gen_refused "--count must be 0..100000, not '100001'" --write "$gk" \
	--count 100001
gen_refused "--bulk must be 1..10000000, not '0'" --write "$gk" --bulk 0
gen_refused "--count and --bulk are alternatives (try --help)" \
	--write "$gk" --count 5 --bulk 5
gen_refused "--link must be ether, raw, sll, sll2, ppp or pppoe, not 'fddi'" \
	--write "$gk" --link fddi
gen_refused "$tmp/no/such/dir.pcap: No such file or directory" \
	--write "$tmp/no/such/dir.pcap"

# --- reasm-pcapdump --------------------------------------------------------------
# One line per record, "SECONDS.NANOSECONDS CAPLEN WIRELEN HEX" (no
# timestamp under --no-ts), HEX two lowercase digits a byte; exit status
# 0, or 2 with a message on stderr.
"$REASM_PCAPDUMP" "$demo" >"$tmp/dump.txt" 2>"$tmp/err"
rc=$?
"$REASM_PCAPDUMP" --no-ts "$demo" >"$tmp/dump-nots.txt" 2>>"$tmp/err"
rc=$((rc + $?))
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] &&
	[ "$(wc -l <"$tmp/dump.txt")" -eq 495 ] &&
	awk '!/^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9] [0-9]+ [0-9]+ [0-9a-f]*$/ ||
		length($4) != 2 * $2 || $3 < $2 { bad = 1 } END { exit bad }' \
		"$tmp/dump.txt" &&
	cut -d ' ' -f 2- "$tmp/dump.txt" | cmp -s - "$tmp/dump-nots.txt"; then
	pass "reasm-pcapdump: 495 lines of the documented form"
else
	fail "reasm-pcapdump: exit $rc, or lines not of the documented form"
fi

# dump_refused NAME PATTERN ARGS... : reasm-pcapdump ARGS exits 2 with a
# stderr matching the shell PATTERN.
dump_refused() {
	dname=$1 want=$2
	shift 2
	"$REASM_PCAPDUMP" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	# shellcheck disable=SC2254 # PATTERN is a pattern
	case $rc:$(cat "$tmp/err") in
	2:$want) pass "reasm-pcapdump, $dname: $(cat "$tmp/err")" ;;
	*) fail "reasm-pcapdump, $dname: exit $rc, '$(cat "$tmp/err")'" ;;
	esac
}
dump_refused "no file" "usage: reasm-pcapdump *FILE"
dump_refused "unknown option" "usage: *" -x "$demo"
dump_refused "nonexistent file" \
	"reasm-pcapdump: $tmp/no-such.pcap: No such file or directory" \
	"$tmp/no-such.pcap"
dump_refused "not a capture" "reasm-pcapdump: $tmp/text.pcap: *" \
	"$tmp/text.pcap"
dump_refused "capture cut short" "reasm-pcapdump: $tmp/half.pcap: *" \
	"$tmp/half.pcap"

finish cli_test
