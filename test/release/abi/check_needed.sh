#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check_needed.sh - the core library does not link liburcu, and each
# library's SONAME follows the version (CTest: abi_needed).
#
# readelf -d lists each object's NEEDED entries. libgrain.so and a program
# built on the core blocks alone (test/release/abi/core_only.c) must name no
# liburcu; libgrain-htab.so must name liburcu-memb and libgrain (so the
# check would notice if the split were undone or the htab lost its
# liburcu). The program is also run.
#
# SONAMEs (README.md, "Versions and ABI"): while the major version is 0,
# libgrain.so.MAJOR.MINOR and libgrain-htab.so.MAJOR.MINOR (0.4.x:
# libgrain.so.0.4), from 1.0 on libgrain.so.MAJOR; worked out here from
# GRAIN_VERSION, not taken from the build. The core program and
# libgrain-htab.so must need libgrain by exactly that name, so that a
# program built against 0.4 never loads a 0.5 library.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_READELF        readelf (GNU binutils or llvm-readelf)
#   GRAIN_LIB            the built libgrain.so
#   GRAIN_HTAB_LIB       the built libgrain-htab.so
#   GRAIN_CORE_PROGRAM   the built test/release/abi/core_only.c
#   GRAIN_VERSION        the project version (MAJOR.MINOR.PATCH)
set -eu

: "${GRAIN_LIB:?}" "${GRAIN_HTAB_LIB:?}" "${GRAIN_CORE_PROGRAM:?}"
: "${GRAIN_VERSION:?}"
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

major=${GRAIN_VERSION%%.*}
minor=${GRAIN_VERSION#*.}
minor=${minor%%.*}
if [ "$major" -eq 0 ]; then
	soversion="$major.$minor"
else
	soversion="$major"
fi
check_soname() {
	got=$("$GRAIN_READELF" -d "$1" |
		sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
	if [ "$got" = "$2" ]; then
		echo "$(basename "$1"): SONAME $got"
	else
		echo "FAILED: $(basename "$1") has SONAME '$got', expected $2"
		failed=1
	fi
}
check_soname "$GRAIN_LIB" "libgrain.so.$soversion"
check_soname "$GRAIN_HTAB_LIB" "libgrain-htab.so.$soversion"
for f in "$GRAIN_CORE_PROGRAM" "$GRAIN_HTAB_LIB"; do
	needed "$f" | grep -qx "libgrain\.so\.$soversion" || {
		echo "FAILED: $(basename "$f") does not need" \
			"libgrain.so.$soversion:" "$(needed "$f" | tr '\n' ' ')"
		failed=1
	}
done

"$GRAIN_CORE_PROGRAM" || { echo "FAILED: core_only"; failed=1; }
exit $failed
