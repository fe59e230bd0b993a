#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# abi.sh - the ABI baseline of a release and the gate that holds every
# later change to it (README.md, "Versions and ABI").
#
#   abi.sh dump LIB OUT          write LIB's ABI (abidw) to OUT
#   abi.sh check LIB BASELINE    compare LIB with a release's baseline
#
# dump is what makes test/release/abi/baseline/<version>/*.abi when a version is
# released (scripts/abi-baseline.sh); check is the CTest abi_compat (and
# abi_compat_htab). Both describe the library the same way: libabigail's
# abidw over its DWARF, with no machine path in it (no corpus or
# compilation directory, file names without their directory), every type
# reachable from an exported function, the inline layouts of include/grain/
# impl/ among them (struct grain_ring, grain_impl_ring_side,
# grain_impl_htab_stripe, ...): programs compile those into their own code,
# so they are ABI although no symbol names them.
#
# check passes when, against the baseline:
#   - abidiff finds no change at all; or
#   - the only changes are compatible (abidiff's ABI_CHANGE bit alone:
#     added functions, harmless type changes) and every symbol the
#     baseline does not have is under a version node the baseline does not
#     have, while every baseline symbol is still there under its node: a
#     program that uses a new call then needs the new node, and the loader
#     refuses it on the older library instead of letting it fail at the
#     first call; or
#   - the changes are incompatible (ABI_INCOMPATIBLE_CHANGE: a symbol
#     removed, a layout or a signature changed) and the SONAME and every
#     version node differ from the baseline's, so that no program built
#     against one loads the other.
# Otherwise it prints abidiff's report and what is missing, and fails.
#
# Environment: GRAIN_ABIDW, GRAIN_ABIDIFF (default abidw, abidiff, from
# Debian's abigail-tools).
set -eu

: "${GRAIN_ABIDW:=abidw}" "${GRAIN_ABIDIFF:=abidiff}"

usage() {
	echo "usage: abi.sh dump LIB OUT | abi.sh check LIB BASELINE" >&2
	exit 2
}

dump() {
	"$GRAIN_ABIDW" --no-corpus-path --no-comp-dir-path --short-locs \
		--no-architecture --drop-undefined-syms --out-file "$2" "$1"
}

# The SONAME an abidw file records.
soname() {
	sed -n "s/^<abi-corpus [^>]*soname='\([^']*\)'.*/\1/p" "$1"
}

# Every defined symbol of an abidw file as name@node, sorted.
symbols() {
	sed -n "s/.*<elf-symbol name='\([^']*\)' version='\([^']*\)'.*/\1@\2/p" \
		"$1" | LC_ALL=C sort -u
}

nodes() {
	symbols "$1" | sed 's/.*@//' | LC_ALL=C sort -u
}

check() {
	lib=$1
	base=$2
	name=$(basename "$lib")
	[ -r "$base" ] || { echo "FAILED: no baseline $base"; exit 1; }
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-abi.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	dump "$lib" "$tmp/now.abi"

	old_so=$(soname "$base")
	new_so=$(soname "$tmp/now.abi")
	[ -n "$old_so" ] && [ -n "$new_so" ] ||
		{ echo "FAILED: no SONAME read from $base or $lib"; exit 1; }
	symbols "$base" >"$tmp/old.sym"
	symbols "$tmp/now.abi" >"$tmp/new.sym"
	nodes "$base" >"$tmp/old.nodes"
	nodes "$tmp/now.abi" >"$tmp/new.nodes"
	[ -s "$tmp/old.sym" ] && [ -s "$tmp/new.sym" ] ||
		{ echo "FAILED: no versioned symbol read"; exit 1; }

	# --harmless: abidiff calls a member added into padding, or at the
	# end of a struct that only a pointer reaches, harmless or merely
	# "compatible"; for inline code that reads the struct it is not (a
	# program built against the new header reads a member that the old
	# library never writes). So any changed function or variable, which
	# is how abidiff shows a changed type under it, counts as incompatible
	# here, whatever abidiff's exit status says.
	rc=0
	"$GRAIN_ABIDIFF" --harmless "$base" "$tmp/now.abi" >"$tmp/report" \
		2>&1 || rc=$?
	if [ $((rc & 3)) -ne 0 ]; then
		cat "$tmp/report"
		echo "FAILED: abidiff could not compare $name with $base ($rc)"
		exit 1
	fi
	changed=$(sed -n 's/^\(Functions\|Variables\) changes summary: \([0-9]*\) Removed[^,]*, \([0-9]*\) Changed.*/\2 \3/p' \
		"$tmp/report" | awk '{ n += $1 + $2 } END { print n + 0 }')
	if [ "$changed" -gt 0 ]; then
		rc=$((rc | 8))
	fi
	shared_nodes=$(LC_ALL=C comm -12 "$tmp/old.nodes" "$tmp/new.nodes")

	echo "$name: $new_so against the baseline $old_so ($base)"
	if [ $((rc & 8)) -ne 0 ]; then
		# Incompatible: a new SONAME and only new nodes.
		if [ "$old_so" = "$new_so" ] || [ -n "$shared_nodes" ]; then
			cat "$tmp/report"
			echo "FAILED: $name changes its ABI incompatibly but keeps" \
				"the SONAME $new_so or a version node of the" \
				"baseline (${shared_nodes:-none}): a new minor" \
				"version must take a new SONAME and new nodes" \
				"(README.md, \"Versions and ABI\")"
			exit 1
		fi
		echo "ok: incompatible with the baseline, under a new SONAME" \
			"($old_so -> $new_so) and new version nodes"
		exit 0
	fi

	if [ "$old_so" != "$new_so" ]; then
		# Compatible, but renamed: allowed, a program of the baseline is
		# refused by the loader (needless for the ABI, but safe).
		echo "ok: compatible with the baseline, under a new SONAME" \
			"($old_so -> $new_so)"
		exit 0
	fi
	# Same SONAME: every baseline symbol kept under its node, every new one
	# under a node the baseline lacks.
	gone=$(LC_ALL=C comm -23 "$tmp/old.sym" "$tmp/new.sym")
	added=$(LC_ALL=C comm -13 "$tmp/old.sym" "$tmp/new.sym")
	bad=""
	for s in $added; do
		if grep -qxF "${s#*@}" "$tmp/old.nodes"; then
			bad="$bad $s"
		fi
	done
	if [ -n "$gone" ] || [ -n "$bad" ]; then
		cat "$tmp/report"
		[ -z "$gone" ] || echo "FAILED: $name keeps the SONAME $new_so" \
			"but no longer has:" $gone
		[ -z "$bad" ] || echo "FAILED: $name adds symbols under a" \
			"version node of the baseline:$bad; a compatible" \
			"addition needs a new node"
		exit 1
	fi
	if [ "$rc" -eq 0 ]; then
		echo "ok: the same ABI as the baseline"
	else
		cat "$tmp/report"
		echo "ok: compatible additions, each under a new version node"
	fi
}

[ $# -eq 3 ] || usage
case $1 in
dump) dump "$2" "$3" ;;
check) check "$2" "$3" ;;
*) usage ;;
esac
