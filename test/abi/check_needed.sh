#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check_needed.sh - the core library does not link liburcu (CTest:
# abi_needed).
#
# readelf -d lists each object's NEEDED entries. libgrain.so and a program
# built on the core blocks alone (test/abi/core_only.c) must name no
# liburcu; libgrain-htab.so must name liburcu-memb and libgrain (so the
# check would notice if the split were undone or the htab lost its
# liburcu). The program is also run.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_READELF        readelf (GNU binutils or llvm-readelf)
#   GRAIN_LIB            the built libgrain.so
#   GRAIN_HTAB_LIB       the built libgrain-htab.so
#   GRAIN_CORE_PROGRAM   the built test/abi/core_only.c
set -eu

: "${GRAIN_LIB:?}" "${GRAIN_HTAB_LIB:?}" "${GRAIN_CORE_PROGRAM:?}"
: "${GRAIN_READELF:=readelf}"
[ -n "$GRAIN_READELF" ] || GRAIN_READELF=readelf

failed=0
needed() {
	"$GRAIN_READELF" -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p'
}

for f in "$GRAIN_LIB" "$GRAIN_CORE_PROGRAM"; do
	list=$(needed "$f")
	[ -n "$list" ] || { echo "FAILED: no NEEDED entry read from $f"; exit 1; }
	if printf '%s\n' "$list" | grep -q '^liburcu'; then
		echo "FAILED: $(basename "$f") needs liburcu:" $list
		failed=1
	else
		echo "$(basename "$f") needs:" $list
	fi
done

list=$(needed "$GRAIN_HTAB_LIB")
echo "$(basename "$GRAIN_HTAB_LIB") needs:" $list
printf '%s\n' "$list" | grep -q '^liburcu-memb\.so' ||
	{ echo "FAILED: libgrain-htab.so does not need liburcu-memb"; failed=1; }
printf '%s\n' "$list" | grep -q '^libgrain\.so' ||
	{ echo "FAILED: libgrain-htab.so does not need libgrain"; failed=1; }

"$GRAIN_CORE_PROGRAM" || { echo "FAILED: core_only"; failed=1; }
exit $failed
