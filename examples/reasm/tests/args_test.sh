#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# args_test.sh - the words the reasm command line takes and refuses, and
# the exact message of each refusal.
#
# Environment (set by examples/reasm/CMakeLists.txt):
#   REASM           the reasm program
#   REASM_DEMO      examples/reasm/data/demo.pcap
#   REASM_TMPDIR    a scratch directory (emptied first)
#
# Options are long ones by their whole names (no abbreviations), "-h" the
# only short one; a value follows '=' or is the next word, whatever it
# looks like; any other word is refused, "--" included. MAC addresses are
# six pairs of hex digits separated by ':' or '-'. Each refusal exits 2
# with the one line given here and nothing on stdout.
set -u

: "${REASM:?}" "${REASM_DEMO:?}"
. "$(dirname "$0")/lib.sh"

demo=$REASM_DEMO
out=$tmp/out.pcap
noif=reasm-noif0

# refused MESSAGE ARGS... : reasm ARGS exits 2, stdout empty, stderr
# exactly "reasm: MESSAGE".
refused() {
	want="reasm: $1"
	shift
	"$REASM" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	got=$(cat "$tmp/stderr")
	if [ "$rc" -ne 2 ]; then
		fail "$*: exit status $rc, not 2 ($got)"
	elif [ -s "$tmp/stdout" ]; then
		fail "$*: wrote to stdout"
	elif [ "$got" != "$want" ]; then
		fail "$*: '$got', want '$want'"
	else
		pass "$*: $got"
	fi
}

refused "unknown option '--thr' (try --help)" --thr 2 --read "$demo" \
	--write "$out"
refused "unknown option '--rea' (try --help)" --rea="$demo" --write "$out"
refused "unknown option '--mem' (try --help)" --mem 1M --read "$demo" \
	--write "$out"
refused "unknown option '--h' (try --help)" --h
refused "unknown option '--' (try --help)" --=x
refused "unexpected argument '-hx' (try --help)" -hx
refused "unexpected argument '-help' (try --help)" -help
refused "unexpected argument '-x' (try --help)" -x
refused "unexpected argument '-' (try --help)" -
refused "unexpected argument '--' (try --help)" --read "$demo" \
	--write "$out" --
refused "unexpected argument 'extra' (try --help)" extra --bogus
refused "unknown option '--bogus' (try --help)" --bogus extra
refused "option --help takes no value" --help=1
# --help and --version act once the whole line has been read: a word left
# over is refused with them too.
refused "unexpected argument 'extra' (try --help)" --version extra
refused "unexpected argument 'extra' (try --help)" --help extra
refused "unexpected argument 'extra' (try --help)" -h extra
refused "unknown option '--bogus' (try --help)" --version --bogus
refused "option --qdisc-bypass takes no value" --qdisc-bypass=
refused "option --read needs a value" --read
refused "--threads must be a number from 1 to 64, not '--quiet'" \
	--read "$demo" --write "$out" --threads --quiet
refused "--threads must be a number from 1 to 64, not '65'" \
	--read "$demo" --write "$out" --threads=65
refused "--max-frags must be a number from 1 to 8192, not '0'" \
	--read "$demo" --write "$out" --max-frags=0
refused "--tx-frames must be a number from 1 to 65536, not '65537'" \
	--in "$noif" --out "$noif" --tx-frames 65537
refused "--write given twice ('$out', then '$out')" --read "$demo" \
	--write "$out" --write="$out"
refused "--out given twice ('$noif', then '$noif')" --in "$noif" \
	--out "$noif" --out "$noif"
for mac in 2:0:0:0:0:1 02:00:00:00:00:01x 02:00:00:00:00:0g \
	02:00:00:00:00:0 "02:00:00:00:00:0 " 02.00.00.00.00.01 \
	02:00:00:00:00:001; do
	refused "--dst-mac must be a MAC address like 02:00:00:00:00:01, not '$mac'" \
		--in "$noif" --out "$noif" --dst-mac "$mac"
done
# Well-formed addresses get past the options: the interface is next.
for mac in 02-00-00-00-00-01 AA:bb:CC:dd:EE:ff 02:00-00:00-00:01; do
	refused "$noif: no such interface" --in "$noif" --out "$noif" \
		--src-mac "$mac"
done

# Taken: "-h" and --help print the usage on stdout, exit 0, also after
# other options.
if "$REASM" --read "$demo" --version >"$tmp/stdout" 2>"$tmp/stderr" &&
	grep -q '^reasm [0-9]' "$tmp/stdout" && ! [ -s "$tmp/stderr" ]; then
	pass "--read FILE --version: the version"
else
	fail "--read FILE --version: no version on stdout, or exit status not 0"
fi
for word in -h --help; do
	if "$REASM" "$word" >"$tmp/stdout" 2>"$tmp/stderr" &&
		grep -q '^usage: reasm ' "$tmp/stdout" && ! [ -s "$tmp/stderr" ]
	then
		pass "$word: usage"
	else
		fail "$word: no usage on stdout, or exit status not 0"
	fi
done
# A value in the next word may start with a dash; '=' may be empty.
if "$REASM" --read="$demo" --write "$out" --quiet --policy=linux \
	--timeout 0.5 2>"$tmp/stderr" && [ -s "$out" ]; then
	pass "--read=FILE, --policy=P and a next-word value"
else
	fail "a run with '=' values: $(cat "$tmp/stderr")"
fi
# An empty value after '=' is a value, refused for a file name.
refused "--read must not be empty" --read= --write "$out"
refused "--stats must not be empty" --read "$demo" --write "$out" --stats=

# --decap takes a comma-separated list of gre, ipip and all, nothing else;
# --decap-strip takes no value and needs --decap.
for v in "" gre, ,gre GRE ipip,gre,x pptp "gre ipip"; do
	refused "--decap must be a comma-separated list of gre, ipip and all, not '$v'" \
		--read "$demo" --write "$out" --decap "$v"
done
refused "option --decap needs a value" --read "$demo" --write "$out" --decap
refused "option --decap-strip takes no value" --decap-strip=1
refused "--decap-strip needs --decap" --read "$demo" --write "$out" \
	--decap-strip
for v in gre ipip all gre,ipip ipip,gre,all; do
	if "$REASM" --read "$demo" --write "$out" --quiet --decap "$v" \
		--decap-strip 2>"$tmp/stderr" && [ -s "$out" ]; then
		pass "--decap $v --decap-strip"
	else
		fail "--decap $v: $(cat "$tmp/stderr")"
	fi
done

# Every value out of its documented range, and every missing or clashing
# input and output, has a message of its own.
refused "--timeout must be a number of seconds > 0, not '0'" \
	--read "$demo" --write "$out" --timeout 0
refused "--mem-high must be a byte count > 0 (suffix K, M or G allowed), not '0'" \
	--read "$demo" --write "$out" --mem-high 0
refused "--mem-low must be a byte count > 0 (suffix K, M or G allowed), not '1T'" \
	--read "$demo" --write "$out" --mem-low 1T
refused "--mem-policy must be evict or refuse, not 'lru'" \
	--read "$demo" --write "$out" --mem-policy lru
refused "--max-frags must be a number from 1 to 8192, not '8193'" \
	--read "$demo" --write "$out" --max-frags 8193
for v in 0 12 131072; do
	refused "--stripes must be a power of two from 1 to 65536, not '$v'" \
		--read "$demo" --write "$out" --stripes "$v"
done
refused "--threads must be a number from 1 to 64, not '0'" \
	--read "$demo" --write "$out" --threads 0
refused "unknown --policy 'best' (strict, first, last, bsd, bsd-right, linux, windows, solaris)" \
	--read "$demo" --write "$out" --policy best
refused "--fanout must be lb, cpu or hash, not 'rr'" --in "$noif" \
	--out "$noif" --fanout rr
refused "--duration must be a number of seconds > 0, not '-1'" \
	--in "$noif" --out "$noif" --duration -1
refused "--stats-interval must be a number of seconds > 0, not '0'" \
	--in "$noif" --out "$noif" --stats-interval 0
refused "--in needs an interface name" --in= --write "$out"
refused "--read or --in is required (try --help)" --write "$out"
refused "--write or --out is required (try --help)" --read "$demo"
refused "--read and --in are exclusive: one input" --read "$demo" \
	--in "$noif" --write "$out"
refused "--write and --out are exclusive: one output" --read "$demo" \
	--write "$out" --out "$noif"
refused "--fanout needs --in" --read "$demo" --write "$out" --fanout lb
for opt in --qdisc-bypass "--tx-frames 8" "--dst-mac 02:00:00:00:00:01" \
	"--src-mac 02:00:00:00:00:01"; do
	# shellcheck disable=SC2086 # $opt: an option and its value
	refused "${opt%% *} needs --out" --in "$noif" --write "$out" $opt
done
refused "--stats-interval needs --in or --out" --read "$demo" \
	--write "$out" --stats-interval 1
refused "--duration needs --in or --out" --read "$demo" --write "$out" \
	--duration 1
refused "--read given twice ('$demo', then '$out')" --read "$demo" \
	--read "$out" --write "$out"
refused "--stats given twice ('$tmp/a.json', then '$tmp/b.json')" \
	--read "$demo" --write "$out" --stats "$tmp/a.json" \
	--stats="$tmp/b.json"
refused "--in given twice ('$noif', then '$noif')" --in "$noif" \
	--in "$noif" --write "$out"

# --mem-high defaults to 4M, and K, M and G are powers of 1024: a
# --mem-low one KiB above each is refused with both counts in bytes.
refused "--mem-low (4195328) is above --mem-high (4194304)" \
	--read "$demo" --write "$out" --mem-low 4097K
refused "--mem-low (1049600) is above --mem-high (1048576)" \
	--read "$demo" --write "$out" --mem-high 1M --mem-low 1025K
refused "--mem-low (1073742848) is above --mem-high (1073741824)" \
	--read "$demo" --write "$out" --mem-high 1G --mem-low 1048577K

# The top of each range is taken: the run goes on to the interface. From
# the demo (without --stripes 65536: 64 engines of 65536 stripes take
# long to make) the output is the same file as with no options.
refused "$noif: no such interface" --in "$noif" --out "$noif" \
	--tx-frames 65536 --threads 64 --stripes 65536 --max-frags 8192 \
	--mem-low 4M --stats-interval 0.5 --duration 1
rm -f "$out"
if "$REASM" --read "$demo" --write "$tmp/plain.pcap" --quiet \
	2>"$tmp/stderr" &&
	"$REASM" --read "$demo" --write "$out" --quiet --threads 64 \
		--max-frags 8192 --mem-low 4M 2>>"$tmp/stderr" &&
	[ -s "$out" ] && cmp -s "$out" "$tmp/plain.pcap"; then
	pass "--threads 64 --max-frags 8192 --mem-low 4M: the same output"
else
	fail "the top of each range: $(cat "$tmp/stderr")"
fi

finish args_test
