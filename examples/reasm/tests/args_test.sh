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

# Taken: "-h" and --help print the usage on stdout, exit 0.
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
refused ": No such file or directory" --read= --write "$out"

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

finish args_test
